/**
 * The api:Notification a subscriber gets for one domain event: which object it is about (the
 * subscription's topic, or for a type subscription the AWB's object of that type), which LogisticsEvent
 * (its id is the read side's, so `GET` of `hasLogisticsEvent` answers it), and, when the subscription
 * asked for it (`sendLogisticsObjectBody`), the object itself. Pure: the channel hands it the route map.
 */
import type { DomainEvent } from "../events.ts";
import type { RouteMap } from "../route-map/spec-types.ts";
import { type DerivedEvent, deriveEvents } from "./events.ts";
import { type ObjectKind, objectId } from "./ids.ts";
import { awbOf, flightsOf, type Links, objectUrl, shipment, transportMovement, waybill } from "./objects.ts";
import type { OneRecordSubscription, SubscriptionEventType } from "./subscriptions.ts";
import { CARGO_NS, CONTEXT, type JsonLd, ref } from "./vocabulary.ts";

/** The derived event the domain event recorded: same code and station, ACTUAL, closest in time. */
export function derivedEventOf(map: RouteMap, event: DomainEvent): DerivedEvent | null {
  const reported = event.reported?.Utc ?? null;
  const candidates = deriveEvents(map).filter(
    (e) => e.timeType === "ACTUAL" && e.code === event.name && e.station === event.station,
  );
  if (reported === null) return candidates[0] ?? null;
  const gap = (e: DerivedEvent) => Math.abs(Date.parse(e.eventDate) - Date.parse(reported));
  return candidates.sort((a, b) => gap(a) - gap(b))[0] ?? null;
}

/** The object the notification is about: the subscribed one, or the AWB's object of the subscribed type. */
function objectOf(
  sub: OneRecordSubscription,
  derived: DerivedEvent | null,
): { kind: ObjectKind; leg: number } | null {
  const topic = sub.topic;
  if (topic.objectType !== "TransportMovement") return { kind: topic.objectType, leg: 0 };
  if (topic.kind === "object")
    return derived === null || derived.leg === topic.leg
      ? { kind: "TransportMovement", leg: topic.leg }
      : null;
  return derived?.leg ? { kind: "TransportMovement", leg: derived.leg } : null;
}

/** What an object notification says changed (the properties the service derives from the plan). */
const CHANGED_BY_PLAN: Record<ObjectKind, string[]> = {
  Waybill: ["departureLocation", "arrivalLocation", "shipment"],
  Shipment: ["totalGrossWeight", "totalVolume"],
  TransportMovement: ["transportIdentifier", "departureLocation", "arrivalLocation", "movementTimes"],
};

export interface NotificationInput {
  links: Links;
  sub: OneRecordSubscription;
  event: DomainEvent;
  type: SubscriptionEventType;
  /** The route map as it stands at delivery; null when it is gone (the notification names the object only). */
  map: RouteMap | null;
}

/** The api:Notification document, or null when the event is not about the subscribed object (another leg). */
export function notificationFor({ links, sub, event, type, map }: NotificationInput): JsonLd | null {
  const derived = map === null ? null : derivedEventOf(map, event);
  const object = objectOf(sub, derived);
  if (object === null) return null;
  const awb = event.awb;
  const url = objectUrl(links, objectId(object.kind, awb, object.leg));
  const body: JsonLd | null =
    map === null || !sub.sendBody
      ? null
      : object.kind === "Waybill"
        ? waybill(links, map)
        : object.kind === "Shipment"
          ? shipment(links, map)
          : object.leg <= flightsOf(map).length
            ? transportMovement(links, map, object.leg)
            : null;
  const out: JsonLd = {
    "@context": CONTEXT,
    "@type": "api:Notification",
    "api:hasEventType": ref(`api:${type}`),
    "api:hasLogisticsObject": body ?? ref(url),
    "api:hasLogisticsObjectType": { "@type": "xsd:anyURI", "@value": `${CARGO_NS}${object.kind}` },
  };
  if (type === "LOGISTICS_EVENT_RECEIVED" && derived !== null)
    out["api:hasLogisticsEvent"] = ref(`${url}/logistics-events/${derived.id}`);
  if (type === "LOGISTICS_OBJECT_UPDATED")
    out["api:hasChangedProperty"] = CHANGED_BY_PLAN[object.kind].map((name) => ({
      "@type": "xsd:anyURI",
      "@value": `${CARGO_NS}${name}`,
    }));
  // The AWB the map holds must be the event's: a reused id can never point at another shipment.
  if (map !== null && awbOf(map).serial !== awb.serial) return null;
  return out;
}
