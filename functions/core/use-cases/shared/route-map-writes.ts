/**
 * The write of a route-map change: turning a new shipment state into the record, snapshot, outbox
 * events and search fields of one atomic write, and how often a change is tried against concurrent
 * writers. Retention (TTL) of snapshots and outbox items is the repository's, not decided here.
 */
import { awbKey } from "../../awb.ts";
import type { DomainEvent, DomainEventDraft } from "../../events.ts";
import type {
  RouteMapBase,
  RouteMapRecord,
  RouteMapSearchFields,
  RouteMapWrite,
} from "../../ports/route-maps.ts";
import { isPlanned } from "../../route-map/derive.ts";
import { buildRouteMapEventDraft } from "../../route-map/event-drafts.ts";
import { renderRouteMap } from "../../route-map/render.ts";
import type { ShipmentState } from "../../route-map/shipment-state.ts";
import type { RouteMap } from "../../route-map/spec-types.ts";
import { normaliseUtc } from "../../time/station-time.ts";

/**
 * Optimistic-concurrency attempts per change before answering 409. Each lost race means another
 * writer's change landed in between, so N attempts let N messages for one AWB arriving at once all
 * land: 25 covers the 20 simultaneous messages the fault suite sends, with margin.
 */
export const MAX_WRITE_ATTEMPTS = 25;

/** Fixed-width ISO with milliseconds, so stored stamps sort as text. */
function isoMs(iso: string): string {
  return new Date(Date.parse(iso)).toISOString();
}

/** Earliest planned time of a milestone neither due nor reported: until then the rendering is exact. */
function staleAfterOf(map: RouteMap): string | null {
  const cycles = map.MilestonePlan;
  const milestones = [
    ...cycles.OriginCycle.Milestone,
    ...cycles.RoutingCycle.Flight.flatMap((f) => f.Milestone),
    ...cycles.DestinationCycle.Milestone,
  ];
  let earliest: string | null = null;
  for (const m of milestones) {
    if (m.Status !== "Planned" || m.PlannedDateTime === null) continue;
    if (earliest === null || m.PlannedDateTime.Utc < earliest) earliest = m.PlannedDateTime.Utc;
  }
  return earliest;
}

/** Search fields: none of them depends on the time of reading, so they are exact at write time. */
export function searchFieldsOf(map: RouteMap): RouteMapSearchFields {
  return {
    AirlinePrefix: map.Shipment.AirlinePrefix,
    AwbNumber: map.Shipment.AwbNumber,
    Origin: map.Shipment.Routing.Origin,
    Destination: map.Shipment.Routing.Destination,
    Status: map.Status,
    CreationDate: map.CreationDate.Utc,
    DeliveryDate: map.DeliveryDate?.Utc ?? null,
    ReceiptDate: map.ReceiptDate?.Utc ?? null,
  };
}

/** The record after a change, rendered at `now`. */
export function nextRecord(
  previous: RouteMapRecord | null,
  state: ShipmentState,
  now: string,
  xtdForwarders: readonly string[],
): { record: RouteMapRecord; map: RouteMap } {
  const map = renderRouteMap(state, now);
  const at = isoMs(now);
  return {
    map,
    record: {
      awb: { ...state.awb },
      origin: state.origin,
      destination: state.destination,
      state,
      version: (previous?.version ?? 0) + 1,
      routeMapJson: JSON.stringify(map),
      staleAfter: staleAfterOf(map),
      ownerAgent: state.agent ? { ...state.agent } : null,
      xtdForwarders: [...new Set(xtdForwarders)].sort(),
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
    },
  };
}

/** Outbox events: stable ids `${awb11}-${version}-${index}`, audience as of this write. */
export function toDomainEvents(
  drafts: readonly DomainEventDraft[],
  record: RouteMapRecord,
  now: string,
  firstIndex = 0,
): DomainEvent[] {
  return drafts.map((draft, index) => ({
    ...draft,
    eventId: `${awbKey(record.awb)}-${record.version}-${firstIndex + index}`,
    recordedAt: normaliseUtc(now),
    version: record.version,
    audience: { ownerAgent: record.ownerAgent, xtdForwarders: [...record.xtdForwarders] },
  }));
}

type Audience = DomainEvent["audience"];

/**
 * Readers `next` has that `previous` had not: an owner agent the FWB names for the first time (or a
 * different one), and forwarders granted XTD since; null when nobody new may read.
 */
export function newReaders(
  previous: Pick<RouteMapRecord, "ownerAgent" | "xtdForwarders">,
  next: Audience,
): Audience | null {
  const before = previous.ownerAgent;
  const after = next.ownerAgent;
  const ownerAgent =
    after !== null && (before === null || before.code !== after.code || before.cass !== after.cass)
      ? { ...after }
      : null;
  const xtdForwarders = next.xtdForwarders.filter((id) => !previous.xtdForwarders.includes(id));
  return ownerAgent !== null || xtdForwarders.length > 0 ? { ownerAgent, xtdForwarders } : null;
}

/**
 * Owners learn late (DESIGN.md section 9): a forwarder that gains read access to a planned route map
 * (the FWB names its agent after the booking, or an XTD grant) gets one RMP Creation with the current
 * plan, addressed to it alone: the readers it had before heard the creation already. None when the
 * change itself creates the plan (its RMP Creation reaches every reader of the new record).
 */
export function lateCreationEvent(
  record: RouteMapRecord,
  readers: Audience | null,
  drafts: readonly DomainEventDraft[],
  now: string,
): DomainEvent | null {
  if (readers === null || !isPlanned(record.state)) return null;
  if (drafts.some((d) => d.name === "RMP" && d.eventStatus === "Creation")) return null;
  const draft = buildRouteMapEventDraft(record.state, "RMP", "Creation");
  const [event] = toDomainEvents([draft], record, now, drafts.length);
  return event
    ? { ...event, audience: { ownerAgent: readers.ownerAgent, xtdForwarders: [...readers.xtdForwarders] } }
    : null;
}

/** The write of a route-map change: record, snapshot and outbox events (their retention is the store's). */
export function routeMapChange(
  previous: RouteMapRecord | null,
  state: ShipmentState,
  drafts: readonly DomainEventDraft[],
  now: string,
  xtdForwarders: readonly string[],
  historyOnly = false,
): RouteMapWrite {
  const { record, map } = nextRecord(previous, state, now, xtdForwarders);
  const events = toDomainEvents(drafts, record, now);
  const late = previous ? lateCreationEvent(record, newReaders(previous, record), drafts, now) : null;
  // Only the history beyond the route map changed (a status beyond the milestones): no snapshot
  // unless the rendering itself moved on since the last write.
  const unchanged = historyOnly && previous !== null && previous.routeMapJson === record.routeMapJson;
  return {
    previous,
    next: record,
    snapshot: unchanged ? null : { routeMapJson: record.routeMapJson, snapshotAt: record.updatedAt },
    events: late ? [...events, late] : events,
    searchFields: searchFieldsOf(map),
    // What the reader items hold now: the previous rendering's fields (they never depend on the time
    // of reading), so the store rewrites them only when a status or date actually moved.
    ...(previous
      ? { previousSearchFields: searchFieldsOf(JSON.parse(previous.routeMapJson) as RouteMap) }
      : {}),
  };
}

/**
 * The write of a change from what `getForChange` read. A new route map starts with the XTD grants
 * recorded before it existed and is conditioned on their revision: a grant that lands in between
 * makes the creation a conflict, and the retry includes it.
 */
export function routeMapChangeFrom(
  base: RouteMapBase,
  state: ShipmentState,
  drafts: readonly DomainEventDraft[],
  now: string,
  historyOnly = false,
): RouteMapWrite {
  if (base.record)
    return routeMapChange(base.record, state, drafts, now, base.record.xtdForwarders, historyOnly);
  return {
    ...routeMapChange(null, state, drafts, now, base.earlyXtd.forwarderIds),
    earlyXtdRevision: base.earlyXtd.revision,
  };
}
