/**
 * GET /shared/routemap/{token}/link (public): who shared the route map of this link and until when.
 * Malformed, unknown, revoked and expired tokens: the same 404 as the route map's.
 */
import { nowIso } from "../../adapters/clock.ts";
import { getSharedLink } from "../../core/use-cases/get-shared-link.ts";
import { shareTokenFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { routeMaps, shareLinks, tenants } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof getSharedLink>) =>
  httpRoute("get-shared-link", { params: { token: shareTokenFromPath } }).handle(async ({ params }) => {
    const link = await getSharedLink(deps(), { token: params.token, now: nowIso() });
    return {
      status: 200,
      body: { SharedBy: link.sharedBy, ExpiresAt: link.expiresAt },
      // The token is in the URL: no caching, and no Referer carrying it to other sites.
      headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" },
    };
  });

export const handler = make(() => ({ routeMaps: routeMaps(), shareLinks: shareLinks(), tenants: tenants() }));
