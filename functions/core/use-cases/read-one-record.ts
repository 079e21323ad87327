/**
 * The ONE Record server's reads: a logistics object (now, or `at` an instant from the route map's
 * snapshots), and the LogisticsEvents of one. Deny by default: a forwarder reads the objects of the
 * AWBs it may read on the REST API (owner, XTD grants), a carrier those of its own prefix, nobody else
 * anything. An id the service never gave is unknown (404); a well-formed id of an AWB the caller may
 * not read is refused (403) whether or not the AWB exists, so the answer never tells which.
 */
import type { AwbId } from "../carrier-messages/types.ts";
import type { CarrierIdentity, ForwarderIdentity } from "../identity.ts";
import {
  type DerivedEvent,
  type EventFilter,
  eventCollection,
  eventObject,
  eventsOf,
  filterEvents,
} from "../one-record-server/events.ts";
import { type ObjectRef, objectId, parseAwbAlias, parseObjectId } from "../one-record-server/ids.ts";
import {
  document,
  type Links,
  location,
  objectUrl,
  shipment,
  transportMovement,
  waybill,
} from "../one-record-server/objects.ts";
import { CARGO_NS, type JsonLd } from "../one-record-server/vocabulary.ts";
import type { RouteMapRepository, RouteMapView } from "../ports/route-maps.ts";
import type { RouteMap } from "../route-map/spec-types.ts";
import { currentRouteMapJson, mayRead } from "./shared/read-access.ts";

export type OneRecordCaller = ForwarderIdentity | CarrierIdentity;

export interface ReadOneRecordDeps {
  routeMaps: Pick<RouteMapRepository, "getView" | "get" | "snapshots">;
}

export type ReadAnswer =
  | {
      kind: "ok";
      body: JsonLd;
      /** The object's class IRI (the Type header). */
      type: string;
      revision: number;
      latestRevision: number;
      lastModified: string;
    }
  | { kind: "redirect"; location: string }
  | { kind: "not-found"; detail: string }
  | { kind: "forbidden"; detail: string };

const notFound = (id: string): ReadAnswer => ({ kind: "not-found", detail: `No logistics object ${id}.` });
const forbidden = (): ReadAnswer => ({
  kind: "forbidden",
  detail: "This logistics object is not shared with the caller.",
});

export function mayAccess(
  view: Pick<RouteMapView, "ownerAgent" | "xtdForwarders">,
  awb: AwbId,
  caller: OneRecordCaller,
) {
  return caller.role === "carrier" ? awb.prefix === caller.carrierPrefix : mayRead(view, caller);
}

interface Resolved {
  ref: Exclude<ObjectRef, { kind: "Location" }>;
  view: RouteMapView;
  map: RouteMap;
  revision: number;
  lastModified: string;
}

/** The route map behind an AWB's object as the caller may see it, now or at `at`; else the refusal. */
async function resolve(
  deps: ReadOneRecordDeps,
  ref: Exclude<ObjectRef, { kind: "Location" }>,
  caller: OneRecordCaller,
  now: string,
  at: string | null,
  id: string,
): Promise<Resolved | ReadAnswer> {
  // The carrier's check needs no read: another prefix is refused before anything is looked up.
  if (caller.role === "carrier" && ref.awb.prefix !== caller.carrierPrefix) return forbidden();
  const view = await deps.routeMaps.getView(ref.awb);
  if (view === null) return caller.role === "carrier" ? notFound(id) : forbidden();
  if (!mayAccess(view, ref.awb, caller)) return forbidden();
  if (at === null) {
    const json = await currentRouteMapJson(view, now, () => deps.routeMaps.get(ref.awb));
    return {
      ref,
      view,
      map: JSON.parse(json) as RouteMap,
      revision: view.version,
      lastModified: view.updatedAt,
    };
  }
  // Snapshots come newest first, one per change; the object as of `at` is the newest not after it.
  const snapshots = await deps.routeMaps.snapshots(ref.awb, now);
  const index = snapshots.findIndex((s) => Date.parse(s.snapshotAt) <= Date.parse(at));
  const snapshot = snapshots[index];
  if (snapshot === undefined) return { kind: "not-found", detail: `No revision of ${id} at ${at}.` };
  return {
    ref,
    view,
    map: JSON.parse(snapshot.routeMapJson) as RouteMap,
    revision: Math.max(1, view.version - index),
    lastModified: snapshot.snapshotAt,
  };
}

const isAnswer = <T extends object>(value: T | ReadAnswer): value is ReadAnswer => "kind" in value;

export interface GetObjectInput {
  id: string;
  caller: OneRecordCaller;
  links: Links;
  now: string;
  embedded: boolean;
  at: string | null;
}

export async function getLogisticsObject(
  deps: ReadOneRecordDeps,
  input: GetObjectInput,
): Promise<ReadAnswer> {
  const alias = parseAwbAlias(input.id);
  if (alias !== null)
    return { kind: "redirect", location: objectUrl(input.links, objectId("Waybill", alias)) };
  const ref = parseObjectId(input.id);
  if (ref === null) return notFound(input.id);
  if (ref.kind === "Location")
    return {
      kind: "ok",
      body: document(location(input.links, ref.code)),
      type: `${CARGO_NS}Location`,
      revision: 1,
      latestRevision: 1,
      // Reference data: it has not changed since the service began serving it.
      lastModified: "2026-01-01T00:00:00Z",
    };
  const resolved = await resolve(deps, ref, input.caller, input.now, input.at, input.id);
  if (isAnswer(resolved)) return resolved;
  const { map } = resolved;
  const object =
    ref.kind === "Waybill"
      ? waybill(input.links, map, input.embedded)
      : ref.kind === "Shipment"
        ? shipment(input.links, map, input.embedded)
        : transportMovement(input.links, map, ref.leg, input.embedded);
  if (object === null) return notFound(input.id);
  return {
    kind: "ok",
    body: document(object),
    type: `${CARGO_NS}${ref.kind}`,
    revision: resolved.revision,
    latestRevision: resolved.view.version,
    lastModified: resolved.lastModified,
  };
}

export interface EventsInput {
  id: string;
  caller: OneRecordCaller;
  links: Links;
  now: string;
}

async function eventsBehind(
  deps: ReadOneRecordDeps,
  input: EventsInput,
): Promise<{ resolved: Resolved; events: DerivedEvent[] } | ReadAnswer> {
  const ref = parseObjectId(input.id);
  if (ref === null || ref.kind === "Location") return notFound(input.id);
  const resolved = await resolve(deps, ref, input.caller, input.now, null, input.id);
  if (isAnswer(resolved)) return resolved;
  if (ref.kind === "TransportMovement" && transportMovement(input.links, resolved.map, ref.leg) === null)
    return notFound(input.id);
  return { resolved, events: eventsOf(resolved.map, ref.kind, ref.leg) };
}

const recordedBy = (links: Links) => `${links.base}/#data-holder`;

export async function listLogisticsEvents(
  deps: ReadOneRecordDeps,
  input: EventsInput & { filter: EventFilter },
): Promise<ReadAnswer> {
  const found = await eventsBehind(deps, input);
  if (isAnswer(found)) return found;
  const { resolved, events } = found;
  const { total, items } = filterEvents(events, input.filter);
  const owner = { kind: resolved.ref.kind, leg: resolved.ref.leg };
  const url = `${objectUrl(input.links, input.id)}/logistics-events`;
  return {
    kind: "ok",
    body: document(
      eventCollection(
        url,
        total,
        items.map((event) => eventObject(input.links, resolved.map, owner, event, recordedBy(input.links))),
      ),
    ),
    type: "https://onerecord.iata.org/ns/api#Collection",
    revision: resolved.revision,
    latestRevision: resolved.view.version,
    lastModified: resolved.lastModified,
  };
}

export async function getLogisticsEvent(
  deps: ReadOneRecordDeps,
  input: EventsInput & { eventId: string },
): Promise<ReadAnswer> {
  const found = await eventsBehind(deps, input);
  if (isAnswer(found)) return found;
  const { resolved, events } = found;
  const event = events.find((candidate) => candidate.id === input.eventId);
  if (event === undefined)
    return { kind: "not-found", detail: `No logistics event ${input.eventId} of ${input.id}.` };
  const owner = { kind: resolved.ref.kind, leg: resolved.ref.leg };
  return {
    kind: "ok",
    body: document(eventObject(input.links, resolved.map, owner, event, recordedBy(input.links))),
    type: `${CARGO_NS}LogisticsEvent`,
    revision: resolved.revision,
    latestRevision: resolved.view.version,
    lastModified: resolved.lastModified,
  };
}
