/**
 * ShareLinkRepository in memory, with the DynamoDB adapter's semantics (keyed by the token's SHA-256;
 * under limits, the owner's active links made under limits on the AWB and its links of the UTC day).
 */
import { shareTokenHash } from "../../../functions/adapters/share-token-hash.ts";
import { awbKey } from "../../../functions/core/awb.ts";
import type { ShareLink, ShareLinkRepository } from "../../../functions/core/ports/share-links.ts";
import { isActive } from "../../../functions/core/route-map/share-links.ts";

export function memoryShareLinkRepository(): ShareLinkRepository & {
  /** The stored keys (token hashes): a test can check that no token is kept. */
  readonly keys: () => string[];
  readonly all: () => ShareLink[];
} {
  const byHash = new Map<string, ShareLink>();
  /** Ids of the links made under limits, and how many each forwarder made per UTC day. */
  const limited = new Set<string>();
  const perDay = new Map<string, number>();
  const copy = <T>(value: T): T => structuredClone(value);
  return {
    keys: () => [...byHash.keys()],
    all: () => [...byHash.values()].map(copy),
    async create(link, token, limits) {
      if (limits) {
        const active = [...byHash.values()].filter(
          (other) =>
            limited.has(other.id) &&
            other.owner.forwarderId === link.owner.forwarderId &&
            awbKey(other.awb) === awbKey(link.awb) &&
            isActive(other, link.createdAt),
        );
        if (active.length >= limits.activePerAwb) return "active-per-awb";
        const day = `${link.owner.forwarderId}#${link.createdAt.slice(0, 10)}`;
        const made = perDay.get(day) ?? 0;
        if (made >= limits.perDay) return "per-day";
        perDay.set(day, made + 1);
        limited.add(link.id);
      }
      byHash.set(shareTokenHash(token), copy(link));
      return "created";
    },
    async findByToken(token) {
      const found = byHash.get(shareTokenHash(token));
      return found ? copy(found) : null;
    },
    async listFor(forwarderId, awb) {
      return [...byHash.values()]
        .filter((link) => link.owner.forwarderId === forwarderId && awbKey(link.awb) === awbKey(awb))
        .map(copy);
    },
    async revoke(forwarderId, awb, id) {
      for (const [hash, link] of byHash) {
        if (link.id === id && link.owner.forwarderId === forwarderId && awbKey(link.awb) === awbKey(awb)) {
          byHash.delete(hash);
          return true;
        }
      }
      return false;
    },
  };
}
