/**
 * The RouteMaps table's items: their keys and TTLs, and items read back as records (the reads are in
 * route-map-reads.ts, the writes in route-map-writes.ts). One partition per AWB, pk `AWB#<11 digits>`:
 *   CURRENT                          the record (state, version, rendered JSON, staleAfter, readers)
 *   CURRENT#XTD                      only while there is no CURRENT: XTD grants recorded before the
 *                                      route map existed (forwarderIds string set, revision +1 each)
 *   SNAP#<updatedAt ISO>#<version 8> one snapshot per change, TTL expiresAt = creation + 30 days
 *   EVT#<eventId>                    outbox item (functions/contracts/outbox.ts), TTL 7 days from the write
 *   READER#AGT#<code>#<cass>         one per reader, on the byReader index: readerKey / readerSort
 *   READER#FWD#<forwarderId>           (`<CreationDate UTC>#<awb11>`) + denormalised search fields
 *   TRIGGER#<QP|XTD>#<forwarderId>   sendsme requests (XTD ones grant read access)
 * Only the first two sort keys begin with "CURRENT", so one Query reads what a change starts from: the
 * record, or the early grants a new route map starts with. One TransactWriteItems per change,
 * conditioned on CURRENT's version; a creation also on CURRENT#XTD's revision (and deletes it: the
 * grants then live on CURRENT), so an XTD sendsme racing it makes it a conflict. A change that is
 * CURRENT alone is the same conditional write without a transaction (billed once, not twice).
 * Write cost (docs/cost.md): CURRENT's aggregate and rendering and each snapshot's rendering are stored
 * compressed (`stateZ`, `routeMapZ`, `codec`: route-map-codec.ts; items written before keep plain
 * `state` / `routeMapJson` and are read as they are), and reader items are rewritten only when their
 * search fields or the readers change. Reads are GetItem, BatchGetItem and Query only: no Scan.
 * Retention is decided here (DESIGN.md section 3: TTL attributes live only in adapters): the core's
 * writes carry no expiry.
 */
import type { NativeAttributeValue, TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { awbKey } from "../core/awb.ts";
import type { AgentRef, AwbId } from "../core/carrier-messages/types.ts";
import type {
  RouteMapRecord,
  RouteMapSnapshot,
  RouteMapView,
  TriggerRecord,
} from "../core/ports/route-maps.ts";
import type { StoredProvenance } from "../core/route-map/provenance.ts";
import type { ShipmentState } from "../core/route-map/shipment-state.ts";
import { unpackJson } from "./route-map-codec.ts";

export type Item = Record<string, NativeAttributeValue>;
export type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/** History retention (spec "Limits"): snapshots live 30 days from the route map's creation. */
const SNAPSHOT_RETENTION_SECONDS = 30 * 24 * 3600;
/** Outbox items only need to outlive stream processing and replays: 7 days from their write. */
const OUTBOX_RETENTION_SECONDS = 7 * 24 * 3600;

/** An ISO instant as epoch seconds (DynamoDB TTL attributes). */
export function epochSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** TTL of a change's snapshot: the route map's creation (CreationDate) + 30 days. */
export const snapshotExpiresAt = (next: RouteMapRecord) =>
  epochSeconds(next.state.createdAt) + SNAPSHOT_RETENTION_SECONDS;

/** TTL of a change's outbox items: the time of the write + 7 days. */
export const outboxExpiresAt = (next: RouteMapRecord) =>
  epochSeconds(next.updatedAt) + OUTBOX_RETENTION_SECONDS;

export const pk = (awb: AwbId) => `AWB#${awbKey(awb)}`;
export const CURRENT = "CURRENT";
/** Sorts right after CURRENT and begins with it: read together by one Query (getForChange). */
export const EARLY_XTD = "CURRENT#XTD";
export const EARLY_XTD_NAMES = { "#forwarderIds": "forwarderIds", "#revision": "revision" };
/** Everything of CURRENT except the aggregate: what a read needs while the stored JSON is exact. */
const VIEW_ATTRIBUTES = [
  "awb11",
  "origin",
  "destination",
  "version",
  "routeMapJson",
  "routeMapZ",
  "codec",
  "staleAfter",
  "ownerAgent",
  "xtdForwarders",
  "createdAt",
  "updatedAt",
];
export const VIEW_PROJECTION = {
  ProjectionExpression: VIEW_ATTRIBUTES.map((name) => `#${name}`).join(", "),
  ExpressionAttributeNames: Object.fromEntries(VIEW_ATTRIBUTES.map((name) => [`#${name}`, name])),
};

const agentReaderKey = (agent: AgentRef) => `AGT#${agent.code}#${agent.cass}`;
const forwarderReaderKey = (forwarderId: string) => `FWD#${forwarderId}`;

export function readerKeys(record: Pick<RouteMapRecord, "ownerAgent" | "xtdForwarders">): string[] {
  return [
    ...(record.ownerAgent ? [agentReaderKey(record.ownerAgent)] : []),
    ...record.xtdForwarders.map(forwarderReaderKey),
  ];
}

function awbOf(awb11: string): AwbId {
  return { prefix: awb11.slice(0, 3), serial: awb11.slice(3) };
}

/**
 * The stored JSON of an item: compressed (`<name>Z` with its `codec`, route-map-codec.ts), or plain
 * text in items written before compression (still read as they are).
 */
function jsonOf(item: Item, name: "routeMapJson" | "state"): string | undefined {
  const packed = item[`${name === "state" ? "state" : "routeMap"}Z`] as Uint8Array | undefined;
  return packed ? unpackJson(packed, item.codec as number) : undefined;
}

export function viewOf(item: Item): RouteMapView {
  return {
    awb: awbOf(item.awb11 as string),
    origin: item.origin as string,
    destination: item.destination as string,
    version: item.version as number,
    routeMapJson: jsonOf(item, "routeMapJson") ?? (item.routeMapJson as string),
    staleAfter: (item.staleAfter as string | undefined) ?? null,
    ownerAgent: (item.ownerAgent as AgentRef | undefined) ?? null,
    xtdForwarders: (item.xtdForwarders as string[] | undefined) ?? [],
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export function recordOf(item: Item): RouteMapRecord {
  const state = jsonOf(item, "state");
  return {
    ...viewOf(item),
    state: state ? (JSON.parse(state) as ShipmentState) : (item.state as ShipmentState),
  };
}

export function snapshotOf(item: Item): RouteMapSnapshot {
  const src = item.src as string | undefined;
  return {
    routeMapJson: jsonOf(item, "routeMapJson") ?? (item.routeMapJson as string),
    snapshotAt: item.snapshotAt as string,
    ...(src ? { provenance: JSON.parse(src) as StoredProvenance } : {}),
  };
}

export function triggerItem(trigger: TriggerRecord): Item {
  return {
    pk: pk(trigger.awb),
    sk: `TRIGGER#${trigger.program}#${trigger.forwarderId}`,
    program: trigger.program,
    forwarderId: trigger.forwarderId,
    agentCode: trigger.agent.code,
    agentCass: trigger.agent.cass,
    requestedAt: trigger.requestedAt,
  };
}
