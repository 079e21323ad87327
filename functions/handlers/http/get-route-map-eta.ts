/** GET /ffw/service/routemap/{awb}/eta: predicted times and connections (route-map readers, support). */
import { nowIso } from "../../adapters/clock.ts";
import { getRouteMapEta, type RouteMapEtaDeps } from "../../core/use-cases/route-map-eta.ts";
import { awbFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, laneStats, routeMaps, stationSettings } from "../../wiring.ts";

export const make = (deps: () => RouteMapEtaDeps, pipeline?: Pipeline) =>
  httpRoute("get-route-map-eta", { params: { awb: awbFromPath } }, pipeline).handle(
    async ({ identity, params }) => ({
      status: 200,
      body: await getRouteMapEta(deps(), { awb: params.awb, reader: identity, now: nowIso() }),
    }),
  );

export const handler = make(
  () => ({ routeMaps: routeMaps(), laneStats: laneStats(), stations: stationSettings() }),
  httpPipeline,
);
