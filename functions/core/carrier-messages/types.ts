/**
 * What a carrier told us, normalised from Cargo-IMP (FSU, FWB, FFR/FFA), Cargo-XML XFSU or our JSON
 * event form. Parsers produce these; the route-map core consumes them. Times are station-local as the
 * carrier sent them (Cargo-IMP: without a year), resolved to UTC later by the core; an XFSU time sent
 * with a UTC offset is converted to the station's local time by the parser and keeps its offset.
 * Every report says where in the request body it came from, so a message the core cannot place
 * (unknown station, a date that does not exist) is still a 400 naming its line.
 */

import type { AwbId, StationTime } from "../types.ts";

export { truncateFound } from "../errors.ts";
// Defined in the core's leaf vocabulary (errors and use cases speak them too); re-exported for the parsers.
export {
  type AwbId,
  type FieldError,
  MILESTONE_NAMES,
  type MilestoneName,
  type StationTime,
} from "../types.ts";

/** Status codes a carrier reports (FWB and LAT are never reported by a status message). */
const REPORTED_STATUS_CODES = ["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"] as const;
export type ReportedStatusCode = (typeof REPORTED_STATUS_CODES)[number];

/** Where something was read in the request body. */
export interface SourceRef {
  /** 1-based line in the body. */
  line: number;
  /** XFSU element path or JSON field path (`Messages[1].Origin`); null for Cargo-IMP, whose line says it all. */
  path: string | null;
}

export interface Quantity {
  pieces: number;
  /** "K" kilograms or "L" pounds, as sent. */
  weightCode: "K" | "L" | null;
  weight: number | null;
  /** Always "CM" (cubic metres) once normalised; Cargo-IMP "MC" is converted. */
  volumeCode: "CM" | null;
  volume: number | null;
}

/** A flight (or road-feeder truck) of the itinerary. */
export interface FlightLeg {
  carrierCode: string;
  /** 1-4 digits plus an optional letter suffix. */
  flightNumber: string;
  /** Day and month of the flight's departure date as in the message (no year). */
  flightDay: number;
  flightMonth: number;
  origin: string;
  destination: string;
  /** Scheduled departure at the origin (S time group); null when the message gives none. */
  scheduledDeparture: StationTime | null;
  /** Scheduled arrival at the destination; null when the message gives none. */
  scheduledArrival: StationTime | null;
  /** true/false when the message says so (JSON/XFSU flag); null = decide from carrier configuration. */
  roadFeeder: boolean | null;
  /** Pieces/weight booked on this leg when the message gives them. */
  quantity: Quantity | null;
  /** The BKD, flight or FLT line (XFSU movement, JSON leg) it came from. */
  at: SourceRef;
}

export interface AgentRef {
  /** 7 digits */
  code: string;
  /** 4 digits */
  cass: string;
}

/**
 * The message a report came from, as the carrier named it: type and version from its identifier line
 * ("FSU" and "15" for `FSU/15`; "XFSU" and the schema version for Cargo-XML; "LogisticsEvent" and the
 * data-model version for ONE Record), and its reference where the envelope or document gives one
 * (a Type B or EDIFACT message reference, an XML message id, an event's @id). Where every actual came
 * from is kept with it, so a person can see which message set it.
 */
export interface MessageOrigin {
  type: string;
  version: string | null;
  id: string | null;
  /**
   * Lines of the message the parser knowingly skipped although the format does not allow them as
   * written ("line 15: free text without its leading /"), absent when there were none: a line the
   * route map does not need is not worth refusing the message for, but the history says it was left out.
   */
  skipped?: string[];
}

interface ReportBase {
  awb: AwbId;
  /** AWB origin and destination from the consignment detail line. */
  origin: string;
  destination: string;
  /** Total consignment quantity when the message carries it. */
  total: Quantity | null;
  /** Which wire format and message type it came from, e.g. "FSU/BKD", "FWB", "FFR", "XFSU/DEP", "JSON/DEP". */
  source: string;
  /** The message it came from (type, version, reference): every parser says. */
  message: MessageOrigin;
  /** Where it came from: the report itself (status line, message), and its AWB origin and destination. */
  sourceAt: ReportSource;
}

export interface ReportSource {
  /** Cargo-IMP: the status line (a whole FWB/FFR/FFA: its identifier line); XFSU: ReportedStatus; JSON: the message. */
  report: SourceRef;
  origin: SourceRef;
  destination: SourceRef;
  /** A status's (or cancellation's) station and time, when they have a place of their own (JSON fields). */
  station?: SourceRef;
  time?: SourceRef;
}

/** Flight plan: FSU/BKD, FFR/FFA booking lines, JSON/XFSU booking. */
export interface BookingReport extends ReportBase {
  kind: "booking";
  legs: FlightLeg[];
  /**
   * true when the message states the whole itinerary (FFR/FFA, multi-line BKD); a single-leg BKD is
   * false and only upserts the leg departing from its station (DESIGN.md section 9, Itinerary).
   */
  wholeItinerary: boolean;
}

/** FWB: the air waybill data. */
export interface AwbDataReport extends ReportBase {
  kind: "awb-data";
  agent: AgentRef | null;
  productCode: string | null;
  /** FLT lines, when present, give the whole itinerary (no scheduled times). */
  legs: FlightLeg[];
}

/** A status message: RCS, DEP, ARR, RCF, NFD, AWD, DLV. */
export interface StatusReport extends ReportBase {
  kind: "status";
  status: ReportedStatusCode;
  /** Station where it happened (DEP: flight origin, ARR/RCF: flight destination). */
  station: string;
  /**
   * Actual time at the station; null when the status line gives none (a ULD-level or bulk DEP): the
   * core then takes the message's receipt time and records that the time was not given.
   */
  time: StationTime | null;
  /** Flight for DEP/ARR/RCF when the message names it. */
  flight: { carrierCode: string; flightNumber: string; flightDay: number; flightMonth: number } | null;
  /** Pieces/weight of this report when given. */
  quantity: Quantity | null;
  /** DLV: name of the consignee who took delivery, when given. */
  deliveredTo: string | null;
}

/** DIS/CAN-style cancellation of the booking. */
export interface CancellationReport extends ReportBase {
  kind: "cancellation";
  time: StationTime | null;
  station: string | null;
}

/**
 * A standard status code beyond the route-map milestones (FOH, MAN, TFD, ...): kept as history of the
 * shipment, never changing its route map. Cargo-IMP only; lines of such a code without a station or a
 * time are skipped as before.
 */
export interface OtherStatusReport extends ReportBase {
  kind: "other-status";
  /** The 3-letter status code as sent. */
  code: string;
  station: string;
  /** null when the line gives no time: placed at the receipt time, like a status without one. */
  time: StationTime | null;
  /** The flight (MAN, PRE, DIS, ...) or the carrier alone (TFD, TRM, RCT) when the line names one. */
  flight: { carrierCode: string; flightNumber: string | null } | null;
  pieces: number | null;
}

export type CarrierReport =
  | BookingReport
  | AwbDataReport
  | StatusReport
  | CancellationReport
  | OtherStatusReport;
