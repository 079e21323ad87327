/**
 * Status requests' own items in the Deliveries table (their delivery records are the delivery
 * repository's, listed under `SUB#carrier#<prefix>`):
 *
 *   SRWINDOW#<prefix><serial>   / WINDOW              the collapse window: requestId, until (ISO);
 *                                                     expires with its window (TTL expiresAt)
 *   SRPULL#<prefix>             / <requestId>         a request in the carrier's pull queue (ids sort by
 *                                                     creation time); removed by the ack, else 30 days
 *   USAGE#<forwarderId>#<YYYY-MM> / <at>#<requestId>  one XTD request in the forwarder's usage ledger
 *   USAGEMONTH#<YYYY-MM>        / <forwarderId>       the forwarder's counter of the month (ADD count)
 *
 * Usage items have no TTL: the ledger is what XTD costs are audited from.
 */
import { randomUUID } from "node:crypto";
import {
  DeleteCommand,
  GetCommand,
  type NativeAttributeValue,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import { WriteConflictError } from "../core/errors.ts";
import type {
  CarrierRequestInbox,
  PulledStatusRequest,
  StatusRequestWindow,
  UsageEntry,
  UsageLedger,
} from "../core/ports/carriers.ts";
import { dynamo } from "./aws-clients.ts";
import { nowMs } from "./clock.ts";
import { config } from "./config.ts";
import { isConditionFailure, isWriteConflict } from "./dynamo-errors.ts";

type Item = Record<string, NativeAttributeValue>;

const PULL_RETENTION_SECONDS = 30 * 24 * 3600;
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Every item of a partition (the key condition's), in sort-key order. */
async function queryAll(tableName: string, pk: string, forward = true): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": pk },
        ScanIndexForward: forward,
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items as Item[] | undefined) ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export function dynamoStatusRequestWindow(tableName = config.table("deliveries")): StatusRequestWindow {
  return {
    async claim({ awb, requestId, now, until }) {
      const key = { pk: `SRWINDOW#${awb.prefix}${awb.serial}`, sk: "WINDOW" };
      try {
        await dynamo().send(
          new PutCommand({
            TableName: tableName,
            Item: { ...key, requestId, until, expiresAt: epochSeconds(until) + 60 },
            // Only when no window is running at `now` (TTL deletion is late: `until` decides).
            ConditionExpression: "attribute_not_exists(pk) OR #until <= :now",
            ExpressionAttributeNames: { "#until": "until" },
            ExpressionAttributeValues: { ":now": now },
          }),
        );
        return { claimed: true };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const { Item } = await dynamo().send(
          new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
        );
        return { claimed: false, requestId: (Item?.requestId as string | undefined) ?? requestId };
      }
    },
  };
}

export function dynamoCarrierRequestInbox(tableName = config.table("deliveries")): CarrierRequestInbox {
  const pk = (prefix: string) => `SRPULL#${prefix}`;
  return {
    async put(item) {
      await dynamo().send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: pk(item.request.carrierPrefix),
            sk: item.request.requestId,
            item: JSON.stringify(item),
            expiresAt: epochSeconds(item.availableAt) + PULL_RETENTION_SECONDS,
          },
        }),
      );
    },
    async list(prefix, page) {
      const nowSeconds = Math.floor(nowMs() / 1000);
      const all = (await queryAll(tableName, pk(prefix))).filter(
        (item) => (item.expiresAt as number) > nowSeconds,
      );
      const start = (page.page - 1) * page.pageSize;
      return {
        items: all
          .slice(start, start + page.pageSize)
          .map((item) => JSON.parse(item.item as string) as PulledStatusRequest),
        total: all.length,
      };
    },
    async ack(prefix, requestId) {
      try {
        await dynamo().send(
          new DeleteCommand({
            TableName: tableName,
            Key: { pk: pk(prefix), sk: requestId },
            ConditionExpression: "attribute_exists(pk)",
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}

export function dynamoUsageLedger(tableName = config.table("deliveries")): UsageLedger {
  const entriesPk = (forwarderId: string, month: string) => `USAGE#${forwarderId}#${month}`;
  const counterKey = (month: string, forwarderId: string) => ({ pk: `USAGEMONTH#${month}`, sk: forwarderId });
  return {
    async record(entry) {
      try {
        await dynamo().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    pk: entriesPk(entry.forwarderId, entry.month),
                    // Unique per entry: two sendsme in the same millisecond are two entries.
                    sk: `${entry.at}#${entry.requestId}#${randomUUID()}`,
                    entry: JSON.stringify(entry),
                  },
                },
              },
              {
                Update: {
                  TableName: tableName,
                  Key: counterKey(entry.month, entry.forwarderId),
                  UpdateExpression: "ADD #count :one",
                  ExpressionAttributeNames: { "#count": "count" },
                  ExpressionAttributeValues: { ":one": 1 },
                },
              },
            ],
          }),
        );
      } catch (error) {
        // Concurrent sendsme of one forwarder all count into its month's item: a transaction that
        // collided with another wrote nothing, and the use case records it again.
        if (isWriteConflict(error)) throw new WriteConflictError(entry.awb);
        throw error;
      }
    },
    async forForwarder(forwarderId, month, page) {
      const { Item } = await dynamo().send(
        new GetCommand({ TableName: tableName, Key: counterKey(month, forwarderId), ConsistentRead: true }),
      );
      const all = await queryAll(tableName, entriesPk(forwarderId, month));
      const start = (page.page - 1) * page.pageSize;
      return {
        count: (Item?.count as number | undefined) ?? 0,
        entries: {
          items: all
            .slice(start, start + page.pageSize)
            .map((item) => JSON.parse(item.entry as string) as UsageEntry),
          total: all.length,
        },
      };
    },
    async forMonth(month) {
      const all = await queryAll(tableName, `USAGEMONTH#${month}`);
      return all.map((item) => ({ forwarderId: item.sk as string, count: item.count as number }));
    },
  };
}
