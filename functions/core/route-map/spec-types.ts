/**
 * The route map exactly as the interface spec names it (field names and casing are the contract),
 * and the answers that carry it (history, search). Built by the core from a shipment's state;
 * serialised as is by the HTTP handlers; read by the web app (type-only imports).
 */
import type { PagedResponse } from "../../contracts/api-bodies.ts";
import type { MilestoneName } from "../carrier-messages/types.ts";

/** `Utc` ends in Z without milliseconds; `Local` is the station's wall-clock time without offset. */
export interface DateTimePair {
  Utc: string;
  Local: string;
}

/** Spec statuses plus our documented `Planned` (neither due nor reported). */
export type MilestoneStatus = "Ok" | "Ko" | "Missing" | "Planned";
export type CycleStatus = "Planned" | "Partial" | "Completed";
export type RouteMapStatus = "Booked" | "Accepted" | "OnAir" | "AtDestination" | "Cancelled";

export interface Totals {
  NoOfPieces: number;
  WeightCode: string | null;
  Weight: number | null;
  VolumeCode: string | null;
  Volume: number | null;
}

export interface Milestone {
  Status: MilestoneStatus;
  ArchivedStatus: MilestoneStatus;
  Name: MilestoneName;
  Station: string;
  /** null only on a Simple route map (status without booking: no plan yet). */
  PlannedDateTime: DateTimePair | null;
  ActualDateTime: DateTimePair | null;
  IsReplanned: boolean;
  ActualNoOfPieces: number;
}

export interface FlightTimes {
  DepartureDateTime: DateTimePair | null;
  ArrivalDateTime: DateTimePair | null;
}

export interface FlightInfo {
  CarrierCode: string;
  Number: string;
  /** DDMMM, e.g. "14MAR". */
  Date: string;
  Scheduled: FlightTimes;
  Actual: FlightTimes | null;
  Routing: { Origin: string; Destination: string };
  isRoadFeederService: boolean;
}

export interface Flight {
  FlightInfo: FlightInfo;
  Total: Totals;
  PlannedTotal: Totals | null;
  Milestone: Milestone[];
}

export interface OriginCycle {
  Milestone: Milestone[];
  Status: CycleStatus;
  isReplanned: boolean;
}

export interface RoutingCycle {
  Flight: Flight[];
  Status: CycleStatus;
  isReplanned: boolean;
}

export interface DestinationCycle {
  Milestone: Milestone[];
  Status: CycleStatus;
  isReplanned: boolean;
}

export interface Shipment {
  AirlinePrefix: string;
  AwbNumber: string;
  Routing: { Origin: string; Destination: string };
  Total: Totals;
}

export interface RouteMap {
  MilestonePlan: {
    OriginCycle: OriginCycle;
    RoutingCycle: RoutingCycle;
    DestinationCycle: DestinationCycle;
  };
  LastUpdate: string;
  Shipment: Shipment;
  DeliveryDate: DateTimePair | null;
  ReceiptDate: DateTimePair | null;
  ProductCode: string | null;
  IsRoadFeederService: boolean;
  Status: RouteMapStatus;
  IsReplanned: boolean;
  RoutingIsReplanned: boolean;
  /** 0 all fine, 1 some Ko, 2 some Missing. */
  OriginState: number;
  RoutingState: number;
  DestinationState: number;
  Origin: null;
  Routing: null;
  Destination: null;
  CreationDate: DateTimePair;
}

/**
 * Our documented extension of the history: where a snapshot's change or a status message came from
 * (the message, how it arrived, when, and whether its time was the carrier's).
 */
export interface Provenance {
  Channel: "Api" | "Email" | "OneRecord";
  /** "FSU/15", "XFSU/3", "LogisticsEvent/3.0" (or the format and code, "FSU/DEP", when the message did not say). */
  Message: string;
  /** The carrier's own reference of the message, null when it gave none. */
  MessageId: string | null;
  /** The reporting carrier's airline prefix. */
  Carrier: string;
  /** When we received it, at the station the report names. */
  ReceivedAt: DateTimePair;
  /** false: the message gave no time and the actual is the receipt time; null: it reports no actual (a booking). */
  TimeGiven: boolean | null;
  /** An FSA: the carrier's answer to a status request. */
  StatusRequestReply: boolean;
  /** The receipt: support reads the raw message under it (GET /support/carriers/{prefix}/messages/{id}) for 30 days. */
  ReceiptId: string;
  /** Lines of the message that were skipped although the format does not allow them as written; empty when none. */
  SkippedLines: string[];
}

/**
 * A status message beyond the route-map milestones (FOH, MAN, TFD, ...), as the history lists it;
 * optional members are left out when the message did not give them.
 */
export interface StatusMessage {
  Code: string;
  Station: string;
  DateTime: DateTimePair;
  FlightNumber?: string;
  CarrierCode?: string;
  Pieces?: number;
  /** Our extension: where it came from; left out for a message kept before provenance was. */
  Provenance?: Provenance;
}

/** GET …/{awb}/history: the current map, one snapshot per change (newest first), the status messages. */
export interface RouteMapHistory {
  RouteMap: RouteMap;
  /** Provenance (our extension): the message that made the change; null for a scheduled check or an older snapshot. */
  Snapshots: Array<{ SnapshotDate: DateTimePair; RouteMap: RouteMap; Provenance: Provenance | null }>;
  /** Our extension: newest first, at most 100, the same on every page. */
  StatusMessages: StatusMessage[];
}

/**
 * POST /ffw/service/routemap (search): a page of route maps. Our extensions: whether the totals are
 * exact (CreationDate sorts count only to the end of the next page) and the cursor of the next page.
 */
export interface RouteMapSearchResult extends PagedResponse<RouteMap> {
  TotalItemsExact: boolean;
  NextCursor: string | null;
}
