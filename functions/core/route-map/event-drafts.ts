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

/** An event about one milestone (reported, missed or overdue). Pairs are rendered at its station. */
export function buildMilestoneEventDraft(state: ShipmentState, input: MilestoneEventInput): DomainEventDraft {
  const totalPieces = state.total?.pieces ?? input.pieces ?? 0;
  const reportedWeight = input.weight ?? (input.pieces === null ? (state.total?.weight ?? null) : null);
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
      : null,
    piecesReported: input.pieces ?? totalPieces,
    totalPieces,
    weightReported: reportedWeight,
    weightCode: reportedWeight === null ? null : (input.weightCode ?? state.total?.weightCode ?? null),
    reported: input.reportedUtc ? toPair(input.station, input.reportedUtc) : null,
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
    flight: null,
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
