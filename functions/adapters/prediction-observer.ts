/**
 * The route-map change observer the ingest handlers are wired with: predictions keep, learn and score
 * from every stored change. A failure here never refuses or undoes the carrier's message (it is
 * stored already): it is logged as an error and counted (PredictionErrors), and the next change of
 * the route map predicts again from what is stored.
 */
import { METRIC_NAMES } from "../contracts/metrics.ts";
import type { LaneStatsStore, PredictionStore } from "../core/ports/predictions.ts";
import type { RouteMapChangeObserver } from "../core/use-cases/ingest-carrier-message.ts";
import { observeRouteMapChange } from "../core/use-cases/observe-route-map-change.ts";
import { logger } from "./logger.ts";
import { emfMetrics, type MetricsRecorder } from "./metrics.ts";

export function predictionObserver(
  deps: { laneStats: LaneStatsStore; predictions: PredictionStore },
  metrics: MetricsRecorder = emfMetrics,
): RouteMapChangeObserver {
  return {
    observe: (change) => observeRouteMapChange(deps, change),
    failed(error) {
      logger.error("route-map change not observed by predictions: the message is stored", {
        error: error instanceof Error ? error : String(error),
      });
      metrics([{ name: METRIC_NAMES.predictionErrors, value: 1 }]);
    },
  };
}
