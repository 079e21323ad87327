/**
 * Builders for the domain events the core emits, so every payload field (pieces, totals, weight,
 * station, flight, planned/reported pairs, isRM) is filled the same way everywhere.
 */
import type { MilestoneName } from "../carrier-messages/types.ts";
import type { DomainEventDraft, EventStatus, NotificationType } from "../events.ts";
import { toPair } from "../time/station-time.ts";
import { isPlanned } from "./derive.ts";
import type { ShipmentState } from "./shipment-state.ts";

export interface MilestoneEventInput {
  name: MilestoneName;
  type: NotificationType;
  eventStatus: EventStatus;
  milestoneKey: string;
  station: string;
  flight: { carrierCode: string; flightNumber: string } | null;
  /** Pieces of the report; null = the whole consignment. */
  pieces: number | null;
  weight: number | null;
  weightCode: string | null;
  reportedUtc: string | null;
  plannedUtc: string | null;
}

/**
 * The flight a payload names when the milestone itself has none: receivers validate a 2-character
 * carrier and a flight number, so origin milestones and RMP/CAN name the first leg, destination
 * milestones the last leg (null when there is no booking yet).
 */
function contextFlight(
  state: ShipmentState,
  name: MilestoneName | "RMP" | "CAN",
): DomainEventDraft["flight"] {
  const leg = ["NFD", "AWD", "DLV"].includes(name) ? state.legs.at(-1) : state.legs[0];
  return leg ? { carrierCode: leg.carrierCode, flightNumber: leg.flightNumber } : null;
}

/**
 * An event about one milestone (reported, missed or overdue). Pairs are rendered at its station.
 * Missed and ProActive alerts are about a report that did NOT happen: nothing was reported, so pieces
 * are 0 (the spec's "0 = not reported", as ActualNoOfPieces) and weight and weight code null, whatever
 * the caller passed; only the shipment total and the planned time describe the milestone.
 */
export function buildMilestoneEventDraft(state: ShipmentState, input: MilestoneEventInput): DomainEventDraft {
  const totalPieces = state.total?.pieces ?? input.pieces ?? 0;
  const reportedSomething = input.type === "Event";
  const reportedWeight = !reportedSomething
    ? null
    : (input.weight ?? (input.pieces === null ? (state.total?.weight ?? null) : null));
  return {
    name: input.name,
    type: input.type,
    eventStatus: input.eventStatus,
    awb: { ...state.awb },
    station: input.station,
    origin: state.origin,
    destination: state.destination,
    flight: input.flight
      ? { carrierCode: input.flight.carrierCode, flightNumber: input.flight.flightNumber }
      : contextFlight(state, input.name),
    piecesReported: reportedSomething ? (input.pieces ?? totalPieces) : 0,
    totalPieces,
    weightReported: reportedWeight,
    weightCode: reportedWeight === null ? null : (input.weightCode ?? state.total?.weightCode ?? null),
    reported: reportedSomething && input.reportedUtc ? toPair(input.station, input.reportedUtc) : null,
    planned: input.plannedUtc ? toPair(input.station, input.plannedUtc) : null,
    isRM: isPlanned(state),
    milestoneKey: input.milestoneKey,
  };
}

/** RMP (plan created or replanned) or CAN (cancelled): about the whole route map, at its origin. */
export function buildRouteMapEventDraft(
  state: ShipmentState,
  name: "RMP" | "CAN",
  eventStatus: EventStatus,
): DomainEventDraft {
  const total = state.total;
  return {
    name,
    type: "Event",
    eventStatus,
    awb: { ...state.awb },
    station: state.origin,
    origin: state.origin,
    destination: state.destination,
    flight: contextFlight(state, name),
    piecesReported: total?.pieces ?? 0,
    totalPieces: total?.pieces ?? 0,
    weightReported: total?.weight ?? null,
    weightCode: total?.weight === null || total?.weight === undefined ? null : total.weightCode,
    reported: null,
    planned: null,
    isRM: isPlanned(state),
    milestoneKey: null,
  };
}
