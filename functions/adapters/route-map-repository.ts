/**
 * Route maps in DynamoDB (table RouteMaps, pk `AWB#<11 digits>`), the RouteMapRepository port in
 * parts: the items, their keys and TTLs (route-map-items.ts, which describes the table's layout),
 * the reads (route-map-reads.ts), the writes (route-map-writes.ts: one change, one transaction), the
 * byReader search (route-map-search.ts) and compression (route-map-codec.ts).
 */
import type { RouteMapRepository } from "../core/ports/route-maps.ts";
import { config } from "./config.ts";
import { routeMapReads } from "./route-map-reads.ts";
import { queryReaders } from "./route-map-search.ts";
import { routeMapWrites } from "./route-map-writes.ts";

export function dynamoRouteMapRepository(tableName = config.table("routeMaps")): RouteMapRepository {
  return {
    ...routeMapReads(tableName),
    ...routeMapWrites(tableName),
    // The search side of the byReader index lives in route-map-search.ts.
    queryReaders: (query) => queryReaders(tableName, query),
  };
}
