/**
 * SubscriptionRepository in memory, with the DynamoDB adapter's semantics: values are copied in and
 * out (no shared references), one match index keyed exactly like the table's MATCH# items, lists in id
 * order. For use-case tests and benchmarks; `operations` counts calls and `indexQueries` counts the
 * per-key lookups findCandidates made (the DynamoDB adapter makes one Query per key).
 */
import {
  type CustomerEndpoint,
  type NotificationRule,
  type Subscription,
  subscriptionIndexKeys,
  subscriptionKey,
  type Webhook,
} from "../../../functions/core/notifications/index.ts";
import type {
  Page,
  PageRequest,
  SubscriptionRepository,
} from "../../../functions/core/ports/notifications.ts";

export interface MemorySubscriptionRepository extends SubscriptionRepository {
  readonly operations: Record<string, number>;
  /** Match-index keys looked up so far (one DynamoDB Query each). */
  indexQueries: number;
  /** Subscriptions currently stored under a match-index key (for tests of stale index cleanup). */
  indexedUnder(indexKey: string): string[];
}

const copy = <T>(value: T): T => structuredClone(value);

function pageOf<T>(all: T[], page: PageRequest): Page<T> {
  const start = (page.page - 1) * page.pageSize;
  return { items: all.slice(start, start + page.pageSize).map(copy), total: all.length };
}

export function memorySubscriptionRepository(): MemorySubscriptionRepository {
  const counters = { rule: 0, webhook: 0 };
  /** forwarderId -> subscription key -> subscription */
  const byForwarder = new Map<string, Map<string, Subscription>>();
  const indexKeysOf = new Map<string, string[]>();
  const index = new Map<string, Map<string, Subscription>>();
  const endpoints = new Map<string, CustomerEndpoint>();
  const operations: Record<string, number> = {};
  const count = (name: string) => {
    operations[name] = (operations[name] ?? 0) + 1;
  };

  function ownerOf(subscription: Subscription): string {
    return subscription.kind === "rule"
      ? subscription.rule.owner.forwarderId
      : subscription.webhook.owner.forwarderId;
  }

  function put(subscription: Subscription): void {
    const stored = copy(subscription);
    const key = subscriptionKey(stored);
    const forwarder = ownerOf(stored);
    for (const old of indexKeysOf.get(key) ?? []) index.get(old)?.delete(key);
    const keys = [...new Set(subscriptionIndexKeys(stored))];
    for (const indexKey of keys) {
      const bucket = index.get(indexKey) ?? new Map<string, Subscription>();
      bucket.set(key, stored);
      index.set(indexKey, bucket);
    }
    indexKeysOf.set(key, keys);
    const own = byForwarder.get(forwarder) ?? new Map<string, Subscription>();
    own.set(key, stored);
    byForwarder.set(forwarder, own);
  }

  function get(forwarderId: string, key: string): Subscription | null {
    const found = byForwarder.get(forwarderId)?.get(key);
    return found ? copy(found) : null;
  }

  function remove(forwarderId: string, key: string): boolean {
    const own = byForwarder.get(forwarderId);
    if (!own?.has(key)) return false;
    own.delete(key);
    for (const indexKey of indexKeysOf.get(key) ?? []) index.get(indexKey)?.delete(key);
    indexKeysOf.delete(key);
    return true;
  }

  function list<T>(forwarderId: string, kind: "rule" | "webhook", pick: (s: Subscription) => T | null) {
    const all = [...(byForwarder.get(forwarderId)?.values() ?? [])]
      .filter((subscription) => subscription.kind === kind)
      .map(pick)
      .filter((value): value is T => value !== null);
    return all;
  }

  const ruleOf = (s: Subscription | null) => (s?.kind === "rule" ? s.rule : null);
  const webhookOf = (s: Subscription | null) => (s?.kind === "webhook" ? s.webhook : null);
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

  const repo: MemorySubscriptionRepository = {
    operations,
    indexQueries: 0,
    indexedUnder: (indexKey) => [...(index.get(indexKey)?.keys() ?? [])],

    async nextId(kind) {
      count("nextId");
      counters[kind] += 1;
      return counters[kind];
    },
    async putRule(rule) {
      count("putRule");
      put({ kind: "rule", rule });
    },
    async getRule(forwarderId, id) {
      count("getRule");
      return ruleOf(get(forwarderId, `rule-${id}`));
    },
    async listRules(forwarderId, page) {
      count("listRules");
      return pageOf(list<NotificationRule>(forwarderId, "rule", ruleOf).sort(byId), page);
    },
    async deleteRule(forwarderId, id) {
      count("deleteRule");
      return remove(forwarderId, `rule-${id}`);
    },
    async putWebhook(webhook) {
      count("putWebhook");
      put({ kind: "webhook", webhook });
    },
    async getWebhook(forwarderId, id) {
      count("getWebhook");
      return webhookOf(get(forwarderId, `webhook-${id}`));
    },
    async listWebhooks(forwarderId, page) {
      count("listWebhooks");
      return pageOf(list<Webhook>(forwarderId, "webhook", webhookOf).sort(byId), page);
    },
    async deleteWebhook(forwarderId, id) {
      count("deleteWebhook");
      return remove(forwarderId, `webhook-${id}`);
    },
    async countSubscriptions(forwarderId, kind) {
      count("countSubscriptions");
      return list(forwarderId, kind, (s) => s).length;
    },
    // One synchronous check-and-put: exact under concurrency, like the adapter's conditional counter.
    async insertRule(draft, limit) {
      count("insertRule");
      if (list(draft.owner.forwarderId, "rule", (s) => s).length >= limit) return null;
      counters.rule += 1;
      const rule = { ...draft, id: counters.rule };
      put({ kind: "rule", rule });
      return copy(rule);
    },
    async insertWebhook(draft, limit) {
      count("insertWebhook");
      if (list(draft.owner.forwarderId, "webhook", (s) => s).length >= limit) return null;
      counters.webhook += 1;
      const webhook = { ...draft, id: counters.webhook };
      put({ kind: "webhook", webhook });
      return copy(webhook);
    },
    async findCandidates(indexKeys) {
      count("findCandidates");
      const found = new Map<string, Subscription>();
      for (const indexKey of new Set(indexKeys)) {
        repo.indexQueries += 1;
        for (const [key, subscription] of index.get(indexKey) ?? []) found.set(key, subscription);
      }
      return [...found.values()].map(copy);
    },
    async putCustomerEndpoint(endpoint) {
      count("putCustomerEndpoint");
      if (endpoints.has(endpoint.id)) throw new Error(`customer endpoint ${endpoint.id} exists`);
      endpoints.set(endpoint.id, copy(endpoint));
    },
    async getCustomerEndpoint(id) {
      count("getCustomerEndpoint");
      const found = endpoints.get(id.toLowerCase());
      return found ? copy(found) : null;
    },
    async updateCustomerEndpoint(endpoint) {
      count("updateCustomerEndpoint");
      if (!endpoints.has(endpoint.id)) return false;
      endpoints.set(endpoint.id, copy(endpoint));
      return true;
    },
    async deleteCustomerEndpoint(endpoint) {
      count("deleteCustomerEndpoint");
      return endpoints.delete(endpoint.id);
    },
    async listCustomerEndpoints(page, forwarderId) {
      count("listCustomerEndpoints");
      const all = [...endpoints.values()]
        .filter((endpoint) => forwarderId === undefined || endpoint.forwarderId === forwarderId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      return pageOf(all, page);
    },
  };
  return repo;
}
