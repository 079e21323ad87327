/**
 * Ports of the predictions: lane statistics (counters that only add up), the predictions kept per
 * horizon until a route map completes, the scored route maps, and stations' minimum connection times.
 */
import type { AwbId } from "../carrier-messages/types.ts";
import type { LaneIncrements, LaneStats } from "../predictions/lane-stats.ts";
import type { HorizonPrediction, ScoredRouteMap } from "../predictions/scoring.ts";

export interface LaneStatsStore {
  /** The items asked for (absent ones are left out: no samples yet). */
  read(items: readonly string[]): Promise<LaneStats>;
  /** Adds the increments, one atomic addition per item. */
  add(increments: LaneIncrements): Promise<void>;
}

export interface PredictionStore {
  /** Keeps one horizon's predictions of an AWB (a repeat of the horizon overwrites it). */
  putHorizon(awb: AwbId, prediction: HorizonPrediction): Promise<void>;
  horizons(awb: AwbId): Promise<HorizonPrediction[]>;
  putScored(scored: ScoredRouteMap): Promise<void>;
  /** Scored route maps completed at or after `since`; `ownerKey` null = everyone's. */
  scored(query: { ownerKey: string | null; since: string }): Promise<ScoredRouteMap[]>;
}

export interface StationSettings {
  /** Minimum connection minutes of the stations asked for (stations support set nothing for are left out). */
  minimumConnectionTimes(stations: readonly string[]): Promise<ReadonlyMap<string, number>>;
  setMinimumConnectionTime(station: string, minutes: number, now: string): Promise<void>;
}
