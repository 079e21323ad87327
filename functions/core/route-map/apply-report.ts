/**
 * Applies one carrier report to a shipment's state (DESIGN.md sections 4 and 9). Pure: the receipt
 * time comes in as a value and nothing is mutated in place. Repeats change nothing; status messages
 * are kept as a set, so any arrival order ends in the same route map; bookings apply in receipt
 * order because a later booking replans.
 *
 * The steps, one module each: bookings and the FWB (apply-itinerary.ts, legs in itinerary-legs.ts,
 * totals in shipment-totals.ts), what a new itinerary moves (replan.ts), status messages and
 * cancellations (apply-status.ts), milestones overdue at planning (missed-milestones.ts). Before any
 * of them, report-placement.ts refuses a report the core cannot place.
 */
import type { CarrierReport } from "../carrier-messages/types.ts";
import { ShipmentMismatchError } from "../errors.ts";
import { earlierUtc, laterUtc, normaliseUtc } from "../time/station-time.ts";
import { applyAwbData, applyBooking } from "./apply-itinerary.ts";
import { applyCancellation, applyOtherStatus, applyStatus } from "./apply-status.ts";
import {
  type ApplyContext,
  type ApplyResult,
  canonical,
  emptyState,
  type StepOutcome,
} from "./apply-step.ts";
import { isPlanned } from "./derive.ts";
import { buildRouteMapEventDraft } from "./event-drafts.ts";
import { recordOverdue } from "./missed-milestones.ts";
import { assertKnownStations } from "./report-placement.ts";
import type { ShipmentState } from "./shipment-state.ts";

export type { ApplyContext, ApplyResult };

export function applyReport(
  previous: ShipmentState | null,
  report: CarrierReport,
  ctx: ApplyContext,
): ApplyResult {
  const receivedAt = normaliseUtc(ctx.receivedAt);
  if (previous && (previous.awb.prefix !== report.awb.prefix || previous.awb.serial !== report.awb.serial)) {
    throw new ShipmentMismatchError(
      `report for ${report.awb.prefix}-${report.awb.serial} applied to ${previous.awb.prefix}-${previous.awb.serial}`,
    );
  }
  assertKnownStations(report);
  if (report.kind === "other-status") return applyOtherStatus(previous, report, receivedAt, ctx.receipt);
  const state: ShipmentState = previous ? structuredClone(previous) : emptyState(report, receivedAt);
  const wasPlanned = isPlanned(state);
  const outcome: StepOutcome = { events: [], routeMapChanged: false, movedKeys: [] };

  switch (report.kind) {
    case "booking":
      applyBooking(state, report, ctx.carrier, receivedAt, outcome);
      break;
    case "awb-data":
      applyAwbData(state, report, ctx.carrier, receivedAt, outcome);
      break;
    case "status":
      applyStatus(state, report, receivedAt, outcome, ctx.receipt);
      break;
    case "cancellation":
      applyCancellation(state, report, receivedAt, outcome);
      break;
  }

  if (previous && sameContent(previous, state)) return { state: previous, changed: false, events: [] };

  const events = [...outcome.events];
  // Any change of a planned route map is a replan, even one that leaves it without planned times.
  if ((isPlanned(state) && !wasPlanned) || (wasPlanned && outcome.routeMapChanged)) {
    events.unshift(buildRouteMapEventDraft(state, "RMP", wasPlanned ? "Replan" : "Creation"));
  }
  if (isPlanned(state))
    events.push(...recordOverdue(state, receivedAt, wasPlanned ? outcome.movedKeys : null));

  if (previous) {
    state.lastUpdate = laterUtc(previous.lastUpdate, receivedAt);
    state.createdAt = earlierUtc(previous.createdAt, receivedAt);
  }
  return { state, changed: true, events };
}

/** Equal apart from the receipt bookkeeping (a repeat received later is still a repeat). */
function sameContent(a: ShipmentState, b: ShipmentState): boolean {
  const strip = (s: ShipmentState) => ({ ...s, lastUpdate: null, createdAt: null });
  return canonical(strip(a)) === canonical(strip(b));
}
