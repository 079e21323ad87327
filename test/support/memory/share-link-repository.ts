/** ShareLinkRepository in memory, with the DynamoDB adapter's semantics (keyed by the token's SHA-256). */
import { shareTokenHash } from "../../../functions/adapters/share-link-repository.ts";
import { awbKey } from "../../../functions/core/awb.ts";
import type { ShareLink, ShareLinkRepository } from "../../../functions/core/ports/share-links.ts";

export function memoryShareLinkRepository(): ShareLinkRepository & {
  /** The stored keys (token hashes): a test can check that no token is kept. */
  readonly keys: () => string[];
  readonly all: () => ShareLink[];
} {
  const byHash = new Map<string, ShareLink>();
  const copy = <T>(value: T): T => structuredClone(value);
  return {
    keys: () => [...byHash.keys()],
    all: () => [...byHash.values()].map(copy),
    async create(link, token) {
      byHash.set(shareTokenHash(token), copy(link));
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
