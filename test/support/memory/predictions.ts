/**
 * The prediction ports in memory, with the DynamoDB adapters' semantics (counters that add up, one
 * kept prediction per AWB and horizon, scored route maps by completion time). For use-case tests and
 * the predictions benchmark.
 */
import { awbKey } from "../../../functions/core/awb.ts";
import type {
  LaneStatsStore,
  PredictionStore,
  StationSettings,
} from "../../../functions/core/ports/predictions.ts";
import type { LaneCounters } from "../../../functions/core/predictions/lane-stats.ts";
import type { HorizonPrediction, ScoredRouteMap } from "../../../functions/core/predictions/scoring.ts";

export function memoryLaneStatsStore(): LaneStatsStore & { items: Map<string, Record<string, number>> } {
  const items = new Map<string, Record<string, number>>();
  return {
    items,
    async read(keys) {
      const found = new Map<string, LaneCounters>();
      for (const key of keys) {
        const item = items.get(key);
        if (item) found.set(key, { ...item });
      }
      return found;
    },
    async add(increments) {
      for (const [key, counters] of increments) {
        const item = items.get(key) ?? {};
        for (const [attribute, amount] of counters) item[attribute] = (item[attribute] ?? 0) + amount;
        items.set(key, item);
      }
    },
  };
}

export function memoryPredictionStore(): PredictionStore & { all: ScoredRouteMap[] } {
  const kept = new Map<string, Map<string, HorizonPrediction>>();
  const all: ScoredRouteMap[] = [];
  return {
    all,
    async putHorizon(awb, prediction) {
      const byHorizon = kept.get(awbKey(awb)) ?? new Map<string, HorizonPrediction>();
      byHorizon.set(prediction.horizon, prediction);
      kept.set(awbKey(awb), byHorizon);
    },
    async horizons(awb) {
      return [...(kept.get(awbKey(awb))?.values() ?? [])];
    },
    async putScored(scored) {
      const at = all.findIndex((s) => s.awb === scored.awb);
      if (at >= 0) all.splice(at, 1, scored);
      else all.push(scored);
    },
    async scored({ ownerKey, since }) {
      return all.filter((s) => s.completedAt >= since && (ownerKey === null || s.ownerKey === ownerKey));
    },
  };
}

export function memoryStationSettings(): StationSettings & { minimums: Map<string, number> } {
  const minimums = new Map<string, number>();
  return {
    minimums,
    async minimumConnectionTimes(stations) {
      return new Map(stations.flatMap((s) => (minimums.has(s) ? [[s, minimums.get(s) ?? 0] as const] : [])));
    },
    async setMinimumConnectionTime(station, minutes) {
      minimums.set(station, minutes);
    },
  };
}
