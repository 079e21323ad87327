/**
 * What predictions learn from a route map's change, after ingest stored it: at a horizon (booking,
 * first DEP, last ARR) the predictions made then are kept; when the delivery completes the journey,
 * its lateness is added to the lane statistics and the kept predictions are scored. Nothing is
 * written for any other change, which keeps the write cost per status message low.
 */
import { awbKey } from "../awb.ts";
import type { LaneStatsStore, PredictionStore } from "../ports/predictions.ts";
import type { RouteMapRecord } from "../ports/route-maps.ts";
import { journeyOf } from "../predictions/journey.ts";
import { laneItemsOf, learnJourney } from "../predictions/lane-stats.ts";
import { predictJourney } from "../predictions/predict.ts";
import { completedBy, horizonPrediction, reachedHorizons, scoreJourney } from "../predictions/scoring.ts";

export interface ObserveRouteMapChangeDeps {
  laneStats: LaneStatsStore;
  predictions: PredictionStore;
  /** false: predictions are kept and scored but nothing is learnt (a benchmark's test period). */
  learn?: boolean;
}

export async function observeRouteMapChange(
  deps: ObserveRouteMapChangeDeps,
  input: { previous: RouteMapRecord | null; next: RouteMapRecord; now: string },
): Promise<void> {
  const previous = input.previous?.state ?? null;
  const next = input.next.state;
  const horizons = reachedHorizons(previous, next);
  const completed = completedBy(previous, next);
  if (horizons.length === 0 && !completed) return;
  const journey = journeyOf(next);
  if (horizons.length > 0) {
    const stats = await deps.laneStats.read(laneItemsOf(journey));
    const predictions = predictJourney(journey, stats, input.now);
    for (const horizon of horizons) {
      await deps.predictions.putHorizon(next.awb, horizonPrediction(horizon, input.now, predictions));
    }
  }
  if (completed) {
    if (deps.learn !== false) await deps.laneStats.add(learnJourney(journey));
    const made = await deps.predictions.horizons(next.awb);
    const owner = input.next.ownerAgent;
    await deps.predictions.putScored({
      awb: awbKey(next.awb),
      ownerKey: owner ? `AGT#${owner.code}#${owner.cass}` : null,
      lane: `${next.awb.prefix} ${next.origin}-${next.destination}`,
      completedAt: input.now,
      scores: scoreJourney(journey, made),
    });
  }
}
