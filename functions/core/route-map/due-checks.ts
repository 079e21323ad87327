/**
 * Scheduled-check support: which milestones are still awaited (one-time schedules are planned from
 * these) and recording that one became Missing. Stale schedule firings change nothing.
 */
import type { MilestoneName } from "../carrier-messages/types.ts";
import type { DomainEventDraft } from "../events.ts";
import { laterUtc, normaliseUtc } from "../time/station-time.ts";
import { missedEventDraft } from "./apply-report.ts";
import { actualsByKey, displayLegs } from "./derive.ts";
import type { ShipmentState } from "./shipment-state.ts";

export interface DueCheck {
  milestoneKey: string;
  name: MilestoneName;
  station: string;
  plannedUtc: string;
}

/** Planned milestones without an actual, in planned-time order; none for a cancelled shipment. */
export function dueChecks(state: ShipmentState): DueCheck[] {
  if (state.cancelled) return [];
  const actuals = actualsByKey(state, displayLegs(state));
  return Object.entries(state.planned)
    .filter(([key]) => !actuals.has(key))
    .map(([key, m]) => ({ milestoneKey: key, name: m.name, station: m.station, plannedUtc: m.plannedUtc }))
    .sort((a, b) =>
      a.plannedUtc === b.plannedUtc
        ? a.milestoneKey < b.milestoneKey
          ? -1
          : 1
        : a.plannedUtc < b.plannedUtc
          ? -1
          : 1,
    );
}

export interface MarkMissingResult {
  state: ShipmentState;
  changed: boolean;
  events: DomainEventDraft[];
}

/**
 * Records that a milestone became Missing and emits its Missed event — only if it is still
 * unreported, still planned at `plannedUtc` (a replan since makes the call stale) and that time has
 * passed (planned < now, as renderRouteMap judges Missing). Once per milestone and planned time.
 */
export function markMissing(
  state: ShipmentState,
  milestoneKey: string,
  plannedUtc: string,
  now: string,
): MarkMissingResult {
  const unchanged: MarkMissingResult = { state, changed: false, events: [] };
  const milestone = state.planned[milestoneKey];
  const planned = normaliseUtc(plannedUtc);
  const at = normaliseUtc(now);
  if (state.cancelled || !milestone || milestone.plannedUtc !== planned || !(planned < at)) return unchanged;
  if (actualsByKey(state, displayLegs(state)).has(milestoneKey)) return unchanged;
  const missedKey = `${milestoneKey}@${planned}`;
  if (state.missed.includes(missedKey)) return unchanged;
  const next: ShipmentState = {
    ...structuredClone(state),
    missed: [...state.missed, missedKey].sort(),
    lastUpdate: laterUtc(state.lastUpdate, at),
  };
  return { state: next, changed: true, events: [missedEventDraft(next, milestoneKey, milestone)] };
}
