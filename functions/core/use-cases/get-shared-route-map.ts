/**
 * GET /shared/routemap/{token} (public): the route map of the one AWB a share link names, while the
 * link is active and its creator may still read the AWB, without anything identifying a party. Unknown,
 * revoked, expired and no-longer-readable links are all the same 404.
 */
import { ShareLinkNotFoundError } from "../errors.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import type { ShareLinkRepository } from "../ports/share-links.ts";
import { isActive, sharedRouteMapJson } from "../route-map/share-links.ts";
import { currentRouteMapJson, mayRead } from "./shared/read-access.ts";

export async function getSharedRouteMap(
  deps: { routeMaps: Pick<RouteMapRepository, "getView" | "get">; shareLinks: ShareLinkRepository },
  input: { token: string; now: string },
): Promise<string> {
  const link = await deps.shareLinks.findByToken(input.token);
  if (!link || !isActive(link, input.now)) throw new ShareLinkNotFoundError();
  const view = await deps.routeMaps.getView(link.awb);
  if (!view || !mayRead(view, { role: "forwarder", agentStation: null, ...link.owner }))
    throw new ShareLinkNotFoundError();
  return sharedRouteMapJson(await currentRouteMapJson(view, input.now, () => deps.routeMaps.get(link.awb)));
}
