/**
 * GET /shared/routemap/{token}/link (public): who shared the route map of a live share link and until
 * when, so the page a recipient opens says it ("Shared by Acme Cargo GmbH · until 14 Mar 15:00 UTC").
 * The route map itself names no party; this is the one thing the sharer tells about itself. A link
 * that does not answer its route map (unknown, revoked, expired, creator no longer a reader) is the
 * same 404 here.
 */
import { ShareLinkNotFoundError } from "../errors.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import type { ShareLinkRepository } from "../ports/share-links.ts";
import type { TenantRepository } from "../ports/tenants.ts";
import { isActive } from "../route-map/share-links.ts";
import { mayRead } from "./shared/read-access.ts";

export interface SharedLinkView {
  /** The forwarder's Name, else its ForwarderIdentifier (onboarded without a name). */
  sharedBy: string;
  expiresAt: string;
}

export async function getSharedLink(
  deps: {
    routeMaps: Pick<RouteMapRepository, "getView">;
    shareLinks: ShareLinkRepository;
    tenants: Pick<TenantRepository, "getTenant">;
  },
  input: { token: string; now: string },
): Promise<SharedLinkView> {
  const link = await deps.shareLinks.findByToken(input.token);
  if (!link || !isActive(link, input.now)) throw new ShareLinkNotFoundError();
  const view = await deps.routeMaps.getView(link.awb);
  if (!view || !mayRead(view, { role: "forwarder", agentStation: null, ...link.owner }))
    throw new ShareLinkNotFoundError();
  const tenant = await deps.tenants.getTenant({ kind: "forwarder", forwarderId: link.owner.forwarderId });
  const name = tenant?.kind === "forwarder" ? tenant.name : null;
  return { sharedBy: name || link.owner.forwarderId, expiresAt: link.expiresAt };
}
