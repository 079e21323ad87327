/**
 * Scheduled-check support: which milestones are still awaited (one-time schedules are planned from
 * these) and recording that one became Missing. Stale schedule firings change nothing.
 */
import type { MilestoneName } from "../carrier-messages/types.ts";
import type { DomainEventDraft } from "../events.ts";
import { addMinutes, formatUtc, laterUtc, normaliseUtc, parseUtc } from "../time/station-time.ts";
import { actualsByKey, displayLegs } from "./derive.ts";
import { missedEventDraft } from "./missed-milestones.ts";
import type { PlannedMilestone, ShipmentState } from "./shipment-state.ts";

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

/** "missing": the milestone's planned time passed; "proactive": its planned time + N minutes passed. */
export type DueCheckKind = "missing" | "proactive";

/**
 * What one scheduled check carries (the schedule's Input, the due-checks queue message). It names the
 * plan it was made for: after a replan moved the milestone, `plannedUtc` no longer matches and the
 * check changes nothing.
 */
export interface DueCheckInput {
  /** AWB, 11 digits. */
  awb: string;
  milestoneKey: string;
  /** UTC "…Z" as planned when the check was scheduled. */
  plannedUtc: string;
  check: DueCheckKind;
  /** ProActiveTime in minutes (proactive checks only). */
  minutes?: number;
}

/** markMissing needs planned < now strictly: the missing check fires one second after planned. */
export function missingCheckAt(plannedUtc: string): string {
  return formatUtc(parseUtc(plannedUtc) + 1000);
}

/** A proactive check fires ProActiveTime minutes after the planned time. */
export function proActiveCheckAt(plannedUtc: string, minutes: number): string {
  return addMinutes(plannedUtc, minutes);
}

/** When a check may do its work (earlier it is early, not stale). */
export function checkDueAt(input: Pick<DueCheckInput, "plannedUtc" | "check" | "minutes">): string {
  return input.check === "missing"
    ? missingCheckAt(input.plannedUtc)
    : proActiveCheckAt(input.plannedUtc, input.minutes ?? 0);
}

/** The milestone is still planned at `plannedUtc` and nothing reported it (cancelled: never awaited). */
export function isAwaited(state: ShipmentState, milestoneKey: string, plannedUtc: string): boolean {
  const milestone = state.planned[milestoneKey];
  if (state.cancelled || !milestone || milestone.plannedUtc !== normaliseUtc(plannedUtc)) return false;
  return !actualsByKey(state, displayLegs(state)).has(milestoneKey);
}

/**
 * A ProActive event: the Missed event's payload (planned filled, nothing reported) with Type
 * ProActive, carrying the interval so only rules with that ProActiveTime match (MatchableEvent).
 */
export type ProActiveEventDraft = DomainEventDraft & { proActiveMinutes: number };

function proActiveEventDraft(
  state: ShipmentState,
  milestoneKey: string,
  milestone: PlannedMilestone,
  minutes: number,
): ProActiveEventDraft {
  return {
    ...missedEventDraft(state, milestoneKey, milestone),
    type: "ProActive",
    proActiveMinutes: minutes,
  };
}

export const proActiveKey = (milestoneKey: string, plannedUtc: string, minutes: number) =>
  `${milestoneKey}@${normaliseUtc(plannedUtc)}+${minutes}`;

export interface MarkProActiveResult {
  state: ShipmentState;
  changed: boolean;
  events: ProActiveEventDraft[];
}

/**
 * Records that a milestone was still unreported `minutes` after its planned time and emits its
 * ProActive event — only if it is still planned at `plannedUtc`, still unreported (a late report,
 * Ko, before now silences it), and planned + minutes has been reached. Once per (milestone, planned
 * time, minutes): a repeated check changes nothing. The route map itself does not change.
 */
export function markProActive(
  state: ShipmentState,
  milestoneKey: string,
  plannedUtc: string,
  minutes: number,
  now: string,
): MarkProActiveResult {
  const unchanged: MarkProActiveResult = { state, changed: false, events: [] };
  const milestone = state.planned[milestoneKey];
  if (!milestone || !Number.isInteger(minutes) || minutes <= 0) return unchanged;
  if (!isAwaited(state, milestoneKey, plannedUtc)) return unchanged;
  if (normaliseUtc(now) < proActiveCheckAt(milestone.plannedUtc, minutes)) return unchanged;
  const key = proActiveKey(milestoneKey, milestone.plannedUtc, minutes);
  const raised = state.proActive ?? [];
  if (raised.includes(key)) return unchanged;
  const next: ShipmentState = { ...structuredClone(state), proActive: [...raised, key].sort() };
  return {
    state: next,
    changed: true,
    events: [proActiveEventDraft(next, milestoneKey, milestone, minutes)],
  };
}
