/**
 * The outbox item as stored in the RouteMaps table: one per domain event, written in the same
 * transaction as the route-map change that caused it (DESIGN.md section 2). The route-map repository
 * writes it with these names; the stream filters (event-functions.ts) and the outbox-stream decoder
 * read it with the same ones. Plain data: no SDK, no schema library.
 */
import { TABLES } from "./resources.ts";

/** The value of `kind` that marks outbox items; the stream consumers pass inserts of these only. */
export const OUTBOX_KIND = "event";

/** Sort key of an outbox item: `EVT#<eventId>` (partition key `AWB#<awb11>`, like the route map's). */
export const OUTBOX_SORT_KEY_PREFIX = "EVT#";

/** Attribute names of an outbox item. */
export const OUTBOX_ATTRIBUTES = {
  /** Always OUTBOX_KIND. */
  kind: "kind",
  /** The DomainEvent (functions/core/events.ts) as a map. */
  event: "event",
  /** TTL, epoch seconds: the table's TTL attribute. */
  expiresAt: TABLES.routeMaps.ttlAttribute,
} as const;
