/**
 * The LogisticsEvents of a route map: every milestone's actual (eventTimeType ACTUAL) and its plan
 * (PLANNED), each an event of the Waybill and of the Shipment, and a flight's DEP and ARR also of that
 * leg's TransportMovement. eventCode is the StatusCode code-list element (FWB and LAT, which no IATA
 * list has, are our own code-list elements). Ids are stable: the milestone, its station, its place in
 * the route and the time type (`dep-fra-1-actual`).
 *
 * GET {lo}/logistics-events answers an api:Collection filtered as the API specifies: event-code,
 * created-after/-before, occurred-after/-before, sort (by eventDate), limit and skip.
 */
import type { Milestone, RouteMap } from "../route-map/spec-types.ts";
import { type ObjectKind, objectId } from "./ids.ts";
import { awbOf, flightsOf, type Links, locationUrl, objectUrl } from "./objects.ts";
import {
  dateTime,
  type JsonLd,
  OWN_CODE_LIST_NAME,
  OWN_MILESTONE_CODES,
  ref,
  statusCodeIri,
} from "./vocabulary.ts";

export type TimeType = "ACTUAL" | "PLANNED";

/** One event as the service derives it (before it is written as JSON-LD). */
export interface DerivedEvent {
  id: string;
  code: string;
  station: string;
  timeType: TimeType;
  /** When it happened (ACTUAL) or is planned (PLANNED), UTC. */
  eventDate: string;
  /** When the service recorded it: the route map's last change for actuals, its creation for plans. */
  creationDate: string;
  /** The flight leg (1-based) of a routing milestone, null for origin and destination milestones. */
  leg: number | null;
}

function fromMilestones(map: RouteMap, milestones: readonly Milestone[], place: string, leg: number | null) {
  const out: DerivedEvent[] = [];
  for (const m of milestones) {
    const base = { code: m.Name, station: m.Station, leg };
    const id = (type: string) => `${m.Name}-${m.Station}-${place}-${type}`.toLowerCase();
    if (m.ActualDateTime)
      out.push({
        ...base,
        id: id("actual"),
        timeType: "ACTUAL",
        eventDate: m.ActualDateTime.Utc,
        creationDate: map.LastUpdate,
      });
    if (m.PlannedDateTime)
      out.push({
        ...base,
        id: id("planned"),
        timeType: "PLANNED",
        eventDate: m.PlannedDateTime.Utc,
        creationDate: map.CreationDate.Utc,
      });
  }
  return out;
}

/** Every event of the route map, in route order (origin, each flight, destination). */
export function deriveEvents(map: RouteMap): DerivedEvent[] {
  const plan = map.MilestonePlan;
  return [
    ...fromMilestones(map, plan.OriginCycle.Milestone, "o", null),
    ...flightsOf(map).flatMap((flight, i) => fromMilestones(map, flight.Milestone, String(i + 1), i + 1)),
    ...fromMilestones(map, plan.DestinationCycle.Milestone, "d", null),
  ];
}

/** The events of one object: all of them for the Waybill and the Shipment, a leg's own for its movement. */
export function eventsOf(map: RouteMap, kind: ObjectKind, leg: number): DerivedEvent[] {
  const all = deriveEvents(map);
  return kind === "TransportMovement" ? all.filter((event) => event.leg === leg) : all;
}

function eventCode(links: Links, code: string): JsonLd {
  if (OWN_MILESTONE_CODES.has(code))
    return {
      "@id": `${links.base}/code-lists/milestones#${code}`,
      "@type": "cargo:CodeListElement",
      "cargo:code": code,
      "cargo:codeListName": OWN_CODE_LIST_NAME,
    };
  return ref(statusCodeIri(code));
}

export interface EventOwner {
  kind: ObjectKind;
  leg: number;
}

/** The event as JSON-LD, under the object it was asked through. */
export function eventObject(
  links: Links,
  map: RouteMap,
  owner: EventOwner,
  event: DerivedEvent,
  recordingOrganization: string | null,
): JsonLd {
  const awb = awbOf(map);
  const ownerUrl = objectUrl(links, objectId(owner.kind, awb, owner.leg));
  const out: JsonLd = {
    "@id": `${ownerUrl}/logistics-events/${event.id}`,
    "@type": "cargo:LogisticsEvent",
    "cargo:eventCode": eventCode(links, event.code),
    "cargo:eventName": `${event.code} at ${event.station}`,
    "cargo:eventTimeType": ref(`cargo:${event.timeType}`),
    "cargo:eventDate": dateTime(event.eventDate),
    "cargo:creationDate": dateTime(event.creationDate),
    "cargo:eventLocation": ref(locationUrl(links, event.station)),
    "cargo:eventFor": ref(objectUrl(links, objectId("Waybill", awb))),
  };
  if (event.leg !== null)
    out["cargo:transportMovementReference"] = ref(
      objectUrl(links, objectId("TransportMovement", awb, event.leg)),
    );
  if (recordingOrganization !== null) out["cargo:recordingOrganization"] = ref(recordingOrganization);
  return out;
}

/** GET {lo}/logistics-events query, as the API names it; already checked (dates are UTC ISO). */
export interface EventFilter {
  eventCode: string | null;
  createdAfter: string | null;
  createdBefore: string | null;
  occurredAfter: string | null;
  occurredBefore: string | null;
  sort: "asc" | "desc";
  limit: number;
  skip: number;
}

export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 500;

export function filterEvents(events: readonly DerivedEvent[], filter: EventFilter) {
  const ms = (iso: string) => Date.parse(iso);
  const after = (value: string, bound: string | null) => bound === null || ms(value) > ms(bound);
  const before = (value: string, bound: string | null) => bound === null || ms(value) < ms(bound);
  const matching = events
    .filter((e) => filter.eventCode === null || e.code === filter.eventCode)
    .filter((e) => after(e.creationDate, filter.createdAfter) && before(e.creationDate, filter.createdBefore))
    .filter((e) => after(e.eventDate, filter.occurredAfter) && before(e.eventDate, filter.occurredBefore))
    .sort((a, b) => (ms(a.eventDate) - ms(b.eventDate)) * (filter.sort === "asc" ? 1 : -1));
  return { total: matching.length, items: matching.slice(filter.skip, filter.skip + filter.limit) };
}

/** An api:Collection of events. */
export function eventCollection(collectionUrl: string, total: number, items: JsonLd[]): JsonLd {
  return {
    "@id": collectionUrl,
    "@type": "api:Collection",
    "api:hasTotalItems": { "@type": "xsd:nonNegativeInteger", "@value": String(total) },
    "api:hasItem": items,
  };
}
