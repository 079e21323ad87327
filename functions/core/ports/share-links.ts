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

export interface ShareLinkRepository {
  /** Stores a new link under its token (only the token's hash is kept); expires with `expiresAt`. */
  create(link: ShareLink, token: string): Promise<void>;
  /** The link of a token, or null (unknown, revoked; an expired one may still be returned). */
  findByToken(token: string): Promise<ShareLink | null>;
  /** The forwarder's links of one AWB (expired ones may still be among them). */
  listFor(forwarderId: string, awb: AwbId): Promise<ShareLink[]>;
  /** Deletes the forwarder's link of that AWB; false when there is none. */
  revoke(forwarderId: string, awb: AwbId, id: string): Promise<boolean>;
}
