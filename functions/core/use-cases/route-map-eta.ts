/**
 * The ETA use cases: a route map's predictions and connections (for whoever may read the route map,
 * and support), the accuracy of scored predictions (a forwarder's own shipments; support: all), and
 * stations' minimum connection times (support).
 */
import type { AwbId } from "../carrier-messages/types.ts";
import { RouteMapNotFoundError } from "../errors.ts";
import type { ForwarderIdentity, SupportIdentity } from "../identity.ts";
import type { LaneStatsStore, PredictionStore, StationSettings } from "../ports/predictions.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import { connectionsOf } from "../predictions/connections.ts";
import { type EtaBody, etaBody } from "../predictions/eta-view.ts";
import { journeyOf } from "../predictions/journey.ts";
import { laneItemsOf } from "../predictions/lane-stats.ts";
import { predictJourney } from "../predictions/predict.ts";
import { type AccuracyRow, accuracyOf } from "../predictions/scoring.ts";
import { readableView } from "./shared/read-access.ts";

export interface RouteMapEtaDeps {
  routeMaps: Pick<RouteMapRepository, "get" | "getView">;
  laneStats: Pick<LaneStatsStore, "read">;
  stations: Pick<StationSettings, "minimumConnectionTimes">;
}

export async function getRouteMapEta(
  deps: RouteMapEtaDeps,
  input: { awb: AwbId; reader: ForwarderIdentity | SupportIdentity; now: string },
): Promise<EtaBody> {
  // Unknown and not-yours are the same 404, like the route map itself; support reads every AWB.
  if (input.reader.role === "forwarder") await readableView(deps, input.awb, input.reader);
  const record = await deps.routeMaps.get(input.awb);
  if (!record) throw new RouteMapNotFoundError(input.awb);
  const journey = journeyOf(record.state);
  const stats = await deps.laneStats.read(laneItemsOf(journey));
  const predictions = predictJourney(journey, stats, input.now);
  const transfers = record.state.legs.slice(1).map((leg) => leg.origin);
  const minimums = await deps.stations.minimumConnectionTimes(transfers);
  return etaBody(input.awb, predictions, connectionsOf(record.state, predictions, minimums), input.now);
}

/** Days of scored route maps an accuracy answer covers: all that are kept. */
export const ACCURACY_DAYS = 30;

export interface EtaAccuracyBody {
  Lane: string | null;
  /** Route maps completed at or after this instant (UTC) are counted. */
  From: string;
  RouteMaps: number;
  Items: AccuracyRow[];
}

export async function getEtaAccuracy(
  deps: { predictions: Pick<PredictionStore, "scored"> },
  input: { reader: ForwarderIdentity | SupportIdentity; lane: string | null; now: string },
): Promise<EtaAccuracyBody> {
  const from = new Date(Date.parse(input.now) - ACCURACY_DAYS * 24 * 3600_000)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z");
  const ownerKey =
    input.reader.role === "forwarder" ? `AGT#${input.reader.agentCode}#${input.reader.agentCass}` : null;
  const scored = (await deps.predictions.scored({ ownerKey, since: from })).filter(
    (s) => input.lane === null || s.lane === input.lane,
  );
  return {
    Lane: input.lane,
    From: from,
    RouteMaps: scored.length,
    Items: accuracyOf(scored.flatMap((s) => s.scores)),
  };
}

export async function setStationConnectionTime(
  deps: { stations: Pick<StationSettings, "setMinimumConnectionTime"> },
  input: { station: string; minutes: number; now: string },
): Promise<{ Station: string; MinimumConnectionMinutes: number; UpdatedAt: string }> {
  await deps.stations.setMinimumConnectionTime(input.station, input.minutes, input.now);
  return { Station: input.station, MinimumConnectionMinutes: input.minutes, UpdatedAt: input.now };
}
