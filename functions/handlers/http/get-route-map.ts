/** GET /ffw/service/routemap/{awb}: the route map, for its owner or an XTD reader (else 404). */
import { nowIso } from "../../adapters/clock.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import { type GetRouteMapDeps, getRouteMap } from "../../core/use-cases/get-route-map.ts";
import { httpHandler } from "./kit.ts";
import { asForwarder, awbFromPath, mapped } from "./route-map-problems.ts";

/** Built with its dependencies so the benchmark can run the real handler over the memory adapter. */
export function createHandler(deps: GetRouteMapDeps) {
  return httpHandler("get-route-map", {}, async ({ identity, params }) => {
    const reader = asForwarder(identity);
    const awb = awbFromPath(params.awb);
    // Usually the JSON stored at write time, passed through without parse/stringify.
    const rawJson = await mapped(() => getRouteMap(deps, { awb, reader, now: nowIso() }));
    return { status: 200, rawJson };
  });
}

export const handler = createHandler({ routeMaps: dynamoRouteMapRepository() });
