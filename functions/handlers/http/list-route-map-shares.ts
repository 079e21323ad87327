/** GET /ffw/service/routemap/{awb}/share: the caller's active share links of the AWB (never the token). */
import { nowIso } from "../../adapters/clock.ts";
import { listRouteMapShares } from "../../core/use-cases/list-route-map-shares.ts";
import { awbFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, routeMaps, shareLinks } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof listRouteMapShares>, pipeline?: Pipeline) =>
  httpRoute("list-route-map-shares", { params: { awb: awbFromPath } }, pipeline).handle(
    async ({ identity, params }) => ({
      status: 200,
      body: await listRouteMapShares(deps(), { awb: params.awb, reader: identity, now: nowIso() }),
    }),
  );

export const handler = make(() => ({ routeMaps: routeMaps(), shareLinks: shareLinks() }), httpPipeline);
