/**
 * The reports that give the itinerary: bookings (BKD, FFR/FFA, XFSU, JSON), authoritative, applied
 * in receipt order; and the FWB (air waybill data: origin, destination, agent, product, totals, and
 * FLT lines that give the itinerary only while no booking has scheduled one). Both end in a replan.
 */
import type { AwbDataReport, BookingReport } from "../carrier-messages/types.ts";
import { earlierUtc } from "../time/station-time.ts";
import type { StepOutcome } from "./apply-step.ts";
import { milestoneKey } from "./derive.ts";
import { buildMilestoneEventDraft } from "./event-drafts.ts";
import { inheritFromKnown, resolveLeg, upsertLeg } from "./itinerary-legs.ts";
import type { CarrierPlanningConfig } from "./planning-config.ts";
import { replan } from "./replan.ts";
import type { PlannedLeg, ShipmentState } from "./shipment-state.ts";
import { updateTotals } from "./shipment-totals.ts";

export function applyBooking(
  state: ShipmentState,
  report: BookingReport,
  config: CarrierPlanningConfig,
  receivedAt: string,
  outcome: StepOutcome,
): void {
  updateTotals(state, report.total, true, outcome);
  const resolved = report.legs.map((leg) =>
    inheritFromKnown(resolveLeg(leg, config, receivedAt, state.legs), state.legs),
  );
  if (resolved.length === 0) return;
  let legs: PlannedLeg[];
  if (report.wholeItinerary || resolved.length > 1) {
    legs = resolved;
  } else {
    // Cut-off legs and their milestones go; replan sees fewer flights: a routing replan.
    legs = upsertLeg(state, resolved[0] as PlannedLeg);
  }
  replan(state, legs, config, receivedAt, outcome);
}

export function applyAwbData(
  state: ShipmentState,
  report: AwbDataReport,
  config: CarrierPlanningConfig,
  receivedAt: string,
  outcome: StepOutcome,
): void {
  const before = { origin: state.origin, destination: state.destination };
  state.origin = report.origin;
  state.destination = report.destination;
  if (report.agent) state.agent = { code: report.agent.code, cass: report.agent.cass };
  if (report.productCode) state.productCode = report.productCode;
  updateTotals(state, report.total, true, outcome);
  // FLT lines carry no schedule: they give the itinerary only while no booking has scheduled one
  // (DESIGN.md section 9, Itinerary). A re-sent FWB naming a flight from before a rebooking must
  // not replace scheduled legs with unscheduled ones.
  const scheduled = state.legs.some((l) => l.stdUtc !== null || l.staUtc !== null);
  const legs =
    report.legs.length > 0 && !scheduled
      ? report.legs.map((leg) =>
          inheritFromKnown(resolveLeg(leg, config, receivedAt, state.legs), state.legs),
        )
      : state.legs;
  // Also when only the AWB origin or destination changed: their milestones move to the new station.
  replan(state, legs, config, receivedAt, outcome, before);
  const firstFwb = state.fwbReceivedAt === null;
  state.fwbReceivedAt = earlierUtc(state.fwbReceivedAt ?? receivedAt, receivedAt);
  if (firstFwb) {
    const key = milestoneKey(state.origin, "FWB");
    outcome.events.push(
      buildMilestoneEventDraft(state, {
        name: "FWB",
        type: "Event",
        eventStatus: "Update",
        milestoneKey: key,
        station: state.origin,
        flight: null,
        pieces: null,
        weight: null,
        weightCode: null,
        reportedUtc: receivedAt,
        plannedUtc: state.planned[key]?.plannedUtc ?? null,
      }),
    );
  }
}
