/**
 * POST /ffw/service/routemap/{awb}/share: a share link of a route map the caller may read (else the
 * same 404 as GET route map). The token (random, from an adapter) is in the answer only; the store
 * keeps its hash.
 */
import type { CreatedShareResponse } from "../../contracts/api-bodies.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import type { ShareLinkRepository } from "../ports/share-links.ts";
import { sharedRouteMapPageUrl, shareExpiresAt } from "../route-map/share-links.ts";
import { normaliseUtc } from "../time/station-time.ts";
import { readableView } from "./shared/read-access.ts";

export interface CreateRouteMapShareDeps {
  routeMaps: Pick<RouteMapRepository, "getView">;
  shareLinks: ShareLinkRepository;
}

export interface CreateRouteMapShareInput {
  awb: AwbId;
  owner: ForwarderIdentity;
  expiresInHours: number;
  now: string;
  /** Fresh from the adapters: the link's id and its unguessable token. */
  id: string;
  token: string;
  /** Origin of the web app; the link is its share page `<appBaseUrl>/app/#/shared/<token>`. */
  appBaseUrl: string;
}

export async function createRouteMapShare(
  deps: CreateRouteMapShareDeps,
  input: CreateRouteMapShareInput,
): Promise<CreatedShareResponse> {
  await readableView(deps, input.awb, input.owner);
  const createdAt = normaliseUtc(input.now);
  const expiresAt = shareExpiresAt(createdAt, input.expiresInHours);
  const { forwarderId, agentCode, agentCass } = input.owner;
  await deps.shareLinks.create(
    { id: input.id, awb: input.awb, owner: { forwarderId, agentCode, agentCass }, createdAt, expiresAt },
    input.token,
  );
  return {
    Id: input.id,
    Url: sharedRouteMapPageUrl(input.appBaseUrl, input.token),
    ExpiresAt: expiresAt,
  };
}
