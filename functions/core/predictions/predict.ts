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

/** Where a milestone not reported yet will be: `base` plus a distribution of minutes. */
interface Reach {
  base: string;
  points: Points;
}

/**
 * One pass down the journey: a milestone not reported yet is the milestone it follows (reported: its
 * time; else its own reach, given that it has not happened by `now`) plus the plan's gap plus its own
 * step. A reported delay thereby moves everything after it, and an overdue milestone pushes its
 * successors as far as it is overdue.
 */
function reachesOf(
  journey: readonly JourneyMilestone[],
  steps: ReadonlyMap<number, { points: Points; basis: StepBasis }>,
  now: string,
): Array<Reach | null> {
  const reaches: Array<Reach | null> = [];
  journey.forEach((m, i) => {
    const step = steps.get(i);
    if (m.actualUtc !== null || m.plannedUtc === null || !step) {
      reaches.push(null);
      return;
    }
    let reach: Reach | null = null;
    if (m.after === null) reach = { base: m.plannedUtc, points: step.points };
    else {
      const before = journey[m.after];
      const gap = before?.plannedUtc ? minutesBetween(before.plannedUtc, m.plannedUtc) : null;
      if (before && gap !== null && before.actualUtc !== null) {
        reach = { base: addMinutes(before.actualUtc, gap), points: step.points };
      } else if (before && gap !== null) {
        const earlier = reaches[m.after];
        if (earlier) {
          reach = {
            base: addMinutes(earlier.base, gap),
            points: addIndependent(earlier.points, step.points),
          };
        }
      }
    }
    // Not reported by now: it has not happened by now.
    reaches.push(
      reach && { base: reach.base, points: atLeast(reach.points, minutesBetween(reach.base, now)) },
    );
  });
  return reaches;
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
  const reaches = reachesOf(journey, steps, now);
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
    const reach = reaches[i] ?? null;
    return {
      ...common,
      p50Utc: reach ? roundToMinute(addMinutes(reach.base, quantile(reach.points, 0.5))) : null,
      p90Utc: reach ? roundToMinute(addMinutes(reach.base, quantile(reach.points, 0.9))) : null,
      method: basis.samples > 0 ? "lane" : "plan",
      lane: basis.lane,
      samples: basis.samples,
    };
  });
}

export function predictRouteMap(state: ShipmentState, stats: LaneStats, now: string): MilestonePrediction[] {
  return predictJourney(journeyOf(state), stats, now);
}
