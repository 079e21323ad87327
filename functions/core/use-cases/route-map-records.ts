/**
 * Pieces the route-map use cases share: turning a new shipment state into the record, snapshot,
 * outbox events and search fields of one atomic write; who may read a route map; answering from the
 * stored JSON while it is still exact; granting XTD access with optimistic concurrency.
 */
import { awbKey } from "../awb.ts";
import type { AgentRef, AwbId } from "../carrier-messages/types.ts";
import { WriteConflictError } from "../errors.ts";
import type { DomainEvent, DomainEventDraft } from "../events.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type {
  ConflictBackoff,
  RouteMapBase,
  RouteMapRecord,
  RouteMapRepository,
  RouteMapSearchFields,
  RouteMapView,
  RouteMapWrite,
  TriggerRecord,
} from "../ports/route-maps.ts";
import { renderRouteMap } from "../route-map/render.ts";
import type { ShipmentState } from "../route-map/shipment-state.ts";
import type { RouteMap } from "../route-map/spec-types.ts";
import { normaliseUtc } from "../time/station-time.ts";

/** History retention (spec "Limits"): snapshots live 30 days from the route map's creation. */
export const SNAPSHOT_RETENTION_SECONDS = 30 * 24 * 3600;
/** Outbox items only need to outlive stream processing and replays. */
export const OUTBOX_RETENTION_SECONDS = 7 * 24 * 3600;
/**
 * Optimistic-concurrency attempts per change before answering 409. Each lost race means another
 * writer's change landed in between, so N attempts let N messages for one AWB arriving at once all
 * land: 25 covers the 20 simultaneous messages the fault suite sends, with margin.
 */
export const MAX_WRITE_ATTEMPTS = 25;

/** Fixed-width ISO with milliseconds, so stored stamps sort as text. */
export function isoMs(iso: string): string {
  return new Date(Date.parse(iso)).toISOString();
}

export function epochSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** Earliest planned time of a milestone neither due nor reported: until then the rendering is exact. */
export function staleAfterOf(map: RouteMap): string | null {
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

export function sameAgent(a: AgentRef | null, b: { agentCode: string; agentCass: string }): boolean {
  return a !== null && a.code === b.agentCode && a.cass === b.agentCass;
}

/** DESIGN.md section 9 Ownership: the FWB agent, or a forwarder with an XTD grant. */
export function mayRead(view: Pick<RouteMapView, "ownerAgent" | "xtdForwarders">, reader: ForwarderIdentity) {
  return sameAgent(view.ownerAgent, reader) || view.xtdForwarders.includes(reader.forwarderId);
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
): DomainEvent[] {
  return drafts.map((draft, index) => ({
    ...draft,
    eventId: `${awbKey(record.awb)}-${record.version}-${index}`,
    recordedAt: normaliseUtc(now),
    version: record.version,
    audience: { ownerAgent: record.ownerAgent, xtdForwarders: [...record.xtdForwarders] },
  }));
}

/** The write of a route-map change: record, snapshot (30 days from creation) and outbox events. */
export function routeMapChange(
  previous: RouteMapRecord | null,
  state: ShipmentState,
  drafts: readonly DomainEventDraft[],
  now: string,
  xtdForwarders: readonly string[],
): RouteMapWrite {
  const { record, map } = nextRecord(previous, state, now, xtdForwarders);
  return {
    previous,
    next: record,
    snapshot: {
      routeMapJson: record.routeMapJson,
      snapshotAt: record.updatedAt,
      expiresAt: epochSeconds(state.createdAt) + SNAPSHOT_RETENTION_SECONDS,
    },
    events: toDomainEvents(drafts, record, now),
    eventsExpireAt: epochSeconds(now) + OUTBOX_RETENTION_SECONDS,
    searchFields: searchFieldsOf(map),
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
): RouteMapWrite {
  if (base.record) return routeMapChange(base.record, state, drafts, now, base.record.xtdForwarders);
  return {
    ...routeMapChange(null, state, drafts, now, base.earlyXtd.forwarderIds),
    earlyXtdRevision: base.earlyXtd.revision,
  };
}

/** The route map as of `now`: the stored JSON while exact (no parse, no render), else re-rendered. */
export async function currentRouteMapJson(
  view: RouteMapView,
  now: string,
  load: () => Promise<RouteMapRecord | null>,
): Promise<string> {
  if (view.staleAfter === null || normaliseUtc(now) <= view.staleAfter) return view.routeMapJson;
  const record = await load();
  return record ? JSON.stringify(renderRouteMap(record.state, now)) : view.routeMapJson;
}

export interface GrantDeps {
  routeMaps: RouteMapRepository;
  backoff: ConflictBackoff;
}

/**
 * Adds XTD readers to an existing route map (no snapshot, no events: the route map did not change),
 * recording `trigger` in the same transaction. Returns the record as written, or null when the AWB
 * has no route map.
 */
export async function grantXtdAccess(
  deps: GrantDeps,
  awb: AwbId,
  forwarderIds: readonly string[],
  now: string,
  trigger?: TriggerRecord,
): Promise<RouteMapRecord | null> {
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    const previous = await deps.routeMaps.get(awb);
    if (!previous) return null;
    const missing = forwarderIds.filter((id) => !previous.xtdForwarders.includes(id));
    if (missing.length === 0 && !trigger) return previous;
    const { record, map } = nextRecord(previous, previous.state, now, [
      ...previous.xtdForwarders,
      ...forwarderIds,
    ]);
    const outcome = await deps.routeMaps.write({
      previous,
      next: record,
      snapshot: null,
      events: [],
      eventsExpireAt: epochSeconds(now) + OUTBOX_RETENTION_SECONDS,
      searchFields: searchFieldsOf(map),
      ...(trigger ? { trigger } : {}),
    });
    if (outcome === "written") return record;
    await deps.backoff(attempt);
  }
  throw new WriteConflictError(awb);
}
