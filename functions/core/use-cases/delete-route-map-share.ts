/**
 * DELETE /ffw/service/routemap/{awb}/share/{id}: revokes one of the caller's share links at once;
 * unknown, already revoked or another forwarder's: 404.
 */
import type { AwbId } from "../carrier-messages/types.ts";
import { ShareLinkNotFoundError } from "../errors.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { ShareLinkRepository } from "../ports/share-links.ts";

export async function deleteRouteMapShare(
  deps: { shareLinks: ShareLinkRepository },
  input: { awb: AwbId; owner: ForwarderIdentity; id: string },
): Promise<void> {
  if (!(await deps.shareLinks.revoke(input.owner.forwarderId, input.awb, input.id)))
    throw new ShareLinkNotFoundError();
}
