/**
 * GET /shared/routemap/{token} (public: the Url of a share link): the route map of that one AWB without
 * anything naming a party. Malformed, unknown, revoked and expired tokens: the same 404. The HTML page
 * for people comes with the web app; this answers the JSON it reads.
 */
import { nowIso } from "../../adapters/clock.ts";
import { getSharedRouteMap } from "../../core/use-cases/get-shared-route-map.ts";
import { shareTokenFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { routeMaps, shareLinks } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof getSharedRouteMap>) =>
  httpRoute("get-shared-route-map", { params: { token: shareTokenFromPath } }).handle(async ({ params }) => ({
    status: 200,
    rawJson: await getSharedRouteMap(deps(), { token: params.token, now: nowIso() }),
    // The token is in the URL: no caching, and no Referer carrying it to other sites.
    headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" },
  }));

export const handler = make(() => ({ routeMaps: routeMaps(), shareLinks: shareLinks() }));
