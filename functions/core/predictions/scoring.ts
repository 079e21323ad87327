/**
 * Scored predictions: what was predicted at three moments of a journey (its booking, its first
 * departure, its last arrival), kept until the route map completes (DLV), then compared with what
 * happened, beside the plan alone; and the accuracy of many such journeys, per milestone and moment.
 */
import type { ShipmentState } from "../route-map/shipment-state.ts";
import { type JourneyMilestone, journeyOf, minutesBetween, type PredictedMilestoneName } from "./journey.ts";
import type { MilestonePrediction } from "./predict.ts";

export const HORIZONS = ["Booking", "FirstDeparture", "LastArrival"] as const;
export type Horizon = (typeof HORIZONS)[number];

/** The predictions made at one horizon: only the compact fields a score needs. */
export interface HorizonPrediction {
  horizon: Horizon;
  madeAt: string;
  /** By milestone key: P50 and P90 (UTC), the plan at that time. */
  milestones: Record<string, { name: PredictedMilestoneName; p50: string; p90: string; planned: string }>;
}

/** One milestone's outcome at one horizon. */
export interface ScoredMilestone {
  horizon: Horizon;
  name: PredictedMilestoneName;
  errorMinutes: number;
  covered: boolean;
  planErrorMinutes: number;
  planCovered: boolean;
}

/** A completed route map's scores, kept 30 days like its history. */
export interface ScoredRouteMap {
  awb: string;
  /** `AGT#<code>#<cass>` of the owner, null when no FWB named one. */
  ownerKey: string | null;
  /** The shipment's lane ("020 FRA-JFK"). */
  lane: string;
  completedAt: string;
  scores: ScoredMilestone[];
}

function isReported(
  journey: readonly JourneyMilestone[],
  pick: (j: readonly JourneyMilestone[]) => JourneyMilestone | undefined,
) {
  return (pick(journey)?.actualUtc ?? null) !== null;
}
const firstDep = (j: readonly JourneyMilestone[]) => j.find((m) => m.name === "DEP");
const lastArr = (j: readonly JourneyMilestone[]) => j.filter((m) => m.name === "ARR").at(-1);
const delivery = (j: readonly JourneyMilestone[]) => j.find((m) => m.name === "DLV");

/** Horizons this change reached (a booked journey's first plan; its first DEP; its last ARR). */
export function reachedHorizons(previous: ShipmentState | null, next: ShipmentState): Horizon[] {
  const before = previous ? journeyOf(previous) : [];
  const after = journeyOf(next);
  if (after.length === 0) return [];
  const reached: Horizon[] = [];
  if (before.length === 0) reached.push("Booking");
  if (isReported(after, firstDep) && !isReported(before, firstDep)) reached.push("FirstDeparture");
  if (isReported(after, lastArr) && !isReported(before, lastArr)) reached.push("LastArrival");
  return reached;
}

/** The change reported the delivery: the journey is complete, its lateness can be learnt and scored. */
export function completedBy(previous: ShipmentState | null, next: ShipmentState): boolean {
  return isReported(journeyOf(next), delivery) && !(previous && isReported(journeyOf(previous), delivery));
}

export function horizonPrediction(
  horizon: Horizon,
  madeAt: string,
  predictions: readonly MilestonePrediction[],
): HorizonPrediction {
  const milestones: HorizonPrediction["milestones"] = {};
  for (const p of predictions) {
    if (p.p50Utc === null || p.p90Utc === null || p.plannedUtc === null) continue;
    milestones[p.key] = { name: p.name, p50: p.p50Utc, p90: p.p90Utc, planned: p.plannedUtc };
  }
  return { horizon, madeAt, milestones };
}

/** Each prediction kept for the journey against the actual reported since. */
export function scoreJourney(
  journey: readonly JourneyMilestone[],
  made: readonly HorizonPrediction[],
): ScoredMilestone[] {
  const scores: ScoredMilestone[] = [];
  for (const prediction of made) {
    for (const [key, p] of Object.entries(prediction.milestones)) {
      const actual = journey.find((m) => m.key === key)?.actualUtc ?? null;
      if (actual === null) continue;
      scores.push({
        horizon: prediction.horizon,
        name: p.name,
        errorMinutes: Math.round(Math.abs(minutesBetween(p.p50, actual))),
        covered: actual <= p.p90,
        planErrorMinutes: Math.round(Math.abs(minutesBetween(p.planned, actual))),
        planCovered: actual <= p.planned,
      });
    }
  }
  return scores;
}

export interface AccuracyFigures {
  Count: number;
  MedianAbsoluteErrorMinutes: number | null;
  P90AbsoluteErrorMinutes: number | null;
  /** Share of actuals at or before the P90 time (the plan's: at or before the plan). */
  Coverage: number | null;
}

export interface AccuracyRow {
  Milestone: PredictedMilestoneName;
  Horizon: Horizon;
  Service: AccuracyFigures;
  Plan: AccuracyFigures;
}

function rank(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? null;
}

function figuresOf(errors: readonly number[], covered: readonly boolean[]): AccuracyFigures {
  return {
    Count: errors.length,
    MedianAbsoluteErrorMinutes: rank(errors, 0.5),
    P90AbsoluteErrorMinutes: rank(errors, 0.9),
    Coverage:
      covered.length === 0
        ? null
        : Math.round((covered.filter(Boolean).length / covered.length) * 1000) / 1000,
  };
}

const MILESTONE_ORDER: readonly PredictedMilestoneName[] = ["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"];

/** Accuracy per milestone and horizon over scored milestones, the plan alone beside it. */
export function accuracyOf(scores: readonly ScoredMilestone[]): AccuracyRow[] {
  const rows: AccuracyRow[] = [];
  for (const name of MILESTONE_ORDER) {
    for (const horizon of HORIZONS) {
      const group = scores.filter((s) => s.name === name && s.horizon === horizon);
      if (group.length === 0) continue;
      rows.push({
        Milestone: name,
        Horizon: horizon,
        Service: figuresOf(
          group.map((s) => s.errorMinutes),
          group.map((s) => s.covered),
        ),
        Plan: figuresOf(
          group.map((s) => s.planErrorMinutes),
          group.map((s) => s.planCovered),
        ),
      });
    }
  }
  return rows;
}
