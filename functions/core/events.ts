/**
 * Domain events: explicit facts written to the outbox in the same transaction as the route-map change
 * that caused them (DESIGN.md section 2). The matching pipeline and every notification read these,
 * never a diff of two route-map images.
 */
import type { AgentRef, AwbId } from "./carrier-messages/types.ts";
import type { DateTimePair } from "./route-map/spec-types.ts";
import type { EventName } from "./types.ts";

export type { EventName } from "./types.ts";

export type NotificationType = "Event" | "Missed" | "ProActive";
export type EventStatus = "Creation" | "Replan" | "Update";

/** What the core emits; the use case gives it its id and the route-map version. */
export interface DomainEventDraft {
  name: EventName;
  type: NotificationType;
  eventStatus: EventStatus;
  awb: AwbId;
  /** Station where it happened (the milestone's station; origin for RMP/CAN). */
  station: string;
  origin: string;
  destination: string;
  /**
   * Flight of a DEP/ARR/RCF milestone; for other milestones and RMP/CAN the first leg (last leg for
   * destination milestones), so payloads name a real carrier; null without a booking.
   */
  flight: { carrierCode: string; flightNumber: string } | null;
  piecesReported: number;
  totalPieces: number;
  weightReported: number | null;
  weightCode: string | null;
  /** Actual time reported, null for Missed/ProActive and RMP/CAN. */
  reported: DateTimePair | null;
  /** Planned time of the milestone, null when there is no plan (Simple route map) or for RMP/CAN. */
  planned: DateTimePair | null;
  /** true when the shipment has a planned route map, false for a Simple one. */
  isRM: boolean;
  /** Identifies the milestone inside the route map (leg departure station + name), null for RMP/CAN. */
  milestoneKey: string | null;
}

/** An outbox event as stored and matched. */
export interface DomainEvent extends DomainEventDraft {
  /** Stable id: receivers and idempotency keys de-duplicate on it. */
  eventId: string;
  /** UTC (Z) time the fact was recorded. */
  recordedAt: string;
  /** Route-map version that this event belongs to. */
  version: number;
  /** Who may hear about it: the AWB owner's agent (from the FWB) and forwarders with an XTD grant. */
  audience: { ownerAgent: AgentRef | null; xtdForwarders: string[] };
}
