/**
 * ONE Record subscriptions in the Subscriptions table (OneRecordSubscriptionStore port), beside the
 * rules and webhooks but under their own keys, so neither side's queries read the other's items:
 *   ORSUB#<id, 10 digits>   / ORSUB            the subscription
 *   ORMATCH#<indexKey>      / ORSUB#<id>       a full copy per index key (the matcher's one Query a key)
 *   COUNTER                 / ORSUB            next id (atomic ADD)
 * A revoked subscription keeps its main item (its SubscriptionRequest stays readable, REQUEST_REVOKED)
 * and loses its index copies, so it is never matched again.
 */
import {
  GetCommand,
  type NativeAttributeValue,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  type OneRecordSubscription,
  subscriptionIndexKeys,
} from "../core/one-record-server/subscriptions.ts";
import type { OneRecordSubscriptionStore } from "../core/ports/one-record.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";

type Item = Record<string, NativeAttributeValue>;
const sk = (id: number) => `ORSUB#${String(id).padStart(10, "0")}`;
const mainKey = (id: number) => ({ pk: sk(id), sk: "ORSUB" });
const matchPk = (key: string) => `ORMATCH#${key}`;

export function dynamoOneRecordSubscriptionStore(
  tableName = config.table("subscriptions"),
): OneRecordSubscriptionStore {
  const db = () => dynamo();

  async function get(id: number): Promise<OneRecordSubscription | null> {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName, Key: mainKey(id), ConsistentRead: true }),
    );
    return Item ? (Item.data as OneRecordSubscription) : null;
  }

  return {
    async insert(draft) {
      const { Attributes } = await db().send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: "COUNTER", sk: "ORSUB" },
          UpdateExpression: "ADD #value :one",
          ExpressionAttributeNames: { "#value": "value" },
          ExpressionAttributeValues: { ":one": 1 },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      const sub: OneRecordSubscription = { ...draft, id: Number(Attributes?.value) };
      const keys = subscriptionIndexKeys(sub);
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { ...mainKey(sub.id), data: sub, indexKeys: keys } } },
            ...keys.map((key) => ({
              Put: { TableName: tableName, Item: { pk: matchPk(key), sk: sk(sub.id), data: sub } },
            })),
          ],
        }),
      );
      return sub;
    },
    get,
    async revoke(id, at) {
      const current = await get(id);
      if (!current) return null;
      if (current.status === "REQUEST_REVOKED") return current;
      const revoked: OneRecordSubscription = { ...current, status: "REQUEST_REVOKED", revokedAt: at };
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { ...mainKey(id), data: revoked, indexKeys: [] } } },
            ...subscriptionIndexKeys(current).map((key) => ({
              Delete: { TableName: tableName, Key: { pk: matchPk(key), sk: sk(id) } },
            })),
          ],
        }),
      );
      return revoked;
    },
    async findCandidates(indexKeys) {
      const pages = await Promise.all(
        [...new Set(indexKeys)].map(async (key) => {
          const items: Item[] = [];
          let start: Item | undefined;
          do {
            const result = await db().send(
              new QueryCommand({
                TableName: tableName,
                KeyConditionExpression: "pk = :pk",
                ExpressionAttributeValues: { ":pk": matchPk(key) },
                ...(start ? { ExclusiveStartKey: start } : {}),
              }),
            );
            items.push(...((result.Items as Item[] | undefined) ?? []));
            start = result.LastEvaluatedKey;
          } while (start);
          return items;
        }),
      );
      // Owner and XTD keys of one forwarder may both hold a subscription: keep it once.
      const seen = new Map<number, OneRecordSubscription>();
      for (const item of pages.flat()) {
        const sub = item.data as OneRecordSubscription;
        seen.set(sub.id, sub);
      }
      return [...seen.values()];
    },
  };
}
