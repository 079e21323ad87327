/** GET /ffw/service/routemap/{awb}/share: the caller's active share links of the AWB (never the token). */
import { nowIso } from "../../adapters/clock.ts";
import { listRouteMapShares } from "../../core/use-cases/list-route-map-shares.ts";
import { awbFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { routeMaps, shareLinks } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof listRouteMapShares>) =>
  httpRoute("list-route-map-shares", { params: { awb: awbFromPath } }).handle(
    async ({ identity, params }) => ({
      status: 200,
      body: await listRouteMapShares(deps(), { awb: params.awb, reader: identity, now: nowIso() }),
    }),
  );

export const handler = make(() => ({ routeMaps: routeMaps(), shareLinks: shareLinks() }));
