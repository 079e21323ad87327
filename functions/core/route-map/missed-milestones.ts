/**
 * Milestones that became Missing: those already overdue when a plan is made or a replan creates or
 * moves them (recorded at once), and the Missed event of one (also what a scheduled check raises).
 */
import type { DomainEventDraft } from "../events.ts";
import { actualsByKey, displayLegs } from "./derive.ts";
import { buildMilestoneEventDraft } from "./event-drafts.ts";
import type { PlannedMilestone, ShipmentState } from "./shipment-state.ts";

/**
 * Milestones already overdue when a plan is made, or when a replan creates or moves them, become
 * Missing at that moment (DESIGN.md section 9, Alerts): recorded once per planned time, so a later
 * markMissing for it changes nothing. `onlyKeys` null = every planned milestone (first plan).
 */
export function recordOverdue(
  state: ShipmentState,
  receivedAt: string,
  onlyKeys: readonly string[] | null,
): DomainEventDraft[] {
  if (state.cancelled) return [];
  const actuals = actualsByKey(state, displayLegs(state));
  const events: DomainEventDraft[] = [];
  for (const [key, milestone] of Object.entries(state.planned)) {
    if (onlyKeys && !onlyKeys.includes(key)) continue;
    if (actuals.has(key) || milestone.plannedUtc >= receivedAt) continue;
    const missedKey = `${key}@${milestone.plannedUtc}`;
    if (state.missed.includes(missedKey)) continue;
    state.missed = [...state.missed, missedKey].sort();
    events.push(missedEventDraft(state, key, milestone));
  }
  return events;
}

/** The Missed event of a milestone that became Missing (scheduled check or plan made too late). */
export function missedEventDraft(
  state: ShipmentState,
  key: string,
  milestone: PlannedMilestone,
): DomainEventDraft {
  const legs = displayLegs(state);
  const legStation = key.slice(0, key.indexOf(":"));
  const routing = milestone.name === "DEP" || milestone.name === "ARR" || milestone.name === "RCF";
  const leg = routing ? legs.find((l) => l.origin === legStation) : undefined;
  return buildMilestoneEventDraft(state, {
    name: milestone.name,
    type: "Missed",
    eventStatus: "Update",
    milestoneKey: key,
    station: milestone.station,
    flight: leg ? { carrierCode: leg.carrierCode, flightNumber: leg.flightNumber } : null,
    pieces: null,
    weight: null,
    weightCode: null,
    reportedUtc: null,
    plannedUtc: milestone.plannedUtc,
  });
}
