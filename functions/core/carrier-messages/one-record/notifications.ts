/**
 * A ONE Record `api:Notification` (API 2.x, JSON-LD): what a carrier's ONE Record server announces
 * (the event type, the LogisticsObject and, from API 2.3, the LogisticsEvents), each reference with
 * the line and path it was written at.
 */
import { MAX_MESSAGES_PER_BODY } from "../common.ts";
import type { SourceRef } from "../types.ts";
import {
  API_NS,
  allProperties,
  assertShallow,
  DEFAULT_CONTEXT,
  expandIri,
  isObject,
  type Located,
  type Node,
  Reader,
  typesOf,
  withContext,
} from "./json-ld.ts";
import { codeOf } from "./terms.ts";

/** A reference in a Notification: the IRI and where it was written. */
export interface NotificationReference {
  iri: string;
  at: SourceRef;
}

/** What a ONE Record `api:Notification` announces (API 2.x). */
export interface OneRecordNotification {
  /** The local name of `api:hasEventType`: LOGISTICS_EVENT_RECEIVED, LOGISTICS_OBJECT_UPDATED, ... */
  eventType: string;
  eventTypeAt: SourceRef;
  /** `api:hasLogisticsObject`. */
  logisticsObject: NotificationReference | null;
  /** `api:hasLogisticsEvent` (API 2.3; none in 2.0/2.1 notifications). */
  logisticsEvents: NotificationReference[];
}

function referenceOf(located: Located, reader: Reader, what: string): NotificationReference {
  const id = isObject(located.value) ? located.value["@id"] : located.value;
  if (typeof id !== "string" || id === "")
    return reader.fail(located.path, `${what} with an @id IRI`, located.value);
  return { iri: expandIri(id, located.ctx, false), at: reader.at(located.path) };
}

/**
 * Parses a ONE Record Notification (already JSON.parse'd; `sourceText` names lines). MessageParseError
 * (400) naming the path when it is not one, or a reference has no IRI. At most MAX_MESSAGES_PER_BODY
 * events may be announced.
 */
export function parseOneRecordNotification(body: unknown, sourceText?: string): OneRecordNotification {
  const reader = new Reader(sourceText);
  assertShallow(body, reader);
  if (!isObject(body)) return reader.fail([], "a JSON-LD api:Notification object", body);
  const node: Node = { value: body, ctx: withContext(DEFAULT_CONTEXT, body), path: [] };
  const types = typesOf(node);
  if (types.length > 0 && !types.includes(`${API_NS}Notification`))
    reader.fail(["@type"], "an api:Notification", types[0]);
  const [typeAt] = allProperties(node, "hasEventType", API_NS);
  if (typeAt === undefined)
    return reader.fail([], "an api:hasEventType such as api:LOGISTICS_EVENT_RECEIVED", undefined);
  const eventType = codeOf(typeAt);
  if (eventType === null || !/^[A-Z_]{1,64}$/.test(eventType))
    return reader.fail(typeAt.path, "an api:hasEventType such as api:LOGISTICS_EVENT_RECEIVED", typeAt.value);
  const [objectAt] = allProperties(node, "hasLogisticsObject", API_NS);
  const events = allProperties(node, "hasLogisticsEvent", API_NS);
  if (events.length > MAX_MESSAGES_PER_BODY)
    reader.fail(
      events[MAX_MESSAGES_PER_BODY]?.path ?? [],
      `at most ${MAX_MESSAGES_PER_BODY} announced LogisticsEvents`,
      `${events.length}`,
    );
  return {
    eventType,
    eventTypeAt: reader.at(typeAt.path),
    logisticsObject: objectAt === undefined ? null : referenceOf(objectAt, reader, "api:hasLogisticsObject"),
    logisticsEvents: events.map((e) => referenceOf(e, reader, "api:hasLogisticsEvent")),
  };
}
