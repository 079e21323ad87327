/** GET /ffw/service/routemap/{awb}/history: the route map and its unexpired snapshots, newest first. */
import { nowIso } from "../../adapters/clock.ts";
import {
  type GetRouteMapHistoryDeps,
  getRouteMapHistory,
} from "../../core/use-cases/get-route-map-history.ts";
import { awbFromPath } from "../../http/params.ts";
import { httpRoute } from "../../http/pipeline.ts";
import { routeMaps } from "../../wiring.ts";

export const make = (deps: () => GetRouteMapHistoryDeps) =>
  httpRoute("get-route-map-history", { params: { awb: awbFromPath } }).handle(
    async ({ identity, params }) => ({
      status: 200,
      rawJson: await getRouteMapHistory(deps(), { awb: params.awb, reader: identity, now: nowIso() }),
    }),
  );

export const handler = make(() => ({ routeMaps: routeMaps() }));
