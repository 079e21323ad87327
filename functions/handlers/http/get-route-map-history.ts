/** GET /ffw/service/routemap/{awb}/history: the route map and its unexpired snapshots, newest first. */
import { nowIso } from "../../adapters/clock.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import { getRouteMapHistory } from "../../core/use-cases/get-route-map-history.ts";
import { httpHandler } from "./kit.ts";
import { asForwarder, awbFromPath, mapped } from "./route-map-problems.ts";

const deps = { routeMaps: dynamoRouteMapRepository() };

export const handler = httpHandler("get-route-map-history", {}, async ({ identity, params }) => {
  const reader = asForwarder(identity);
  const awb = awbFromPath(params.awb);
  const rawJson = await mapped(() => getRouteMapHistory(deps, { awb, reader, now: nowIso() }));
  return { status: 200, rawJson };
});
