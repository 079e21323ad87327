/**
 * Linked data as a subscriber reads it. A publisher's events often name their objects only by IRI
 * (the shipment-tracking good practice: `recordedAtLocation` is a link to a Location, the event has
 * no `eventFor` because it lives in its object's `logistics-events`). The subscriber GETs what is
 * linked (the object, its `waybill`, the waybill's airports, the event's location) and reads the
 * event as if those objects were embedded. Only the links the service reads are followed, each IRI
 * at most once per path, so a cycle (Waybill.shipment -> Shipment.waybill) ends.
 */
import {
  CARGO_NS,
  type Context,
  DEFAULT_CONTEXT,
  expandIri,
  isObject,
  type Json,
  type JsonObject,
  withContext,
} from "./json-ld.ts";
import { HISTORY_ONLY, statusCodeOf, TRACKED } from "./terms.ts";

/** The properties whose linked objects an event's report needs. */
const LINKS: ReadonlySet<string> = new Set(
  [
    "eventFor",
    "waybill",
    "ofShipment",
    "departureLocation",
    "arrivalLocation",
    "recordedAtLocation",
    "eventLocation",
  ].map((name) => `${CARGO_NS}${name}`),
);
const EVENT_TYPES: ReadonlySet<string> = new Set([
  `${CARGO_NS}LogisticsEvent`,
  `${CARGO_NS}StatusUpdateEvent`,
]);

/** At most this many linked documents are fetched for one notification. */
export const MAX_LINKED_DOCUMENTS = 16;

/** `{ "@id": iri }` and nothing else: a link, not an embedded object. */
function linkOf(value: Json, ctx: Context): string | null {
  if (!isObject(value)) return null;
  const keys = Object.keys(value).filter((k) => k !== "@type");
  const id = value["@id"];
  return keys.length === 1 && typeof id === "string" && id !== "" ? expandIri(id, ctx, false) : null;
}

function isEvent(node: JsonObject, ctx: Context): boolean {
  const type = node["@type"];
  const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string");
  return types.some((t) => EVENT_TYPES.has(expandIri(t, ctx, true)));
}

function hasProperty(node: JsonObject, ctx: Context, iri: string): boolean {
  return Object.keys(node).some((k) => !k.startsWith("@") && expandIri(k, ctx, true) === iri);
}

/**
 * The document with every event that names no `eventFor` given `subject` as its object: an event
 * read from `{object}/logistics-events` is that object's event.
 */
export function withSubject(doc: Json, subject: string | null): Json {
  if (subject === null) return doc;
  const walk = (value: Json, ctx: Context): Json => {
    if (Array.isArray(value)) return value.map((item) => walk(item, ctx));
    if (!isObject(value)) return value;
    const inner = withContext(ctx, value);
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value))
      out[key] = key.startsWith("@") ? item : walk(item, inner);
    // Only an event the service reads needs its object (a publisher's own codes are skipped).
    const code = isEvent(value, inner) ? statusCodeOf({ value, ctx: inner, path: [] }) : null;
    const read = code !== null && (TRACKED.has(code) || HISTORY_ONLY.has(code));
    if (read && !hasProperty(value, inner, `${CARGO_NS}eventFor`))
      out[`${CARGO_NS}eventFor`] = { "@id": subject };
    return out;
  };
  return walk(doc, DEFAULT_CONTEXT);
}

/** IRIs the document links to at the properties the service reads, not yet in `known`. */
export function linksToFollow(doc: Json, known: { has(iri: string): boolean }): string[] {
  const found = new Set<string>();
  const walk = (value: Json, ctx: Context): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, ctx);
      return;
    }
    if (!isObject(value)) return;
    const inner = withContext(ctx, value);
    for (const [key, item] of Object.entries(value)) {
      if (key.startsWith("@")) continue;
      if (LINKS.has(expandIri(key, inner, true)))
        for (const each of Array.isArray(item) ? item : [item]) {
          const iri = linkOf(each, inner);
          if (iri !== null && !known.has(iri)) found.add(iri);
        }
      walk(item, inner);
    }
  };
  walk(doc, DEFAULT_CONTEXT);
  return [...found];
}

/** The document with each followed link replaced by the linked object (its own `@context` kept). */
export function embedLinked(doc: Json, linked: ReadonlyMap<string, JsonObject>): Json {
  const walk = (value: Json, ctx: Context, visiting: ReadonlySet<string>): Json => {
    if (Array.isArray(value)) return value.map((item) => walk(item, ctx, visiting));
    if (!isObject(value)) return value;
    const inner = withContext(ctx, value);
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      if (key.startsWith("@")) {
        out[key] = item;
        continue;
      }
      const link = LINKS.has(expandIri(key, inner, true));
      const resolve = (each: Json): Json => {
        const iri = link ? linkOf(each, inner) : null;
        const target = iri === null ? undefined : linked.get(iri);
        if (iri === null || target === undefined || visiting.has(iri)) return walk(each, inner, visiting);
        return walk(target, inner, new Set([...visiting, iri]));
      };
      out[key] = Array.isArray(item) ? item.map(resolve) : resolve(item);
    }
    return out;
  };
  return walk(doc, DEFAULT_CONTEXT, new Set());
}

/** How many events the document holds (a Collection's items, a `@graph`, an array, or one). */
export function eventCount(doc: Json): number {
  let count = 0;
  const walk = (value: Json, ctx: Context): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, ctx);
      return;
    }
    if (!isObject(value)) return;
    const inner = withContext(ctx, value);
    if (isEvent(value, inner) || hasProperty(value, inner, `${CARGO_NS}eventCode`)) {
      count++;
      return;
    }
    for (const [key, item] of Object.entries(value)) if (!key.startsWith("@")) walk(item, inner);
  };
  walk(doc, DEFAULT_CONTEXT);
  return count;
}
