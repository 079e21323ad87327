/**
 * POST /onerecord/notifications: a carrier's ONE Record server (the publisher) announces
 * a LogisticsEvent (`LOGISTICS_EVENT_RECEIVED`, `api:hasLogisticsEvent`) or a changed LogisticsObject
 * (`LOGISTICS_OBJECT_UPDATED`, `api:hasLogisticsObject`). The service fetches the announced events
 * from the publisher with the carrier's configured token (each IRI, or `<object>/logistics-events`
 * when only the object is named, as API 2.0/2.1 notifications do) and applies them exactly like
 * LogisticsEvents posted to /carrier/messages.
 *
 * - Only IRIs under the carrier's OneRecord.ServerUrl are fetched (same origin, path below it): any
 *   other is 422 naming the notification's field, nothing fetched. Not configured: 422.
 * - Every document is fetched and checked before anything is stored: a publisher that is down or
 *   answers an error is 503/502 with Retry-After (it sends the notification again); an event that
 *   cannot be used is 422 naming its IRI, line and path.
 * - Events whose eventCode is not a StatusCode code (a publisher's own milestones) are skipped, as
 *   are events not ACTUAL (carrier-messages/one-record/events.ts); other notification types are
 *   acknowledged, nothing fetched.
 */
import { parseJsonText } from "../carrier-messages/json/text.ts";
import { parseOneRecordEvents } from "../carrier-messages/one-record/events.ts";
import {
  assertShallow,
  isObject,
  type Json,
  type JsonObject,
  Reader,
} from "../carrier-messages/one-record/json-ld.ts";
import {
  embedLinked,
  eventCount,
  linksToFollow,
  MAX_LINKED_DOCUMENTS,
  withSubject,
} from "../carrier-messages/one-record/linked.ts";
import {
  type NotificationReference,
  parseOneRecordNotification,
} from "../carrier-messages/one-record/notifications.ts";
import { parseOneRecordWaybill } from "../carrier-messages/one-record/waybill-object.ts";
import { assertPlausibleTimes } from "../carrier-messages/plausible-times.ts";
import type { CarrierReport } from "../carrier-messages/types.ts";
import {
  MessageParseError,
  OneRecordNotConfiguredError,
  PublisherUnavailableError,
  UnusableLogisticsEventError,
  UnusableReferenceError,
} from "../errors.ts";
import type { CarrierDirectory } from "../ports/carriers.ts";
import type { OneRecordPublisher } from "../ports/one-record.ts";
import { receiptOf } from "../route-map/provenance.ts";
import { assertPlaceable } from "../route-map/report-placement.ts";
import {
  type AppliedMessage,
  type IngestCarrierMessageDeps,
  ingestCarrierReports,
} from "./ingest-carrier-message.ts";

export interface ReceiveOneRecordNotificationDeps extends IngestCarrierMessageDeps {
  /** Read uncached: a token support just changed is used at once. */
  carrierSettings: CarrierDirectory;
  publisher: OneRecordPublisher;
}

export interface ReceiveOneRecordNotificationInput {
  carrierPrefix: string;
  body: string;
  /** Receipt time, ISO UTC. */
  now: string;
  timeLeftMs?: () => number;
}

export interface NotificationOutcome {
  eventType: string;
  /** The documents fetched from the publisher, in order. */
  fetched: string[];
  applied: AppliedMessage[];
}

/** Time one more fetch needs (the publisher adapter's 5 s deadline) plus room for the answer. */
export const FETCH_RESERVE_MS = 6_500;

/** Notification types that announce LogisticsEvents to fetch; any other is acknowledged only. */
export const FETCHING_EVENT_TYPES: ReadonlySet<string> = new Set([
  "LOGISTICS_EVENT_RECEIVED",
  "LOGISTICS_OBJECT_UPDATED",
]);

export async function receiveOneRecordNotification(
  deps: ReceiveOneRecordNotificationDeps,
  input: ReceiveOneRecordNotificationInput,
): Promise<NotificationOutcome> {
  const notification = parseOneRecordNotification(parseJsonText(input.body), input.body);
  const { eventType } = notification;
  if (!FETCHING_EVENT_TYPES.has(eventType)) return { eventType, fetched: [], applied: [] };

  const server = (await deps.carrierSettings.get(input.carrierPrefix))?.oneRecord;
  if (!server) throw new OneRecordNotConfiguredError(input.carrierPrefix);

  const targets = documentsToFetch(notification.logisticsEvents, notification.logisticsObject);
  if (targets.length === 0) {
    throw new MessageParseError(
      notification.eventTypeAt.line,
      "an api:hasLogisticsEvent or api:hasLogisticsObject IRI to fetch",
      "nothing",
    );
  }
  for (const target of targets) assertUnderServer(target.ref, server.serverUrl);

  const fetchOne = async (url: string, ref: NotificationReference): Promise<string> => {
    // A fetch may take the adapter's whole deadline: answer (503, retry) rather than be cut off.
    if (input.timeLeftMs !== undefined && input.timeLeftMs() < FETCH_RESERVE_MS)
      throw new PublisherUnavailableError(url, "no time left in this request to fetch it", null);
    const result = await deps.publisher.fetch(url, server.token ?? null);
    if (result.kind === "refused")
      throw new UnusableReferenceError(
        fieldOf(ref),
        `is not an address the service may call (${result.reason})`,
      );
    if (result.kind === "failed") throw new PublisherUnavailableError(url, result.reason, result.status);
    return result.body;
  };

  const subject = notification.logisticsObject;
  const fetchedBodies: { url: string; body: string; json: Json }[] = [];
  for (const target of targets) {
    const body = await fetchOne(target.url, target.ref);
    fetchedBodies.push({
      url: target.url,
      body,
      json: withSubject(jsonOf(target.url, body), subject?.iri ?? null),
    });
  }

  // What the events only link to (their object, its waybill, the airports): fetched once each, and
  // the object itself when its event list is empty (a changed Waybill says itself what it is).
  const linked = new Map<string, JsonObject>();
  const linkedBodies = new Map<string, string>();
  const wantObject =
    subject !== null &&
    eventType === "LOGISTICS_OBJECT_UPDATED" &&
    fetchedBodies.every((d) => eventCount(d.json) === 0);
  let pending = [
    ...new Set([
      ...(wantObject && subject ? [subject.iri] : []),
      ...fetchedBodies.flatMap((d) => linksToFollow(d.json, linked)),
    ]),
  ];
  while (pending.length > 0) {
    const next: string[] = [];
    for (const iri of pending) {
      if (linked.has(iri)) continue;
      if (linked.size >= MAX_LINKED_DOCUMENTS)
        throw new UnusableReferenceError(
          iri,
          `is one link too many (at most ${MAX_LINKED_DOCUMENTS} are followed)`,
        );
      const ref = { iri, at: subject?.at ?? notification.eventTypeAt };
      assertUnderServer(ref, server.serverUrl);
      const body = await fetchOne(iri, ref);
      const json = jsonOf(iri, body);
      if (!isObject(json)) throw new UnusableReferenceError(iri, "is not a JSON-LD object");
      linked.set(iri, json);
      linkedBodies.set(iri, body);
      next.push(...linksToFollow(json, linked));
    }
    pending = [...new Set(next)].filter((iri) => !linked.has(iri));
  }

  const documents: { url: string; body: string; reports: CarrierReport[] }[] = [];
  const subjectDoc = subject === null ? undefined : linked.get(subject.iri);
  if (subject !== null && subjectDoc !== undefined && wantObject) {
    documents.push({
      url: subject.iri,
      body: linkedBodies.get(subject.iri) ?? "",
      reports: readWaybillDocument(
        subject.iri,
        embedLinked(subjectDoc, linked),
        linkedBodies.get(subject.iri),
        input.now,
      ),
    });
  }
  for (const d of fetchedBodies)
    documents.push({
      url: d.url,
      body: d.body,
      reports: readDocument(d.url, embedLinked(d.json, linked), d.body, input.now),
    });

  const applied: AppliedMessage[] = [];
  for (const document of documents) {
    applied.push(
      ...(await ingestCarrierReports(deps, {
        carrierPrefix: input.carrierPrefix,
        reports: document.reports,
        // Each fetched document is its own receipt: the raw message support reads is that document.
        received: {
          receipt: receiptOf(
            "onerecord",
            input.carrierPrefix,
            input.now,
            `${document.url}\n${document.body}`,
          ),
          contentType: "application/ld+json",
          body: document.body,
          fetchedFrom: document.url,
        },
        now: input.now,
        ...(input.timeLeftMs ? { timeLeftMs: input.timeLeftMs } : {}),
      })),
    );
  }
  return { eventType, fetched: [...targets.map((t) => t.url), ...linked.keys()], applied };
}

function documentsToFetch(
  events: readonly NotificationReference[],
  object: NotificationReference | null,
): { url: string; ref: NotificationReference }[] {
  if (events.length > 0) return events.map((ref) => ({ url: ref.iri, ref }));
  if (object === null) return [];
  // The object's event list (GET {object}/logistics-events, an api:Collection).
  return [{ url: `${object.iri.replace(/\/+$/, "")}/logistics-events`, ref: object }];
}

function fieldOf(ref: NotificationReference): string {
  return `line ${ref.at.line}: ${ref.at.path}`;
}

/** Same scheme, host and port as the server, and a path at or below its path: else 422. */
function assertUnderServer(ref: NotificationReference, serverUrl: string): void {
  let iri: URL;
  let server: URL;
  try {
    iri = new URL(ref.iri);
    server = new URL(serverUrl);
  } catch {
    throw new UnusableReferenceError(fieldOf(ref), "is not an absolute IRI");
  }
  const base = server.pathname.endsWith("/") ? server.pathname : `${server.pathname}/`;
  const under =
    iri.origin === server.origin &&
    iri.username === "" &&
    iri.password === "" &&
    (iri.pathname === server.pathname || iri.pathname.startsWith(base)) &&
    !iri.pathname.split("/").includes("..");
  if (!under)
    throw new UnusableReferenceError(
      fieldOf(ref),
      `must be under the carrier's ONE Record server ${serverUrl}`,
    );
}

/** A fetched body as JSON; 422 naming its IRI when it is not (or is nested too deep). */
function jsonOf(url: string, body: string): Json {
  try {
    const json = parseJsonText(body) as Json;
    assertShallow(json, new Reader(body));
    return json;
  } catch (error) {
    if (error instanceof MessageParseError) throw new UnusableLogisticsEventError(url, error);
    throw error;
  }
}

/** The reports of one fetched document, checked as a posted body would be; 422 naming its IRI otherwise. */
function readDocument(url: string, json: Json, body: string, now: string): CarrierReport[] {
  try {
    const reports = parseOneRecordEvents(json, body, { skipOtherCodes: true });
    assertPlausibleTimes(reports, now);
    for (const report of reports) assertPlaceable(report, now);
    return reports;
  } catch (error) {
    if (error instanceof MessageParseError) throw new UnusableLogisticsEventError(url, error);
    throw error;
  }
}

/** The waybill a changed object names (Waybill, Shipment or Piece); 422 naming its IRI otherwise. */
function readWaybillDocument(
  url: string,
  json: Json,
  body: string | undefined,
  now: string,
): CarrierReport[] {
  try {
    const report = parseOneRecordWaybill(json, body);
    assertPlaceable(report, now);
    return [report];
  } catch (error) {
    if (error instanceof MessageParseError) throw new UnusableLogisticsEventError(url, error);
    throw error;
  }
}
