/** GET /ffw/service/routemap/{awb}: the route map, for its owner or an XTD reader (else 404). */
import { nowIso } from "../../adapters/clock.ts";
import { type GetRouteMapDeps, getRouteMap } from "../../core/use-cases/get-route-map.ts";
import { awbFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, routeMaps } from "../../wiring.ts";

export const make = (deps: () => GetRouteMapDeps, pipeline?: Pipeline) =>
  httpRoute("get-route-map", { params: { awb: awbFromPath } }, pipeline).handle(
    async ({ identity, params }) => ({
      status: 200,
      // Usually the JSON stored at write time, passed through without parse/stringify.
      rawJson: await getRouteMap(deps(), { awb: params.awb, reader: identity, now: nowIso() }),
    }),
  );

export const handler = make(() => ({ routeMaps: routeMaps() }), httpPipeline);
