/**
 * Ports of the route-map use cases: what they need from storage, carrier settings and the carrier
 * gateway, as interfaces the adapters implement (DynamoDB in Lambda, in memory in unit tests and
 * benchmarks). Keys, TTL attributes and marshalling stay in the adapters (DESIGN.md section 3).
 */
import type { AgentRef, AwbId } from "../carrier-messages/types.ts";
import type { DomainEvent } from "../events.ts";
import type { StoredProvenance } from "../route-map/provenance.ts";
import type { ShipmentState } from "../route-map/shipment-state.ts";
import type { RouteMapStatus } from "../route-map/spec-types.ts";

/** The current route map of one AWB as stored: the aggregate plus what reads need without it. */
export interface RouteMapRecord {
  awb: AwbId;
  origin: string;
  destination: string;
  state: ShipmentState;
  /** Optimistic-concurrency counter: 1 for a new AWB, +1 per write. */
  version: number;
  /** The route map rendered at the time of the write. */
  routeMapJson: string;
  /**
   * Until this instant (ISO UTC, inclusive) `routeMapJson` is still exact: it is the earliest planned
   * time of a milestone that was neither due nor reported at write time. null = never goes stale.
   */
  staleAfter: string | null;
  /** The FWB agent (the owner), null before the FWB. */
  ownerAgent: AgentRef | null;
  /** Forwarders granted read access and matching by an XTD trigger. */
  xtdForwarders: string[];
  createdAt: string;
  updatedAt: string;
}

/** A record without its aggregate: enough to answer a read while the stored JSON is exact. */
export type RouteMapView = Omit<RouteMapRecord, "state">;

/** Denormalised onto every reader item so search filters run on the index (never a scan). */
export interface RouteMapSearchFields {
  AirlinePrefix: string;
  AwbNumber: string;
  Origin: string;
  Destination: string;
  Status: RouteMapStatus;
  /** UTC "…Z" */
  CreationDate: string;
  DeliveryDate: string | null;
  ReceiptDate: string | null;
}

/** The route map as one change left it. How long it is kept is the adapter's retention policy. */
export interface RouteMapSnapshot {
  routeMapJson: string;
  /** ISO UTC of the write that produced it. */
  snapshotAt: string;
  /** The message that made the change; absent for a change no message made, or one stored before. */
  provenance?: StoredProvenance;
}

/** A page of a route map's history. */
export interface SnapshotPage {
  /** Unexpired snapshots in all. */
  total: number;
  items: RouteMapSnapshot[];
}

export type TriggerProgram = "QP" | "XTD";

/** A sendsme request as recorded (one per AWB, program and forwarder; a repeat overwrites it). */
export interface TriggerRecord {
  awb: AwbId;
  program: TriggerProgram;
  forwarderId: string;
  agent: AgentRef;
  requestedAt: string;
}

/**
 * XTD grants recorded while the AWB had no route map (sendsme before the booking): the first readers
 * of the route map when it is created.
 */
export interface EarlyXtdGrants {
  forwarderIds: string[];
  /** +1 per grant recorded, 0 = none: creating the route map is conditioned on it. */
  revision: number;
}

/** What a change of one AWB starts from, read at once: its record, or the grants waiting for it. */
export type RouteMapBase =
  | { record: RouteMapRecord; earlyXtd: null }
  | { record: null; earlyXtd: EarlyXtdGrants };

/** One atomic change of an AWB: current record, snapshot, outbox events and reader items together. */
export interface RouteMapWrite {
  /** The record the change was computed from; null = the AWB is new (must not exist yet). */
  previous: RouteMapRecord | null;
  /**
   * With `previous` null: the revision of the early XTD grants the new record's readers came from
   * (absent = 0, none). A grant recorded since makes the creation a conflict, so none is left out.
   */
  earlyXtdRevision?: number;
  next: RouteMapRecord;
  /** null when the route map itself did not change (an XTD grant). */
  snapshot: RouteMapSnapshot | null;
  events: DomainEvent[];
  searchFields: RouteMapSearchFields;
  /**
   * The search fields the reader items hold already (those of `previous`), when known: a store may
   * then leave unchanged reader items unwritten. Absent: every reader item is written.
   */
  previousSearchFields?: RouteMapSearchFields;
  /** Recorded in the same transaction (an XTD trigger that grants access at once). */
  trigger?: TriggerRecord;
}

/**
 * "conflict": someone else wrote first (version moved, the AWB appeared, or an early XTD grant was
 * recorded): reload and retry.
 */
export type WriteOutcome = "written" | "conflict";

export interface SearchRange {
  /** Inclusive bounds, ISO UTC "…Z"; null = open. */
  from: string | null;
  to: string | null;
}

export interface RouteMapSearchFilters {
  creationDate: SearchRange | null;
  deliveryDate: SearchRange | null;
  receiptDate: SearchRange | null;
  airlinePrefix: string | null;
  awbNumber: string | null;
  origin: string | null;
  destination: string | null;
  statuses: RouteMapStatus[] | null;
}

export interface ReaderQuery {
  /** `AGT#<code>#<cass>` or `FWD#<forwarderId>`. */
  readerKey: string;
  filters: RouteMapSearchFilters;
  /** Stop after this many matches (the caller refuses searches broader than that). */
  limit: number;
}

/**
 * A place on a reader key of the byReader index, whose sort key is (CreationDate, AWB): where a page
 * of a search ended, so the next one starts right after it.
 */
export interface ReaderIndexPosition {
  /** UTC "…Z", as in RouteMapSearchFields. */
  creationDate: string;
  /** Prefix + serial, 11 digits. */
  awb11: string;
}

export interface ReaderIndexQuery {
  /** `AGT#<code>#<cass>` or `FWD#<forwarderId>`. */
  readerKey: string;
  filters: RouteMapSearchFilters;
  /** Index order: true = newest creation first (ties: the higher AWB first), false = the reverse. */
  descending: boolean;
  /** Start strictly after this position (in this order); null = from the first item. */
  after: ReaderIndexPosition | null;
  /**
   * Index items to read at most in this call (DynamoDB's Limit: counted before the filters, so a
   * filtered call may return fewer matches and a `resumeAfter` to go on from).
   */
  limit: number;
}

/** One call's worth of one reader key: matches in index order, and where to go on. */
export interface ReaderIndexPage {
  matches: RouteMapSearchFields[];
  /** The last index item read (matched or not); null = this reader key has nothing further. */
  resumeAfter: ReaderIndexPosition | null;
}

/**
 * The search side of the byReader index, page by page, so a search holds one page of one reader key
 * at a time instead of every match (functions/core/use-cases/search-route-maps.ts merges the keys).
 */
export interface RouteMapSearchIndex {
  readerPage(query: ReaderIndexQuery): Promise<ReaderIndexPage>;
}

export interface RouteMapRepository {
  get(awb: AwbId): Promise<RouteMapRecord | null>;
  /**
   * The record a change starts from, or for a new AWB the XTD grants recorded for its creation: one
   * consistent read either way.
   */
  getForChange(awb: AwbId): Promise<RouteMapBase>;
  /** The record without its aggregate (cheaper: reads answer from the stored JSON). */
  getView(awb: AwbId): Promise<RouteMapView | null>;
  /** Views of many AWBs (search pages); unknown ones are left out, order not guaranteed. */
  getViews(awbs: readonly AwbId[]): Promise<RouteMapView[]>;
  write(change: RouteMapWrite): Promise<WriteOutcome>;
  /**
   * The snapshots still kept at `now` (ISO UTC), newest first: the adapter applies the retention (30
   * days from the route map's creation) and never returns an expired one, even before TTL deleted it.
   */
  snapshots(awb: AwbId, now: string): Promise<RouteMapSnapshot[]>;
  /**
   * One page of those snapshots (newest first, `page` 1-based) and how many there are in all: the
   * page's items are read alone, so a long history costs one small key query plus the page.
   */
  snapshotPage(awb: AwbId, now: string, page: { page: number; pageSize: number }): Promise<SnapshotPage>;
  /**
   * Records a trigger. With `onlyWithoutRouteMap`, it is written only if the AWB has no route map yet
   * (else "route-map-exists", and the caller grants on the record instead); an XTD trigger written so
   * is added to the AWB's early XTD grants in the same atomic step.
   */
  putTrigger(
    trigger: TriggerRecord,
    options: { onlyWithoutRouteMap: boolean },
  ): Promise<"written" | "route-map-exists">;
  /** Search fields of the AWBs one reader key may read, newest creation first; an index query. */
  queryReaders(query: ReaderQuery): Promise<RouteMapSearchFields[]>;
}

/** Waits before retry `attempt` (1-based) after a write conflict; adapters add jitter. */
export type ConflictBackoff = (attempt: number) => Promise<void>;
