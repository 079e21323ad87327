/**
 * The shipment aggregate as stored (a DynamoDB map): plain JSON, no Date objects, no undefined —
 * absent values are null. Reports are kept as a de-duplicated set and the route map is derived from
 * it, so status messages arriving out of order end in the same route map as in-order ones.
 */
import type {
  AgentRef,
  AwbId,
  MilestoneName,
  Quantity,
  ReportedStatusCode,
} from "../carrier-messages/types.ts";
import type { StoredProvenance } from "./provenance.ts";
import type { MilestoneStatus } from "./spec-types.ts";

export const SHIPMENT_STATE_SCHEMA_VERSION = 1;

/** A planned leg, its schedule already resolved to UTC. */
export interface PlannedLeg {
  carrierCode: string;
  flightNumber: string;
  flightDay: number;
  flightMonth: number;
  origin: string;
  destination: string;
  /** UTC "…Z"; null when the message gave no schedule (e.g. FWB FLT lines). */
  stdUtc: string | null;
  staUtc: string | null;
  roadFeeder: boolean;
  /** Quantity booked on this leg (the flight's PlannedTotal), null when not given. */
  bookedQuantity: Quantity | null;
}

/**
 * A milestone of the current plan. Keyed in `ShipmentState.planned` by its milestone key:
 * origin and destination milestones `${station}:${name}` (AWB origin/destination),
 * routing milestones `${legDepartureStation}:${name}` (so ARR/RCF of FRA->CGN are "FRA:ARR", "FRA:RCF").
 */
export interface PlannedMilestone {
  name: MilestoneName;
  /** Where it happens: origin, leg origin (DEP), leg destination (ARR/RCF), destination. */
  station: string;
  plannedUtc: string;
  /** Sticky: its planned time moved (or its leg's flight changed) in some replan. */
  isReplanned: boolean;
  /** Status it had just before the latest replan that moved it; null = never moved. */
  archivedStatus: MilestoneStatus | null;
}

/** One status message, identity = `id`; repeats of the same message collapse into one entry. */
export interface StoredStatus {
  id: string;
  status: ReportedStatusCode;
  station: string;
  flight: { carrierCode: string; flightNumber: string; flightDay: number; flightMonth: number } | null;
  /** Actual time, UTC "…Z". */
  atUtc: string;
  pieces: number | null;
  weight: number | null;
  weightCode: string | null;
  quantity: Quantity | null;
  /**
   * Where it came from (channel, message, receipt, whether the time was given). Not part of its
   * identity: a repeat by another channel keeps the first one's. Absent in statuses stored before
   * provenance was kept, and in states built without a receipt (tests).
   */
  p?: StoredProvenance;
}

/** Most status messages beyond the milestones one shipment keeps (the newest win). */
export const MAX_OTHER_STATUSES = 100;

/**
 * A status message beyond the route-map milestones (FOH, MAN, TFD, ...), kept as history only.
 * Identity: code + station + time.
 */
export interface StoredOtherStatus {
  code: string;
  station: string;
  /** UTC "…Z". */
  atUtc: string;
  carrierCode: string | null;
  flightNumber: string | null;
  pieces: number | null;
  /** Where it came from; absent as for StoredStatus. */
  p?: StoredProvenance;
}

export interface ShipmentState {
  schemaVersion: number;
  awb: AwbId;
  origin: string;
  destination: string;
  /** Consignment totals; bookings and FWBs set them, status messages only fill them in when absent. */
  total: Quantity | null;
  productCode: string | null;
  /** The owner's agent, from the FWB. */
  agent: AgentRef | null;
  /** First receipt (UTC) of any report for this AWB: the route map's CreationDate. */
  createdAt: string;
  /** Latest receipt (UTC) that changed the state. */
  lastUpdate: string;
  /** Earliest FWB receipt: the FWB milestone's actual. */
  fwbReceivedAt: string | null;
  cancelled: { atUtc: string; station: string } | null;
  /** Itinerary in order from origin to destination; empty = no booking yet. */
  legs: PlannedLeg[];
  /** Milestone key -> planned milestone; empty while the route map is Simple. */
  planned: Record<string, PlannedMilestone>;
  routingIsReplanned: boolean;
  /** Pieces, weight or volume changed after the plan was made. */
  isReplanned: boolean;
  /** Sorted by id so the stored form does not depend on arrival order. */
  statuses: StoredStatus[];
  /** `${milestoneKey}@${plannedUtc}` already reported as Missing (a replan re-arms the check). */
  missed: string[];
  /**
   * `${milestoneKey}@${plannedUtc}+${minutes}` whose ProActive alert was raised (once per interval and
   * planned time). Absent in states stored before proactive checks existed: read as empty.
   */
  proActive?: string[];
  /**
   * Status messages beyond the milestones, oldest first, de-duplicated by code + station + time, at
   * most MAX_OTHER_STATUSES (the newest). Never part of the route map. Absent in states stored before
   * they were kept: read as empty.
   */
  otherStatuses?: StoredOtherStatus[];
}
