/**
 * Rules, webhooks and customer endpoints in the Subscriptions table (SubscriptionRepository port).
 *
 * Layout (pk / sk, all strings):
 *   FWD#<forwarderId>      / RULE#<id, 10 digits> | WEBHOOK#<id>   the subscription (+ its index keys, rev)
 *   MATCH#<indexKey>       / RULE#<id> | WEBHOOK#<id>             a FULL copy per match-index key, so the
 *                                                                 matcher needs one Query per key, no second read
 *   FWD#<forwarderId>      / COUNT#RULE | COUNT#WEBHOOK            how many it has (`n`): the conditional
 *                                                                 counter that enforces the limits
 *   COUNTER                / RULE | WEBHOOK                        next id (atomic ADD)
 *   ENDPOINT#<guid>        / ENDPOINT                              a customer endpoint
 *   ENDPOINTS              / <createdAt>#<guid>                    its listing copy (support's list)
 * Secrets (Psk, Token, header values) are protected by the table's customer-managed KMS key; nothing
 * here logs them.
 */
import {
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  type CustomerEndpoint,
  type NotificationRule,
  type Subscription,
  subscriptionIndexKeys,
  type Webhook,
} from "../core/notifications/index.ts";
import type { Page, PageRequest, SubscriptionRepository } from "../core/ports/notifications.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isConditionFailure } from "./dynamo-errors.ts";

type Kind = "rule" | "webhook";
type Item = Record<string, NativeAttributeValue>;

/** DynamoDB's TransactWriteItems limit; a subscription lists at most 10 events (20 keys), so 1 + 2x20 fits. */
const MAX_TRANSACTION_ITEMS = 100;
const MAX_WRITE_TRIES = 5;

const padId = (id: number) => String(id).padStart(10, "0");
const KIND_PREFIX: Record<Kind, string> = { rule: "RULE#", webhook: "WEBHOOK#" };
export const subscriptionSk = (kind: Kind, id: number) => `${KIND_PREFIX[kind]}${padId(id)}`;
const forwarderPk = (forwarderId: string) => `FWD#${forwarderId}`;
const matchPk = (indexKey: string) => `MATCH#${indexKey}`;
const COUNTER_SK: Record<Kind, string> = { rule: "RULE", webhook: "WEBHOOK" };
const countKey = (forwarderId: string, kind: Kind) => ({
  pk: forwarderPk(forwarderId),
  sk: `COUNT#${COUNTER_SK[kind]}`,
});
/** Tries of a slot reservation: a counter seeded meanwhile, or a slot freed meanwhile, retries. */
const MAX_RESERVE_TRIES = 5;
const endpointKey = (id: string) => ({ pk: `ENDPOINT#${id}`, sk: "ENDPOINT" });
const ENDPOINT_LIST_PK = "ENDPOINTS";

function subscriptionOf(kind: Kind, data: unknown): Subscription {
  return kind === "rule"
    ? { kind: "rule", rule: data as NotificationRule }
    : { kind: "webhook", webhook: data as Webhook };
}

function pageOf<T>(all: T[], page: PageRequest): Page<T> {
  const start = (page.page - 1) * page.pageSize;
  return { items: all.slice(start, start + page.pageSize), total: all.length };
}

export function dynamoSubscriptionRepository(
  tableName = config.table("subscriptions"),
): SubscriptionRepository {
  const db = () => dynamo();

  async function queryAll(input: Omit<QueryCommandInput, "TableName">): Promise<Item[]> {
    const items: Item[] = [];
    let start: Record<string, NativeAttributeValue> | undefined;
    do {
      const result = await db().send(
        new QueryCommand({ TableName: tableName, ...input, ...(start ? { ExclusiveStartKey: start } : {}) }),
      );
      items.push(...((result.Items as Item[] | undefined) ?? []));
      start = result.LastEvaluatedKey;
    } while (start);
    return items;
  }

  async function getMain(kind: Kind, forwarderId: string, id: number): Promise<Item | null> {
    const { Item } = await db().send(
      new GetCommand({
        TableName: tableName,
        Key: { pk: forwarderPk(forwarderId), sk: subscriptionSk(kind, id) },
        ConsistentRead: true,
      }),
    );
    return (Item as Item | undefined) ?? null;
  }

  /**
   * Main item + one index item per key in one transaction; index items of keys the subscription no
   * longer listens to are deleted in the same transaction. `rev` makes a concurrent writer's
   * transaction fail (and retry on a fresh read) instead of leaving stale index items behind.
   */
  async function putSubscription(subscription: Subscription): Promise<void> {
    const kind: Kind = subscription.kind;
    const data = subscription.kind === "rule" ? subscription.rule : subscription.webhook;
    const pk = forwarderPk(data.owner.forwarderId);
    const sk = subscriptionSk(kind, data.id);
    const keys = [...new Set(subscriptionIndexKeys(subscription))];
    for (let attempt = 1; ; attempt++) {
      const old = await getMain(kind, data.owner.forwarderId, data.id);
      const oldRev = typeof old?.rev === "number" ? old.rev : null;
      const stale = ((old?.indexKeys as string[] | undefined) ?? []).filter((key) => !keys.includes(key));
      const items: NonNullable<TransactWriteCommandInput["TransactItems"]> = [
        {
          Put: {
            TableName: tableName,
            Item: { pk, sk, kind, data, indexKeys: keys, rev: (oldRev ?? 0) + 1 },
            ...(oldRev === null
              ? { ConditionExpression: "attribute_not_exists(pk)" }
              : {
                  ConditionExpression: "#rev = :rev",
                  ExpressionAttributeNames: { "#rev": "rev" },
                  ExpressionAttributeValues: { ":rev": oldRev },
                }),
          },
        },
        ...keys.map((key) => ({
          Put: { TableName: tableName, Item: { pk: matchPk(key), sk, kind, data } },
        })),
        ...stale.map((key) => ({ Delete: { TableName: tableName, Key: { pk: matchPk(key), sk } } })),
      ];
      if (items.length > MAX_TRANSACTION_ITEMS)
        throw new Error(`subscription ${sk} needs ${items.length} writes (limit ${MAX_TRANSACTION_ITEMS})`);
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (error) {
        if (!isConditionFailure(error) || attempt >= MAX_WRITE_TRIES) throw error;
      }
    }
  }

  async function deleteSubscription(kind: Kind, forwarderId: string, id: number): Promise<boolean> {
    const sk = subscriptionSk(kind, id);
    for (let attempt = 1; ; attempt++) {
      const old = await getMain(kind, forwarderId, id);
      if (!old) return false;
      const keys = (old.indexKeys as string[] | undefined) ?? [];
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: tableName,
                  Key: { pk: forwarderPk(forwarderId), sk },
                  ConditionExpression: "#rev = :rev",
                  ExpressionAttributeNames: { "#rev": "rev" },
                  ExpressionAttributeValues: { ":rev": old.rev },
                },
              },
              ...keys.map((key) => ({ Delete: { TableName: tableName, Key: { pk: matchPk(key), sk } } })),
            ],
          }),
        );
        return true;
      } catch (error) {
        if (!isConditionFailure(error) || attempt >= MAX_WRITE_TRIES) throw error;
      }
    }
  }

  async function countStored(forwarderId: string, kind: Kind): Promise<number> {
    let count = 0;
    let start: Record<string, NativeAttributeValue> | undefined;
    do {
      const result = await db().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
          ExpressionAttributeValues: { ":pk": forwarderPk(forwarderId), ":prefix": KIND_PREFIX[kind] },
          Select: "COUNT",
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      count += result.Count ?? 0;
      start = result.LastEvaluatedKey;
    } while (start);
    return count;
  }

  /**
   * Takes one of the forwarder's `limit` slots: `ADD n 1` only while `n < limit`, one conditional
   * update, so concurrent creations are serialised by DynamoDB and never pass the limit together. A
   * forwarder without a counter yet (its first subscription, or ones stored before the counter
   * existed) gets one seeded from a count of what it has; concurrent seeders race on
   * attribute_not_exists and the loser's seed is dropped.
   */
  async function reserveSlot(forwarderId: string, kind: Kind, limit: number): Promise<boolean> {
    const Key = countKey(forwarderId, kind);
    for (let attempt = 1; attempt <= MAX_RESERVE_TRIES; attempt++) {
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName,
            Key,
            UpdateExpression: "ADD #n :one",
            ConditionExpression: "attribute_exists(#n) AND #n < :limit",
            ExpressionAttributeNames: { "#n": "n" },
            ExpressionAttributeValues: { ":one": 1, ":limit": limit },
          }),
        );
        return true;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const { Item } = await db().send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true }));
      if (Item && typeof Item.n === "number") {
        if (Item.n >= limit) return false;
        continue; // a slot was freed meanwhile
      }
      const n = await countStored(forwarderId, kind);
      try {
        await db().send(
          new PutCommand({
            TableName: tableName,
            Item: { ...Key, n },
            ConditionExpression: "attribute_not_exists(pk)",
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    return false;
  }

  /** Gives a slot back (a deletion, or a creation whose write failed); never below 0. */
  async function releaseSlot(forwarderId: string, kind: Kind): Promise<void> {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName,
          Key: countKey(forwarderId, kind),
          UpdateExpression: "ADD #n :minus",
          ConditionExpression: "#n > :zero",
          ExpressionAttributeNames: { "#n": "n" },
          ExpressionAttributeValues: { ":minus": -1, ":zero": 0 },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /** Slot first, then the id, then the write: a refused creation takes no id and writes nothing. */
  async function insertSubscription(
    kind: Kind,
    forwarderId: string,
    limit: number,
    build: (id: number) => Subscription,
  ): Promise<Subscription | null> {
    if (!(await reserveSlot(forwarderId, kind, limit))) return null;
    try {
      const subscription = build(await nextId(kind));
      await putSubscription(subscription);
      return subscription;
    } catch (error) {
      await releaseSlot(forwarderId, kind);
      throw error;
    }
  }

  async function nextId(kind: Kind): Promise<number> {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: "COUNTER", sk: COUNTER_SK[kind] },
        UpdateExpression: "ADD #value :one",
        ExpressionAttributeNames: { "#value": "value" },
        ExpressionAttributeValues: { ":one": 1 },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return Number(Attributes?.value);
  }

  async function deleteCounted(kind: Kind, forwarderId: string, id: number): Promise<boolean> {
    const deleted = await deleteSubscription(kind, forwarderId, id);
    if (deleted) await releaseSlot(forwarderId, kind);
    return deleted;
  }

  async function listOf(kind: Kind, forwarderId: string, page: PageRequest) {
    // Bounded by the per-forwarder limits (500 rules, 50 webhooks by default): one partition read.
    const items = await queryAll({
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": forwarderPk(forwarderId), ":prefix": KIND_PREFIX[kind] },
    });
    return pageOf(
      items.map((item) => item.data),
      page,
    );
  }

  return {
    nextId,

    putRule: (rule) => putSubscription({ kind: "rule", rule }),
    async getRule(forwarderId, id) {
      return ((await getMain("rule", forwarderId, id))?.data as NotificationRule | undefined) ?? null;
    },
    listRules: async (forwarderId, page) =>
      (await listOf("rule", forwarderId, page)) as Page<NotificationRule>,
    deleteRule: (forwarderId, id) => deleteCounted("rule", forwarderId, id),
    async insertRule(draft, limit) {
      const stored = await insertSubscription("rule", draft.owner.forwarderId, limit, (id) => ({
        kind: "rule",
        rule: { ...draft, id },
      }));
      return stored?.kind === "rule" ? stored.rule : null;
    },

    putWebhook: (webhook) => putSubscription({ kind: "webhook", webhook }),
    async getWebhook(forwarderId, id) {
      return ((await getMain("webhook", forwarderId, id))?.data as Webhook | undefined) ?? null;
    },
    listWebhooks: async (forwarderId, page) => (await listOf("webhook", forwarderId, page)) as Page<Webhook>,
    deleteWebhook: (forwarderId, id) => deleteCounted("webhook", forwarderId, id),
    async insertWebhook(draft, limit) {
      const stored = await insertSubscription("webhook", draft.owner.forwarderId, limit, (id) => ({
        kind: "webhook",
        webhook: { ...draft, id },
      }));
      return stored?.kind === "webhook" ? stored.webhook : null;
    },

    countSubscriptions: (forwarderId, kind) => countStored(forwarderId, kind),

    async findCandidates(indexKeys) {
      const results = await Promise.all(
        [...new Set(indexKeys)].map((key) =>
          queryAll({
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": matchPk(key) },
          }),
        ),
      );
      // The owner and XTD keys of one forwarder can both hold the same subscription: keep it once.
      const seen = new Map<string, Subscription>();
      for (const item of results.flat()) {
        if (!seen.has(item.sk as string))
          seen.set(item.sk as string, subscriptionOf(item.kind as Kind, item.data));
      }
      return [...seen.values()];
    },

    async putCustomerEndpoint(endpoint) {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName,
                Item: { ...endpointKey(endpoint.id), data: endpoint },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: { pk: ENDPOINT_LIST_PK, sk: `${endpoint.createdAt}#${endpoint.id}`, data: endpoint },
              },
            },
          ],
        }),
      );
    },
    async getCustomerEndpoint(id) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: endpointKey(id.toLowerCase()) }),
      );
      return (Item?.data as CustomerEndpoint | undefined) ?? null;
    },
    async updateCustomerEndpoint(endpoint) {
      // Both copies, only while the endpoint exists (a concurrent DELETE wins; no orphan listing copy).
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...endpointKey(endpoint.id), data: endpoint },
                  ConditionExpression: "attribute_exists(pk)",
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { pk: ENDPOINT_LIST_PK, sk: `${endpoint.createdAt}#${endpoint.id}`, data: endpoint },
                  ConditionExpression: "attribute_exists(pk)",
                },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async deleteCustomerEndpoint(endpoint) {
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: tableName,
                  Key: endpointKey(endpoint.id),
                  ConditionExpression: "attribute_exists(pk)",
                },
              },
              {
                Delete: {
                  TableName: tableName,
                  Key: { pk: ENDPOINT_LIST_PK, sk: `${endpoint.createdAt}#${endpoint.id}` },
                },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async listCustomerEndpoints(page, forwarderId) {
      // Support registers a handful per forwarder: one partition read, filtered for a forwarder's list.
      const items = await queryAll({
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": ENDPOINT_LIST_PK },
      });
      return pageOf(
        items
          .map((item) => item.data as CustomerEndpoint)
          .filter((endpoint) => forwarderId === undefined || endpoint.forwarderId === forwarderId),
        page,
      );
    },
  };
}
