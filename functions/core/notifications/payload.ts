/**
 * The spec "Event payload" (sent to Url-channel endpoints and, in its json/xml/text forms, to
 * webhooks). Exactly the spec's fields in the spec's order, with the values existing receivers
 * validate (DESIGN.md section 5).
 */
import type { DomainEvent, EventName, EventStatus, NotificationType } from "../events.ts";
import type { DateTimePair } from "../route-map/spec-types.ts";
import { normaliseUtc, toPair } from "../time/station-time.ts";

/** The receiving forwarder (a ForwarderIdentity or a rule's/webhook's stored owner). */
export interface PayloadRecipient {
  forwarderId: string;
  agentCode: string;
  agentCass: string;
  agentStation: string | null;
}

/**
 * Optional extension of DomainEvent (not in events.ts): the flight to name when the event has none of
 * its own (RMP/CAN and non-flight milestones). Suggested for the producer: the first leg for origin
 * milestones and RMP/CAN, the last leg for destination milestones.
 */
export type PayloadEvent = DomainEvent & {
  contextFlight?: { carrierCode: string; flightNumber: string } | null;
};

export const EVENT_PAYLOAD_FIELDS = [
  "IdMessage",
  "AirWaybillPrefix",
  "AirWaybillNumber",
  "ForwarderIdentifier",
  "AgentCode",
  "AgentCass",
  "AgentStation",
  "Type",
  "Event",
  "EventStatus",
  "AirportOfEvent",
  "AirportOfOrigin",
  "AirportOfDestination",
  "CarrierCode",
  "FlightNumber",
  "PiecesReported",
  "TotalShipmentPieces",
  "WeightReported",
  "WeightCode",
  "MilestoneReportedLocalTimeStamp",
  "MilestoneReportedUtcTimeStamp",
  "isRM",
  "TavGap",
  "PlannedLocalTimeStamp",
  "PlannedUtcTimeStamp",
] as const;
export type EventPayloadField = (typeof EVENT_PAYLOAD_FIELDS)[number];

export interface EventPayload {
  IdMessage: string;
  AirWaybillPrefix: string;
  AirWaybillNumber: string;
  ForwarderIdentifier: string;
  AgentCode: string;
  AgentCass: string;
  AgentStation: string;
  Type: NotificationType;
  Event: EventName;
  EventStatus: EventStatus;
  AirportOfEvent: string;
  AirportOfOrigin: string;
  AirportOfDestination: string;
  /** null when no flight is known (no booking yet): never an invented carrier. */
  CarrierCode: string | null;
  FlightNumber: string | null;
  PiecesReported: number;
  TotalShipmentPieces: number;
  WeightReported: number | null;
  WeightCode: string | null;
  /** null for Missed/ProActive alerts: nothing was reported (the spec's "string" cannot hold that). */
  MilestoneReportedLocalTimeStamp: string | null;
  MilestoneReportedUtcTimeStamp: string | null;
  isRM: boolean;
  TavGap: null;
  PlannedLocalTimeStamp: string | null;
  PlannedUtcTimeStamp: string | null;
}

const CARRIER_CODE = /^[A-Z0-9]{2}$/;
const FLIGHT_NUMBER = /^\d{1,4}[A-Z]?$/;
const STATION = /^[A-Z]{3}$/;

/** "2026-03-14T13:41:00Z" (or any ISO instant) -> "2026-03-14T13:41:00+00:00", no milliseconds. */
function utcWithOffset(iso: string): string {
  return `${normaliseUtc(iso).slice(0, -1)}+00:00`;
}

/** Local wall-clock time, seconds precision, no offset. */
function localStamp(local: string): string {
  return local.replace(/\.\d+$/, "").slice(0, 19);
}

/**
 * The event's flight, else the producer's context flight; without a valid one (no booking yet, or a
 * carrier code receivers would refuse) both fields are null: no value is invented.
 */
function flightOf(event: PayloadEvent): { carrierCode: string | null; flightNumber: string | null } {
  for (const flight of [event.flight, event.contextFlight]) {
    const carrierCode = flight?.carrierCode.trim().toUpperCase();
    const flightNumber = flight?.flightNumber.trim().toUpperCase();
    if (carrierCode && flightNumber && CARRIER_CODE.test(carrierCode) && FLIGHT_NUMBER.test(flightNumber)) {
      return { carrierCode, flightNumber };
    }
  }
  return { carrierCode: null, flightNumber: null };
}

/**
 * The reported pair: the actual time of a reported milestone; for RMP/CAN (type Event, nothing
 * "reported") the time the fact was recorded, at the event's station; none for Missed/ProActive.
 */
function reportedPair(event: DomainEvent): DateTimePair | null {
  if (event.type !== "Event") return null;
  if (event.reported) return event.reported;
  try {
    return toPair(event.station, event.recordedAt);
  } catch {
    // Unknown station time zone: UTC wall clock is the only honest local value left.
    const utc = normaliseUtc(event.recordedAt);
    return { Utc: utc, Local: utc.slice(0, -1) };
  }
}

/**
 * AgentStation is the receiving forwarder's branch (DESIGN.md section 5). Decision: a token without a
 * station falls back to the AWB origin (where the owning agent's branch usually is), then to the
 * event's station, so the field is always 3 letters.
 */
function agentStationFor(recipient: PayloadRecipient, event: DomainEvent): string {
  for (const candidate of [recipient.agentStation, event.origin, event.station]) {
    if (candidate && STATION.test(candidate)) return candidate;
  }
  return event.origin;
}

const wholeCount = (value: number) => (Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0);

export function renderEventPayload(event: PayloadEvent, recipient: PayloadRecipient): EventPayload {
  const flight = flightOf(event);
  const reported = reportedPair(event);
  // Missed/ProActive: nothing was reported, so no pieces (0 = not reported) and no weight, even for
  // outbox events recorded (or deliveries parked) before the core stopped filling them in.
  const alert = event.type !== "Event";
  const weightReported = alert ? null : event.weightReported;
  return {
    IdMessage: event.eventId,
    AirWaybillPrefix: event.awb.prefix,
    AirWaybillNumber: event.awb.serial,
    ForwarderIdentifier: recipient.forwarderId,
    AgentCode: recipient.agentCode,
    AgentCass: recipient.agentCass,
    AgentStation: agentStationFor(recipient, event),
    Type: event.type,
    Event: event.name,
    EventStatus: event.eventStatus,
    AirportOfEvent: event.station,
    AirportOfOrigin: event.origin,
    AirportOfDestination: event.destination,
    CarrierCode: flight.carrierCode,
    FlightNumber: flight.flightNumber,
    PiecesReported: alert ? 0 : wholeCount(event.piecesReported),
    TotalShipmentPieces: wholeCount(event.totalPieces),
    WeightReported: weightReported,
    WeightCode: weightReported === null ? null : event.weightCode,
    MilestoneReportedLocalTimeStamp: reported ? localStamp(reported.Local) : null,
    MilestoneReportedUtcTimeStamp: reported ? utcWithOffset(reported.Utc) : null,
    isRM: event.isRM,
    TavGap: null,
    PlannedLocalTimeStamp: event.planned ? localStamp(event.planned.Local) : null,
    PlannedUtcTimeStamp: event.planned ? utcWithOffset(event.planned.Utc) : null,
  };
}
