/**
 * Delivery records and their attempt log in the Deliveries table (DeliveryRepository port).
 *
 * Layout (pk / sk):
 *   DELIVERY#<deliveryId>        / RECORD                    status, attempts (last 20), job JSON, rev
 *   SUB#<rule|webhook>#<id>      / <createdAt>#<deliveryId>  listing pointer of the subscription's log
 *   SESMSG#<SES MessageId>       / DELIVERY                  the delivery whose attempt sent that e-mail
 *                                                             (SES bounces and complaints find it by it)
 * Both expire 30 days after creation (TTL attribute expiresAt, epoch seconds). The job is kept as JSON
 * text: it is replayed exactly as sent, and it carries no secrets (DeliveryTarget).
 */
import {
  BatchGetCommand,
  GetCommand,
  type NativeAttributeValue,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import type {
  DeliveryAttempt,
  DeliveryJob,
  DeliveryRecord,
  DeliveryRepository,
} from "../core/ports/notifications.ts";
import { dynamo } from "./aws-clients.ts";
import { nowMs } from "./clock.ts";
import { config } from "./config.ts";
import { MAX_ATTEMPT_DETAIL, MAX_LOGGED_ATTEMPTS } from "./delivery-record-limits.ts";
import { isConditionFailure } from "./dynamo-errors.ts";

type Item = Record<string, NativeAttributeValue>;

export { MAX_ATTEMPT_DETAIL, MAX_LOGGED_ATTEMPTS };

const DELIVERY_RETENTION_SECONDS = 30 * 24 * 3600;
const MAX_WRITE_TRIES = 5;
const BATCH_GET_LIMIT = 100;

const recordKey = (deliveryId: string) => ({ pk: `DELIVERY#${deliveryId}`, sk: "RECORD" });
const listPk = (kind: DeliveryRecord["subscriptionKind"], id: number) => `SUB#${kind}#${id}`;
const emailMessageKey = (messageId: string) => ({ pk: `SESMSG#${messageId}`, sk: "DELIVERY" });

function truncated(attempt: DeliveryAttempt): DeliveryAttempt {
  return attempt.detail.length > MAX_ATTEMPT_DETAIL
    ? { ...attempt, detail: `${attempt.detail.slice(0, MAX_ATTEMPT_DETAIL - 1)}…` }
    : attempt;
}

function recordOf(item: Item): DeliveryRecord {
  return {
    deliveryId: item.deliveryId as string,
    eventId: item.eventId as string,
    subscriptionKind: item.subscriptionKind as DeliveryRecord["subscriptionKind"],
    subscriptionId: item.subscriptionId as number,
    forwarderId: item.forwarderId as string,
    status: item.status as DeliveryRecord["status"],
    attempts: (item.attempts as DeliveryAttempt[] | undefined) ?? [],
    job: JSON.parse(item.job as string) as DeliveryJob,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export function dynamoDeliveryRepository(tableName = config.table("deliveries")): DeliveryRepository {
  const db = () => dynamo();

  async function getItem(deliveryId: string): Promise<Item | null> {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName, Key: recordKey(deliveryId), ConsistentRead: true }),
    );
    return (Item as Item | undefined) ?? null;
  }

  return {
    async create(record) {
      const created = Date.parse(record.createdAt);
      const expiresAt =
        Math.floor((Number.isNaN(created) ? nowMs() : created) / 1000) + DELIVERY_RETENTION_SECONDS;
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...recordKey(record.deliveryId),
                    deliveryId: record.deliveryId,
                    eventId: record.eventId,
                    subscriptionKind: record.subscriptionKind,
                    subscriptionId: record.subscriptionId,
                    forwarderId: record.forwarderId,
                    status: record.status,
                    attempts: record.attempts.slice(-MAX_LOGGED_ATTEMPTS).map(truncated),
                    job: JSON.stringify(record.job),
                    createdAt: record.createdAt,
                    updatedAt: record.updatedAt,
                    rev: 1,
                    expiresAt,
                  },
                  // At-least-once jobs: the second create of the same delivery must not reset its log.
                  ConditionExpression: "attribute_not_exists(pk)",
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    pk: listPk(record.subscriptionKind, record.subscriptionId),
                    sk: `${record.createdAt}#${record.deliveryId}`,
                    deliveryId: record.deliveryId,
                    expiresAt,
                  },
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

    async get(deliveryId) {
      const item = await getItem(deliveryId);
      return item ? recordOf(item) : null;
    },

    /** The newest pointer (sort key starts with createdAt) and its record: two reads, whatever the log's size. */
    async latestForSubscription(kind, subscriptionId) {
      const { Items } = await db().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": listPk(kind, subscriptionId) },
          ProjectionExpression: "deliveryId, expiresAt",
          ScanIndexForward: false,
          Limit: 1,
        }),
      );
      const newest = Items?.[0];
      // Pointers expire oldest first: an expired newest one means the whole log has expired.
      if (!newest || (newest.expiresAt as number) <= Math.floor(nowMs() / 1000)) return null;
      const item = await getItem(newest.deliveryId as string);
      return item ? recordOf(item) : null;
    },

    /** Read, append (keeping the last 20), write conditioned on `rev`: a lost race re-reads and re-appends. */
    async recordAttempt(deliveryId, attempt, status) {
      for (let tries = 1; ; tries++) {
        const item = await getItem(deliveryId);
        if (!item) throw new Error(`no delivery record ${deliveryId}`);
        const attempts = [...((item.attempts as DeliveryAttempt[] | undefined) ?? []), truncated(attempt)];
        const update = {
          TableName: tableName,
          Key: recordKey(deliveryId),
          UpdateExpression: "SET attempts = :attempts, #status = :status, updatedAt = :at, #rev = :next",
          ConditionExpression: "#rev = :rev",
          ExpressionAttributeNames: { "#status": "status", "#rev": "rev" },
          ExpressionAttributeValues: {
            ":attempts": attempts.slice(-MAX_LOGGED_ATTEMPTS),
            ":status": status,
            ":at": attempt.at,
            ":rev": item.rev,
            ":next": (item.rev as number) + 1,
          },
        };
        try {
          // An attempt that sent e-mail also writes its MessageId pointer, in the same transaction.
          if (attempt.emailMessageId) {
            const pointer = {
              ...emailMessageKey(attempt.emailMessageId),
              deliveryId,
              expiresAt: item.expiresAt as number,
            };
            await db().send(
              new TransactWriteCommand({
                TransactItems: [{ Update: update }, { Put: { TableName: tableName, Item: pointer } }],
              }),
            );
          } else {
            await db().send(new UpdateCommand(update));
          }
          return;
        } catch (error) {
          if (!isConditionFailure(error) || tries >= MAX_WRITE_TRIES) throw error;
        }
      }
    },

    async findByEmailMessageId(messageId) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: emailMessageKey(messageId), ConsistentRead: true }),
      );
      if (!Item) return null;
      const item = await getItem(Item.deliveryId as string);
      return item ? recordOf(item) : null;
    },

    /** Newest first. The pointers are small, so the total is counted from them; only the page is read. */
    async listForSubscription(kind, subscriptionId, page) {
      const nowSeconds = Math.floor(nowMs() / 1000);
      const ids: string[] = [];
      let start: Record<string, NativeAttributeValue> | undefined;
      do {
        const result = await db().send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: "pk = :pk",
            // TTL deletion lags up to days: an expired pointer is already gone for the reader.
            FilterExpression: "expiresAt > :now",
            ExpressionAttributeValues: { ":pk": listPk(kind, subscriptionId), ":now": nowSeconds },
            ProjectionExpression: "deliveryId",
            ScanIndexForward: false,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of result.Items ?? []) ids.push(item.deliveryId as string);
        start = result.LastEvaluatedKey;
      } while (start);
      const offset = (page.page - 1) * page.pageSize;
      const wanted = ids.slice(offset, offset + page.pageSize);
      const found = new Map<string, DeliveryRecord>();
      for (let from = 0; from < wanted.length; from += BATCH_GET_LIMIT) {
        let keys: Item[] = wanted.slice(from, from + BATCH_GET_LIMIT).map(recordKey);
        while (keys.length > 0) {
          const result = await db().send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } }),
          );
          for (const item of result.Responses?.[tableName] ?? []) {
            const record = recordOf(item as Item);
            found.set(record.deliveryId, record);
          }
          keys = (result.UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined) ?? [];
          // Unprocessed keys mean throttling: a short pause before asking again.
          if (keys.length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      return {
        items: wanted.flatMap((id) => {
          const record = found.get(id);
          return record ? [record] : [];
        }),
        total: ids.length,
      };
    },
  };
}
