/**
 * GET /ffw/service/routemap/{awb}/share: the caller's active share links of a route map it may read
 * (else 404), oldest first. Never the token (only its hash is stored anyway).
 */
import type { ShareListItem } from "../../contracts/api-bodies.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import type { ShareLinkRepository } from "../ports/share-links.ts";
import { isActive } from "../route-map/share-links.ts";
import { readableView } from "./shared/read-access.ts";

export async function listRouteMapShares(
  deps: { routeMaps: Pick<RouteMapRepository, "getView">; shareLinks: ShareLinkRepository },
  input: { awb: AwbId; reader: ForwarderIdentity; now: string },
): Promise<{ Items: ShareListItem[] }> {
  await readableView(deps, input.awb, input.reader);
  const links = await deps.shareLinks.listFor(input.reader.forwarderId, input.awb);
  const items = links
    .filter((link) => isActive(link, input.now))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((link) => ({ Id: link.id, ExpiresAt: link.expiresAt, CreatedAt: link.createdAt }));
  return { Items: items };
}
