/**
 * P50/P90 times of every milestone not reported yet, from lane statistics, at a given instant (the
 * caller's `now`: a milestone not reported by then has not happened by then). A milestone's time is
 * the reported milestone it follows from (or its own plan), plus the plan's gap, plus the lateness
 * each step in between adds, the steps taken as independent.
 */

import type { ShipmentState } from "../route-map/shipment-state.ts";
import { addMinutes } from "../time/station-time.ts";
import { type JourneyMilestone, journeyOf, minutesBetween, type PredictedMilestoneName } from "./journey.ts";
import { type LaneStats, type StepBasis, stepDistribution } from "./lane-stats.ts";
import { addIndependent, atLeast, type Points, quantile } from "./lateness.ts";

export type PredictionMethod = "actual" | "lane" | "plan";

export interface MilestonePrediction {
  key: string;
  name: PredictedMilestoneName;
  station: string;
  flight: string | null;
  legIndex: number | null;
  plannedUtc: string | null;
  actualUtc: string | null;
  /** null once reported, or without the plans to predict from. */
  p50Utc: string | null;
  p90Utc: string | null;
  method: PredictionMethod;
  lane: string | null;
  samples: number;
}

const roundToMinute = (iso: string) => addMinutes(iso, 0).replace(/:\d{2}Z$/, ":00Z");

function predictOne(
  journey: readonly JourneyMilestone[],
  index: number,
  steps: ReadonlyMap<number, { points: Points; basis: StepBasis }>,
  now: string,
): { p50Utc: string; p90Utc: string } | null {
  const target = journey[index];
  if (!target || target.plannedUtc === null) return null;
  let points: Points | null = null;
  let base = target.plannedUtc;
  let at: JourneyMilestone = target;
  for (;;) {
    const step = steps.get(journey.indexOf(at));
    if (!step) return null;
    points = points === null ? step.points : addIndependent(points, step.points);
    if (at.after === null) break;
    const before = journey[at.after];
    if (!before || before.plannedUtc === null) return null;
    if (before.actualUtc !== null) {
      base = addMinutes(before.actualUtc, minutesBetween(before.plannedUtc, target.plannedUtc));
      break;
    }
    at = before;
  }
  const given = atLeast(points, minutesBetween(base, now));
  return {
    p50Utc: roundToMinute(addMinutes(base, quantile(given, 0.5))),
    p90Utc: roundToMinute(addMinutes(base, quantile(given, 0.9))),
  };
}

/** Predictions of every milestone of the journey (reported ones carry their actual, method "actual"). */
export function predictJourney(
  journey: readonly JourneyMilestone[],
  stats: LaneStats,
  now: string,
): MilestonePrediction[] {
  const steps = new Map<number, { points: Points; basis: StepBasis }>();
  journey.forEach((m, i) => {
    steps.set(i, stepDistribution(m, stats));
  });
  return journey.map((m, i) => {
    const basis = steps.get(i)?.basis ?? { lane: null, samples: 0 };
    const common = {
      key: m.key,
      name: m.name,
      station: m.station,
      flight: m.flight,
      legIndex: m.legIndex,
      plannedUtc: m.plannedUtc,
      actualUtc: m.actualUtc,
    };
    if (m.actualUtc !== null) {
      return { ...common, p50Utc: null, p90Utc: null, method: "actual", lane: null, samples: 0 };
    }
    const predicted = predictOne(journey, i, steps, now);
    return {
      ...common,
      p50Utc: predicted?.p50Utc ?? null,
      p90Utc: predicted?.p90Utc ?? null,
      method: basis.samples > 0 ? "lane" : "plan",
      lane: basis.lane,
      samples: basis.samples,
    };
  });
}

export function predictRouteMap(state: ShipmentState, stats: LaneStats, now: string): MilestonePrediction[] {
  return predictJourney(journeyOf(state), stats, now);
}
