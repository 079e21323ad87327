/** OneRecordSubscriptionStore in memory, keyed like the table (index copies dropped on revoke). */
import {
  type OneRecordSubscription,
  subscriptionIndexKeys,
} from "../../../functions/core/one-record-server/subscriptions.ts";
import type { OneRecordSubscriptionStore } from "../../../functions/core/ports/one-record.ts";

export function memoryOneRecordSubscriptionStore(): OneRecordSubscriptionStore & { indexQueries: number } {
  const byId = new Map<number, OneRecordSubscription>();
  const index = new Map<string, Set<number>>();
  let next = 0;
  const copy = <T>(value: T): T => structuredClone(value);
  const store = {
    indexQueries: 0,
    async insert(draft: Omit<OneRecordSubscription, "id">) {
      next += 1;
      const sub = { ...copy(draft), id: next };
      byId.set(sub.id, sub);
      for (const key of subscriptionIndexKeys(sub)) index.set(key, (index.get(key) ?? new Set()).add(sub.id));
      return copy(sub);
    },
    async get(id: number) {
      const sub = byId.get(id);
      return sub ? copy(sub) : null;
    },
    async revoke(id: number, at: string) {
      const sub = byId.get(id);
      if (!sub) return null;
      if (sub.status === "REQUEST_ACCEPTED") {
        for (const key of subscriptionIndexKeys(sub)) index.get(key)?.delete(id);
        byId.set(id, { ...sub, status: "REQUEST_REVOKED", revokedAt: at });
      }
      return copy(byId.get(id) ?? sub);
    },
    async findCandidates(keys: readonly string[]) {
      const ids = new Set<number>();
      for (const key of new Set(keys)) {
        store.indexQueries += 1;
        for (const id of index.get(key) ?? []) ids.add(id);
      }
      return [...ids].map((id) => copy(byId.get(id) as OneRecordSubscription));
    },
  };
  return store;
}
