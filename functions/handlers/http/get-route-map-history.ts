/**
 * GET /ffw/service/routemap/{awb}/history?CurrentPage=&PageSize=: the route map and one page of its
 * unexpired snapshots, newest first (the spec's shape; the paging figures are response headers).
 */
import { nowIso } from "../../adapters/clock.ts";
import {
  type GetRouteMapHistoryDeps,
  getRouteMapHistory,
} from "../../core/use-cases/get-route-map-history.ts";
import { awbFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ROUTE_MAP_ROUTES } from "../../http/routes/route-maps.ts";
import { httpPipeline, routeMaps } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = ROUTE_MAP_ROUTES["get-route-map-history"];

export const make = (deps: () => GetRouteMapHistoryDeps, pipeline?: Pipeline) =>
  httpRoute("get-route-map-history", { params: { awb: awbFromPath }, query: api.query }, pipeline).handle(
    async ({ identity, params, query }) => {
      const history = await getRouteMapHistory(deps(), {
        awb: params.awb,
        reader: identity,
        now: nowIso(),
        ...query,
      });
      return {
        status: 200,
        rawJson: history.json,
        headers: {
          "x-total-items": String(history.totalItems),
          "x-total-pages": String(history.totalPages),
          "x-current-page": String(history.currentPage),
          "x-page-size": String(history.pageSize),
        },
      };
    },
  );

export const handler = make(() => ({ routeMaps: routeMaps() }), httpPipeline);
