/**
 * POST /ffw/service/routemap/{awb}/share: a share link of a route map the caller may read (else the
 * same 404 as GET route map). The token (random, from an adapter) is in the answer only; the store
 * keeps its hash. Capped (the store enforces it, also under concurrent requests): a forwarder's
 * active links on one AWB (409) and the links it makes in a UTC day (429 until the day ends).
 */
import type { CreatedShareResponse } from "../../contracts/api-bodies.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import { ShareLinkLimitError } from "../errors.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import type { ShareLinkLimits, ShareLinkRepository } from "../ports/share-links.ts";
import { sharedRouteMapPageUrl, shareExpiresAt } from "../route-map/share-links.ts";
import { normaliseUtc } from "../time/station-time.ts";
import { readableView } from "./shared/read-access.ts";

export interface CreateRouteMapShareDeps {
  routeMaps: Pick<RouteMapRepository, "getView">;
  shareLinks: ShareLinkRepository;
  /** SHARE_LINKS_PER_AWB and SHARE_LINKS_PER_FORWARDER_PER_DAY (functions/adapters/config.ts). */
  limits: ShareLinkLimits;
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
  const created = await deps.shareLinks.create(
    { id: input.id, awb: input.awb, owner: { forwarderId, agentCode, agentCass }, createdAt, expiresAt },
    input.token,
    deps.limits,
  );
  if (created === "active-per-awb")
    throw new ShareLinkLimitError(created, deps.limits.activePerAwb, input.awb, null);
  if (created === "per-day")
    throw new ShareLinkLimitError(created, deps.limits.perDay, input.awb, secondsToNextUtcDay(createdAt));
  return {
    Id: input.id,
    Url: sharedRouteMapPageUrl(input.appBaseUrl, input.token),
    ExpiresAt: expiresAt,
  };
}

/** Whole seconds from `now` (ISO UTC) until the next UTC midnight, at least 1. */
export function secondsToNextUtcDay(now: string): number {
  const at = Date.parse(now);
  const midnight = Date.UTC(
    new Date(at).getUTCFullYear(),
    new Date(at).getUTCMonth(),
    new Date(at).getUTCDate() + 1,
  );
  return Math.max(1, Math.ceil((midnight - at) / 1000));
}
