/**
 * POST /ffw/service/routemap?CurrentPage=&PageSize=: search the caller's route maps (body: filters,
 * Sort, Cursor). Served from the byReader index (functions/core/use-cases/search-route-maps.ts: the
 * paging and its limits).
 */
import { nowIso } from "../../adapters/clock.ts";
import { type SearchRouteMapsDeps, searchRouteMaps } from "../../core/use-cases/search-route-maps.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { searchOf } from "../../http/request-mapping.ts";
import { ROUTE_MAP_ROUTES } from "../../http/routes/route-maps.ts";
import { httpPipeline, routeMapSearch, routeMaps } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = ROUTE_MAP_ROUTES["search-route-maps"];

export const make = (deps: () => SearchRouteMapsDeps, pipeline?: Pipeline) =>
  httpRoute("search-route-maps", { body: api.body.schema, query: api.query }, pipeline).handle(
    async ({ identity, body, query }) => ({
      status: 200,
      rawJson: await searchRouteMaps(deps(), { reader: identity, ...searchOf(body, query), now: nowIso() }),
    }),
  );

export const handler = make(() => ({ routeMaps: routeMaps(), search: routeMapSearch() }), httpPipeline);
