/**
 * ONE Record subscriptions to the service's logistics objects (API 2.x, publish/subscribe): what a
 * subscriber's api:Subscription says, which domain events it hears, and the documents we answer with
 * (the SubscriptionRequest under `{base}/action-requests/{id}`). Pure: the use case reads and writes.
 *
 * A subscription names one Waybill, Shipment or TransportMovement (topic type
 * LOGISTICS_OBJECT_IDENTIFIER) or every object of a type the subscriber may see
 * (LOGISTICS_OBJECT_TYPE). Our extension `rmt:hasEventCode` (a list of StatusCode codes) narrows the
 * LOGISTICS_EVENT_RECEIVED notifications to those codes; notifications of objects are not narrowed.
 */
import type { AwbId } from "../carrier-messages/types.ts";
import type { DomainEvent } from "../events.ts";
import type { SubscriberIdentity } from "../notifications/common.ts";
import { parseAwbAlias, parseObjectId } from "./ids.ts";
import type { Links } from "./objects.ts";
import { parseInstant } from "./server-info.ts";
import { API_NS, CARGO_NS, dateTime, EXTENSION_NS, JSON_LD, type JsonLd, ref } from "./vocabulary.ts";

export const SUBSCRIPTION_EVENT_TYPES = [
  "LOGISTICS_OBJECT_CREATED",
  "LOGISTICS_OBJECT_UPDATED",
  "LOGISTICS_EVENT_RECEIVED",
] as const;
export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number];

/** The objects the service publishes (a Location is reference data: it never changes). */
export const SUBSCRIBABLE_TYPES = ["Waybill", "Shipment", "TransportMovement"] as const;
export type SubscribableType = (typeof SUBSCRIBABLE_TYPES)[number];

export type Topic =
  | { kind: "object"; objectType: SubscribableType; awb: AwbId; leg: number }
  | { kind: "type"; objectType: SubscribableType };

/** What a subscriber asked for, read and checked. */
export interface SubscriptionDraft {
  subscriberIri: string;
  /** `{subscriber's server}/notifications`, where the notifications go. */
  callbackUrl: string;
  topic: Topic;
  eventTypes: SubscriptionEventType[];
  /** The event-code extension; null: every event. */
  eventCodes: string[] | null;
  expiresAt: string | null;
  sendBody: boolean;
}

export interface OneRecordSubscription extends SubscriptionDraft {
  id: number;
  /** Our ONE Record base URL as the subscriber reached it: the notifications' ids are under it. */
  serverBase: string;
  owner: SubscriberIdentity;
  requestedAt: string;
  status: "REQUEST_ACCEPTED" | "REQUEST_REVOKED";
  revokedAt: string | null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The prefixes of the document's own context (a remote context is not fetched). */
function prefixesOf(body: Obj): Map<string, string> {
  const map = new Map<string, string>([
    ["api", API_NS],
    ["cargo", CARGO_NS],
    ["rmt", EXTENSION_NS],
  ]);
  const ctx = body["@context"];
  for (const entry of Array.isArray(ctx) ? ctx : [ctx])
    if (isObj(entry))
      for (const [name, iri] of Object.entries(entry)) if (typeof iri === "string") map.set(name, iri);
  return map;
}

function expand(value: string, prefixes: Map<string, string>): string {
  const colon = value.indexOf(":");
  if (colon <= 0 || value.slice(colon + 1).startsWith("//")) return value;
  const base = prefixes.get(value.slice(0, colon));
  return base === undefined ? value : `${base}${value.slice(colon + 1)}`;
}

/** Every value of property `iri` (compact or full key), as a list. */
function values(body: Obj, iri: string, prefixes: Map<string, string>): unknown[] {
  for (const [key, value] of Object.entries(body))
    if (!key.startsWith("@") && expand(key, prefixes) === iri) return Array.isArray(value) ? value : [value];
  return [];
}

/** An IRI value: `{ "@id" }`, or a literal anyURI (`{ "@value" }` or a string). */
function iriOf(value: unknown, prefixes: Map<string, string>): string | null {
  if (typeof value === "string") return expand(value, prefixes);
  if (!isObj(value)) return null;
  const inner = value["@id"] ?? value["@value"];
  return typeof inner === "string" ? expand(inner, prefixes) : null;
}

function literalOf(value: unknown): string | boolean | null {
  const inner = isObj(value) ? value["@value"] : value;
  return typeof inner === "string" || typeof inner === "boolean" ? inner : null;
}

const TOPIC_TYPES = ["LOGISTICS_OBJECT_IDENTIFIER", "LOGISTICS_OBJECT_TYPE"] as const;
export type TopicType = (typeof TOPIC_TYPES)[number];

export function topicTypeOf(iri: string | null): TopicType | null {
  const name = iri?.startsWith(API_NS) ? iri.slice(API_NS.length) : null;
  return TOPIC_TYPES.find((t) => t === name) ?? null;
}

/** A topic of ours: an object URL under this server, or a type the service publishes. */
export function topicOf(links: Links, topicType: TopicType, topic: string): Parsed<Topic> {
  if (topicType === "LOGISTICS_OBJECT_TYPE") {
    const name = topic.startsWith(CARGO_NS) ? topic.slice(CARGO_NS.length) : "";
    const type = SUBSCRIBABLE_TYPES.find((t) => t === name);
    return type
      ? { ok: true, value: { kind: "type", objectType: type } }
      : {
          ok: false,
          detail: `topic must be one of ${SUBSCRIBABLE_TYPES.map((t) => `cargo:${t}`).join(", ")}`,
        };
  }
  const prefix = `${links.base}/logistics-objects/`;
  const id = topic.startsWith(prefix) ? topic.slice(prefix.length) : null;
  const alias = id === null ? null : parseAwbAlias(id);
  if (alias) return { ok: true, value: { kind: "object", objectType: "Waybill", awb: alias, leg: 0 } };
  const parsed = id === null ? null : parseObjectId(id);
  if (parsed === null || parsed.kind === "Location")
    return { ok: false, detail: `topic must be a Waybill, Shipment or TransportMovement under ${prefix}` };
  return { ok: true, value: { kind: "object", objectType: parsed.kind, awb: parsed.awb, leg: parsed.leg } };
}

/** Where notifications to a subscriber go: its server, the part of its IRI before /logistics-objects/. */
export function callbackOf(subscriberIri: string): string | null {
  const match = /^(https?:\/\/[^\s?#]+?)\/logistics-objects\/[^\s/?#]+$/.exec(subscriberIri);
  return match ? `${match[1]}/notifications` : null;
}

/** A subscriber's api:Subscription, read and checked (the topic as ours, the rest as the API says). */
export function readSubscription(body: unknown, links: Links, now: string): Parsed<SubscriptionDraft> {
  if (!isObj(body)) return { ok: false, detail: "the body must be one api:Subscription object" };
  const p = prefixesOf(body);
  const types = (Array.isArray(body["@type"]) ? body["@type"] : [body["@type"]]).map((t) =>
    typeof t === "string" ? expand(t, p) : "",
  );
  if (!types.includes(`${API_NS}Subscription`))
    return { ok: false, detail: "@type must be api:Subscription" };
  const one = (name: string, ns = API_NS) => values(body, `${ns}${name}`, p)[0];
  const subscriberIri = iriOf(one("hasSubscriber"), p);
  const callbackUrl = subscriberIri === null ? null : callbackOf(subscriberIri);
  if (subscriberIri === null || callbackUrl === null)
    return {
      ok: false,
      detail:
        "api:hasSubscriber must be the subscriber's organization on its own server: {server}/logistics-objects/{id}",
    };
  const topicType = topicTypeOf(iriOf(one("hasTopicType"), p));
  if (topicType === null)
    return {
      ok: false,
      detail: "api:hasTopicType must be LOGISTICS_OBJECT_IDENTIFIER or LOGISTICS_OBJECT_TYPE",
    };
  const topicIri = iriOf(one("hasTopic"), p);
  if (topicIri === null) return { ok: false, detail: "api:hasTopic is missing" };
  const topic = topicOf(links, topicType, topicIri);
  if (!topic.ok) return topic;
  const listed = values(body, `${API_NS}includeSubscriptionEventType`, p).map((v) => iriOf(v, p));
  const eventTypes = SUBSCRIPTION_EVENT_TYPES.filter((t) => listed.includes(`${API_NS}${t}`));
  if (listed.length > eventTypes.length)
    return {
      ok: false,
      detail: `api:includeSubscriptionEventType holds only ${SUBSCRIPTION_EVENT_TYPES.join(", ")}`,
    };
  const expires = one("expiresAt");
  const expiresAt = expires === undefined ? null : parseInstant(String(literalOf(expires)));
  if (expires !== undefined && (expiresAt === null || Date.parse(expiresAt) <= Date.parse(now)))
    return { ok: false, detail: "api:expiresAt must be an xsd:dateTime in the future" };
  const contentType = one("hasContentType");
  if (contentType !== undefined && literalOf(contentType) !== JSON_LD)
    return { ok: false, detail: `api:hasContentType: the service sends ${JSON_LD} only` };
  const sendBody = literalOf(one("sendLogisticsObjectBody"));
  const codes = values(body, `${EXTENSION_NS}hasEventCode`, p).map((v) => {
    const text = iriOf(v, p) ?? "";
    return /^(?:.*[#/])?([A-Z]{3})$/.exec(text)?.[1] ?? null;
  });
  if (codes.includes(null)) return { ok: false, detail: "rmt:hasEventCode holds status codes such as DEP" };
  return {
    ok: true,
    value: {
      subscriberIri,
      callbackUrl,
      topic: topic.value,
      eventTypes: eventTypes.length > 0 ? eventTypes : [...SUBSCRIPTION_EVENT_TYPES],
      eventCodes: codes.length > 0 ? [...new Set(codes as string[])] : null,
      expiresAt,
      sendBody: sendBody === true || sendBody === "true",
    },
  };
}

// ---- matching -------------------------------------------------------------------------------------

const awbKey = (awb: AwbId) => `${awb.prefix}${awb.serial}`;
const agentPart = (code: string, cass: string) => `AGT#${code}#${cass}`;

/**
 * Index keys, like the rules' (notifications/matching.ts): who may hear (agent, or forwarder for XTD)
 * and, for one object, its AWB, so an event reads only the subscriptions of its audience.
 */
export function subscriptionIndexKeys(sub: Pick<OneRecordSubscription, "owner" | "topic">): string[] {
  const who = [agentPart(sub.owner.agentCode, sub.owner.agentCass), `FWD#${sub.owner.forwarderId}`];
  const topic = sub.topic;
  return topic.kind === "object"
    ? who.map((w) => `ORA#${awbKey(topic.awb)}#${w}`)
    : who.map((w) => `ORT#${w}`);
}

export function eventIndexKeys(event: DomainEvent): string[] {
  const who: string[] = [];
  const owner = event.audience.ownerAgent;
  if (owner) who.push(agentPart(owner.code, owner.cass));
  for (const id of new Set(event.audience.xtdForwarders)) who.push(`FWD#${id}`);
  return who.flatMap((w) => [`ORA#${awbKey(event.awb)}#${w}`, `ORT#${w}`]);
}

function mayHear(owner: SubscriberIdentity, event: DomainEvent): boolean {
  const agent = event.audience.ownerAgent;
  if (agent && agent.code === owner.agentCode && agent.cass === owner.agentCass) return true;
  return event.audience.xtdForwarders.includes(owner.forwarderId);
}

/** The ONE Record notification type a domain event is, by the subscription's choice. */
export function notificationTypeFor(
  sub: Pick<OneRecordSubscription, "eventTypes" | "eventCodes">,
  event: DomainEvent,
): SubscriptionEventType | null {
  const wants = (t: SubscriptionEventType) => sub.eventTypes.includes(t);
  if (event.name === "RMP" || event.name === "CAN") {
    if (event.eventStatus === "Creation" && event.name === "RMP" && wants("LOGISTICS_OBJECT_CREATED"))
      return "LOGISTICS_OBJECT_CREATED";
    return wants("LOGISTICS_OBJECT_UPDATED") ? "LOGISTICS_OBJECT_UPDATED" : null;
  }
  if (wants("LOGISTICS_EVENT_RECEIVED") && (sub.eventCodes === null || sub.eventCodes.includes(event.name)))
    return "LOGISTICS_EVENT_RECEIVED";
  // Without event notifications, a new event is a change of the object it is for.
  return wants("LOGISTICS_OBJECT_UPDATED") && !wants("LOGISTICS_EVENT_RECEIVED")
    ? "LOGISTICS_OBJECT_UPDATED"
    : null;
}

/**
 * What the subscription hears of the event, or null. Re-checks the audience (a stale index entry can
 * never leak another forwarder's AWB), the topic, expiry, revocation, and that it existed when the
 * fact was recorded (not retroactive, like rules).
 */
export function subscriptionHears(
  sub: OneRecordSubscription,
  event: DomainEvent,
  now: string,
): SubscriptionEventType | null {
  if (sub.status !== "REQUEST_ACCEPTED" || event.type !== "Event") return null;
  if (sub.expiresAt !== null && Date.parse(sub.expiresAt) <= Date.parse(now)) return null;
  if (Math.floor(Date.parse(sub.requestedAt) / 1000) > Math.floor(Date.parse(event.recordedAt) / 1000))
    return null;
  if (!mayHear(sub.owner, event)) return null;
  if (sub.topic.kind === "object" && awbKey(sub.topic.awb) !== awbKey(event.awb)) return null;
  if (sub.topic.objectType === "TransportMovement" && event.flight === null) return null;
  return notificationTypeFor(sub, event);
}

// ---- documents ------------------------------------------------------------------------------------

export const actionRequestUrl = (links: Links, id: number) => `${links.base}/action-requests/${id}`;
export const subscriptionUrl = (links: Links, id: number) => `${links.base}/subscriptions/${id}`;

/** The topic as the API writes it: an object's URL, or a class IRI. */
export function topicIri(topic: Topic, objectUrlOf: (t: Extract<Topic, { kind: "object" }>) => string) {
  return topic.kind === "object" ? objectUrlOf(topic) : `${CARGO_NS}${topic.objectType}`;
}

function subscriptionNode(
  id: string,
  fields: {
    subscriber: string;
    topicType: TopicType;
    topic: string;
    eventTypes: readonly SubscriptionEventType[];
    sendBody: boolean;
    expiresAt?: string | null;
    eventCodes?: readonly string[] | null;
  },
): JsonLd {
  const out: JsonLd = {
    "@id": id,
    "@type": "api:Subscription",
    "api:hasContentType": JSON_LD,
    "api:hasSubscriber": ref(fields.subscriber),
    "api:hasTopicType": ref(`api:${fields.topicType}`),
    "api:hasTopic": { "@type": "xsd:anyURI", "@value": fields.topic },
    "api:includeSubscriptionEventType": fields.eventTypes.map((t) => ref(`api:${t}`)),
    "api:sendLogisticsObjectBody": fields.sendBody,
    "api:notifyRequestStatusChange": false,
  };
  if (fields.expiresAt) out["api:expiresAt"] = dateTime(fields.expiresAt);
  if (fields.eventCodes) out["rmt:hasEventCode"] = [...fields.eventCodes];
  return out;
}

/** The SubscriptionRequest (accepted at once: access is checked when it is made), as JSON-LD. */
export function subscriptionRequest(links: Links, sub: OneRecordSubscription, topic: string): JsonLd {
  const out: JsonLd = {
    "@id": actionRequestUrl(links, sub.id),
    "@type": "api:SubscriptionRequest",
    "api:hasSubscription": subscriptionNode(subscriptionUrl(links, sub.id), {
      subscriber: sub.subscriberIri,
      topicType: sub.topic.kind === "object" ? "LOGISTICS_OBJECT_IDENTIFIER" : "LOGISTICS_OBJECT_TYPE",
      topic,
      eventTypes: sub.eventTypes,
      sendBody: sub.sendBody,
      expiresAt: sub.expiresAt,
      eventCodes: sub.eventCodes,
    }),
    "api:isRequestedBy": ref(sub.subscriberIri),
    "api:isRequestedAt": dateTime(sub.requestedAt),
    "api:hasRequestStatus": ref(`api:${sub.status}`),
  };
  if (sub.revokedAt) {
    out["api:isRevokedBy"] = ref(sub.subscriberIri);
    out["api:isRevokedAt"] = dateTime(sub.revokedAt);
  }
  return out;
}

/**
 * Logistics-object classes of data model 3.x a carrier's server may offer (the subclasses of
 * cargo:LogisticsObject), so a proposal for a class that is no logistics object (cargo:Value) is 400.
 */
const LOGISTICS_OBJECT_CLASSES = new Set([
  "Waybill",
  "Shipment",
  "Piece",
  "TransportMovement",
  "Location",
  "Booking",
  "BookingOption",
  "BookingOptionRequest",
  "BookingRequest",
  "BookingShipment",
  "BookingSegment",
  "Company",
  "Organization",
  "Carrier",
  "Person",
  "Product",
  "Item",
  "ULD",
  "TransportMeans",
  "LoadingUnit",
  "Loading",
  "Route",
  "ServiceRequest",
  "Quote",
  "Ratings",
  "Price",
  "Schedule",
  "SecurityDeclaration",
  "Sensor",
  "ExternalReference",
  "AccountingNote",
  "CustomsInformation",
  "LiveAnimalsEpermit",
]);

/**
 * GET {base}/subscriptions?topicType&topic: the Subscription the service wants when a carrier's server
 * proposes one. We subscribe as the data holder; notifications come to our `{base}/notifications`.
 */
export function proposedSubscription(
  links: Links,
  topicType: string | null,
  topic: string | null,
): Parsed<JsonLd> {
  const type = topicTypeOf(topicType === null ? null : expand(topicType, prefixesOf({})));
  if (type === null)
    return {
      ok: false,
      detail: "topicType must be api#LOGISTICS_OBJECT_IDENTIFIER or api#LOGISTICS_OBJECT_TYPE",
    };
  if (!topic) return { ok: false, detail: "topic is missing: a logistics object's URI or a cargo class IRI" };
  if (type === "LOGISTICS_OBJECT_TYPE") {
    const name = topic.startsWith(CARGO_NS) ? topic.slice(CARGO_NS.length) : "";
    if (!LOGISTICS_OBJECT_CLASSES.has(name))
      return { ok: false, detail: `${topic} is not a logistics-object class of the cargo ontology` };
  } else if (!/^https?:\/\/\S+$/.test(topic)) {
    return { ok: false, detail: "topic must be a logistics object's http(s) URI" };
  }
  return {
    ok: true,
    value: subscriptionNode(`${links.base}/subscriptions/proposed`, {
      subscriber: `${links.base}/#data-holder`,
      topicType: type,
      topic,
      eventTypes: ["LOGISTICS_EVENT_RECEIVED", "LOGISTICS_OBJECT_UPDATED", "LOGISTICS_OBJECT_CREATED"],
      sendBody: false,
    }),
  };
}
