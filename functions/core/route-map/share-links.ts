/**
 * Share links of route maps, pure: the expiry, whether a link still works, and the route
 * map as a signed-out reader sees it (nothing naming an agent, a CASS or a forwarder).
 */
import type { ShareLink } from "../ports/share-links.ts";
import { addMinutes, normaliseUtc } from "../time/station-time.ts";

export const MIN_SHARE_HOURS = 1;
export const MAX_SHARE_HOURS = 720;

/** Path of the public page a share link opens (the route `get-shared-route-map`). */
export const SHARED_ROUTE_MAP_PATH = "/shared/routemap";

/**
 * The page a share link opens: the web app's read-only route-map view. The token sits in the fragment,
 * so opening the page sends it to no server (no access log, no Referer); the page then reads
 * `GET /shared/routemap/{token}`.
 */
export const sharedRouteMapPageUrl = (appBaseUrl: string, token: string): string =>
  `${appBaseUrl.replace(/\/+$/, "")}/app/#/shared/${token}`;

/** Link tokens are 32 random bytes in base64url (43 characters): anything else is refused unseen. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const shareExpiresAt = (now: string, hours: number): string => addMinutes(now, hours * 60);

/** A link works until its ExpiresAt (DynamoDB's TTL deletes it only some time later). */
export const isActive = (link: Pick<ShareLink, "expiresAt">, now: string): boolean =>
  normaliseUtc(now) < normaliseUtc(link.expiresAt);

const IDENTIFYING_KEY = /agent|cass|forwarder/i;

/** Drops, at any depth, members naming an agent, a CASS or a forwarder (the spec's shape has none). */
function withoutIdentifiers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIdentifiers);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !IDENTIFYING_KEY.test(key))
      .map(([key, member]) => [key, withoutIdentifiers(member)]),
  );
}

/** The route-map JSON a share link answers: the same document, minus anything identifying a party. */
export const sharedRouteMapJson = (routeMapJson: string): string =>
  JSON.stringify(withoutIdentifiers(JSON.parse(routeMapJson)));
