/**
 * Share links of route maps: a forwarder's read-only, sign-in-free link to one AWB's route
 * map. The adapter keys a link by the SHA-256 of its token and never stores the token itself; the core
 * only passes the token through (it neither makes nor hashes it).
 */
import type { AwbId } from "../carrier-messages/types.ts";

export interface ShareLink {
  id: string;
  awb: AwbId;
  /** The forwarder that created it, with its agent: the link reads only while that forwarder may. */
  owner: { forwarderId: string; agentCode: string; agentCass: string };
  /** UTC, no milliseconds (`2026-11-22T10:05:00Z`). */
  createdAt: string;
  expiresAt: string;
}

/** What a forwarder may make through the API (SHARE_LINKS_PER_AWB, SHARE_LINKS_PER_FORWARDER_PER_DAY). */
export interface ShareLinkLimits {
  /** Links of one forwarder active on one AWB at once (made under these limits). */
  activePerAwb: number;
  /** Links one forwarder may make in a UTC day (made under these limits). */
  perDay: number;
}

/** "created", or the limit that refused the link (nothing was stored). */
export type ShareLinkCreation = "created" | "active-per-awb" | "per-day";

export interface ShareLinkRepository {
  /**
   * Stores a new link under its token (only the token's hash is kept); expires with `expiresAt`.
   * With `limits`, only while the owner has fewer than `activePerAwb` active links (made under
   * limits) on the AWB and made fewer than `perDay` today (UTC, the link's createdAt), exactly so
   * under concurrent creations; else nothing is stored and the answer names the limit. Without them
   * (the links e-mail notifications carry, bounded by the deliveries themselves), always "created".
   */
  create(link: ShareLink, token: string, limits?: ShareLinkLimits): Promise<ShareLinkCreation>;
  /** The link of a token, or null (unknown, revoked; an expired one may still be returned). */
  findByToken(token: string): Promise<ShareLink | null>;
  /** The forwarder's links of one AWB (expired ones may still be among them). */
  listFor(forwarderId: string, awb: AwbId): Promise<ShareLink[]>;
  /** Deletes the forwarder's link of that AWB; false when there is none. */
  revoke(forwarderId: string, awb: AwbId, id: string): Promise<boolean>;
}
