/**
 * POST {base}/logistics-objects/{id}/logistics-events: a carrier's ONE Record client writes a
 * LogisticsEvent to one of our logistics objects. The event is read by the same ONE Record event reader
 * as `POST /carrier/messages` (data models 3.0 to 3.3) and applied by the same ingest as a Cargo-IMP FSU
 * (ingestCarrierReports), so both change a route map alike. The AWB is the one the URL's object
 * carries (its `eventFor` is not read: the object posted to is the event's object), and its origin
 * and destination are the route map's.
 *
 * Refusals: an id the service never gave, or an AWB it holds no route map for, 404 (nothing to place
 * the event on); another carrier's prefix 403 before anything is read; an event that is not ACTUAL
 * 422 (a route map's plan comes from the booking, and an estimate is no actual). The answer names
 * the event as this server now serves it (201 and its Location); a status the route map keeps only
 * as history (BKD, FOH, MAN) has no event of its own to name (202).
 */
import { parseJsonText } from "../carrier-messages/json/text.ts";
import { parseOneRecordEvents } from "../carrier-messages/one-record/events.ts";
import { UnplaceableMessageError } from "../errors.ts";
import { deriveEvents } from "../one-record-server/events.ts";
import { parseObjectId } from "../one-record-server/ids.ts";
import { type Links, objectUrl } from "../one-record-server/objects.ts";
import { receiptOf } from "../route-map/provenance.ts";
import type { RouteMap } from "../route-map/spec-types.ts";
import type { AppliedMessage } from "../types.ts";
import { type IngestCarrierMessageDeps, ingestCarrierReports } from "./ingest-carrier-message.ts";
import { currentRouteMapJson } from "./shared/read-access.ts";

export interface PostLogisticsEventInput {
  id: string;
  carrierPrefix: string;
  contentType: string;
  body: string;
  links: Links;
  now: string;
  timeLeftMs?: () => number;
}

export type PostAnswer =
  | { kind: "created"; location: string; applied: AppliedMessage[] }
  | { kind: "accepted"; applied: AppliedMessage[] }
  | { kind: "not-found"; detail: string }
  | { kind: "forbidden"; detail: string };

const ONLY_ACTUAL = "an eventTimeType ACTUAL (planned and estimated times do not change a route map)";

export async function postLogisticsEvent(
  deps: IngestCarrierMessageDeps,
  input: PostLogisticsEventInput,
): Promise<PostAnswer> {
  const ref = parseObjectId(input.id);
  if (ref === null || ref.kind === "Location")
    return { kind: "not-found", detail: `No logistics object ${input.id} to add an event to.` };
  if (ref.awb.prefix !== input.carrierPrefix)
    return { kind: "forbidden", detail: "A carrier writes events only for AWBs of its own prefix." };
  const view = await deps.routeMaps.getView(ref.awb);
  if (view === null)
    return { kind: "not-found", detail: `No logistics object ${input.id} to add an event to.` };
  const current = (json: string) => JSON.parse(json) as RouteMap;
  const before = current(await currentRouteMapJson(view, input.now, () => deps.routeMaps.get(ref.awb)));
  const { Origin, Destination } = before.Shipment.Routing;

  // Throws MessageParseError (400 naming the line) and UnplaceableMessageError (422) as /carrier/messages does.
  const json = parseJsonText(input.body);
  const reports = parseOneRecordEvents(json, input.body, {
    waybill: { awb: ref.awb, origin: Origin, destination: Destination },
  });
  if (reports.length === 0)
    throw new UnplaceableMessageError(1, ONLY_ACTUAL, "another eventTimeType", "cargo:eventTimeType");
  const receipt = receiptOf("onerecord", input.carrierPrefix, input.now, input.body);
  const applied = await ingestCarrierReports(deps, {
    carrierPrefix: input.carrierPrefix,
    now: input.now,
    reports,
    received: { receipt, contentType: input.contentType, body: input.body },
    ...(input.timeLeftMs ? { timeLeftMs: input.timeLeftMs } : {}),
  });

  const report = reports[0];
  const after = await deps.routeMaps.getView(ref.awb);
  if (report === undefined || report.kind !== "status" || after === null)
    return { kind: "accepted", applied };
  const map = current(await currentRouteMapJson(after, input.now, () => deps.routeMaps.get(ref.awb)));
  const matching = deriveEvents(map).filter(
    (event) =>
      event.timeType === "ACTUAL" && event.code === report.status && event.station === report.station,
  );
  const event =
    matching.find((candidate) => ref.kind === "TransportMovement" && candidate.leg === ref.leg) ??
    matching[0];
  if (event === undefined) return { kind: "accepted", applied };
  return {
    kind: "created",
    location: `${objectUrl(input.links, input.id)}/logistics-events/${event.id}`,
    applied,
  };
}
