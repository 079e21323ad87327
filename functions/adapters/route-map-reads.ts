/**
 * The route-map repository's reads: the record (consistent), what a change starts from (the record or
 * the early XTD grants, one Query), the view without the aggregate (one item or a batch), and the
 * snapshots (all, or one page). GetItem, BatchGetItem and Query only: never a Scan. Keys and item
 * shapes: route-map-items.ts.
 */
import { BatchGetCommand, GetCommand, type NativeAttributeValue, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { RouteMapRepository, RouteMapSnapshot, RouteMapView } from "../core/ports/route-maps.ts";
import { dynamo } from "./aws-clients.ts";
import {
  CURRENT,
  EARLY_XTD,
  epochSeconds,
  type Item,
  pk,
  recordOf,
  snapshotOf,
  VIEW_PROJECTION,
  viewOf,
} from "./route-map-items.ts";

export function routeMapReads(
  tableName: string,
): Pick<RouteMapRepository, "get" | "getForChange" | "getView" | "getViews" | "snapshots" | "snapshotPage"> {
  const db = () => dynamo();

  async function queryAll(
    input: ConstructorParameters<typeof QueryCommand>[0],
    limit: number,
  ): Promise<Item[]> {
    const out: Item[] = [];
    let startKey: Record<string, NativeAttributeValue> | undefined;
    do {
      const page = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      out.push(...((page.Items as Item[] | undefined) ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey && out.length < limit);
    return out;
  }

  return {
    async get(awb) {
      const { Item } = await db().send(
        new GetCommand({ TableName: tableName, Key: { pk: pk(awb), sk: CURRENT }, ConsistentRead: true }),
      );
      return Item ? recordOf(Item) : null;
    },

    async getForChange(awb) {
      // Both items together stay far below a Query page (1 MB): CURRENT is at most 400 KB.
      const { Items = [] } = await db().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :current)",
          ExpressionAttributeValues: { ":pk": pk(awb), ":current": CURRENT },
          ConsistentRead: true,
        }),
      );
      const current = Items.find((item) => item.sk === CURRENT);
      if (current) return { record: recordOf(current), earlyXtd: null };
      const early = Items.find((item) => item.sk === EARLY_XTD);
      return {
        record: null,
        earlyXtd: early
          ? {
              forwarderIds: [...((early.forwarderIds as Set<string> | undefined) ?? [])].sort(),
              revision: early.revision as number,
            }
          : { forwarderIds: [], revision: 0 },
      };
    },

    async getView(awb) {
      const { Item } = await db().send(
        new GetCommand({
          TableName: tableName,
          Key: { pk: pk(awb), sk: CURRENT },
          ...VIEW_PROJECTION,
        }),
      );
      return Item ? viewOf(Item) : null;
    },

    async getViews(awbs) {
      const views: RouteMapView[] = [];
      for (let i = 0; i < awbs.length; i += 100) {
        let keys: Array<Record<string, NativeAttributeValue>> = awbs
          .slice(i, i + 100)
          .map((awb) => ({ pk: pk(awb), sk: CURRENT }));
        for (let attempt = 0; keys.length > 0; attempt++) {
          if (attempt > 0)
            await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
          const result = await db().send(
            new BatchGetCommand({
              RequestItems: { [tableName]: { Keys: keys, ...VIEW_PROJECTION } },
            }),
          );
          views.push(...((result.Responses?.[tableName] as Item[] | undefined) ?? []).map(viewOf));
          keys = (result.UnprocessedKeys?.[tableName]?.Keys as typeof keys | undefined) ?? [];
          if (attempt > 8 && keys.length > 0) throw new Error("BatchGetItem kept leaving keys unprocessed");
        }
      }
      return views;
    },

    async snapshots(awb, now) {
      const items = await queryAll(
        {
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :snap)",
          // TTL deletion lags by up to days: expired snapshots are filtered out here as well.
          FilterExpression: "expiresAt > :now",
          ExpressionAttributeValues: { ":pk": pk(awb), ":snap": "SNAP#", ":now": epochSeconds(now) },
          ScanIndexForward: false,
        },
        Number.POSITIVE_INFINITY,
      );
      return items.map(snapshotOf);
    },

    async snapshotPage(awb, now, page) {
      // Keys only (newest first) to count and find the page, then the page's items themselves.
      const keys = await queryAll(
        {
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :snap)",
          FilterExpression: "expiresAt > :now",
          ExpressionAttributeValues: { ":pk": pk(awb), ":snap": "SNAP#", ":now": epochSeconds(now) },
          ProjectionExpression: "sk",
          ScanIndexForward: false,
        },
        Number.POSITIVE_INFINITY,
      );
      const start = (page.page - 1) * page.pageSize;
      const wanted = keys.slice(start, start + page.pageSize).map((item) => item.sk as string);
      const found = new Map<string, RouteMapSnapshot>();
      for (let i = 0; i < wanted.length; i += 100) {
        let batch: Array<Record<string, NativeAttributeValue>> = wanted
          .slice(i, i + 100)
          .map((sk) => ({ pk: pk(awb), sk }));
        for (let attempt = 0; batch.length > 0; attempt++) {
          if (attempt > 0)
            await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
          if (attempt > 10) throw new Error("BatchGetItem kept leaving snapshot keys unprocessed");
          const result = await db().send(
            new BatchGetCommand({
              RequestItems: {
                [tableName]: {
                  Keys: batch,
                  ProjectionExpression: "sk, routeMapJson, routeMapZ, codec, snapshotAt, src",
                },
              },
            }),
          );
          for (const item of (result.Responses?.[tableName] as Item[] | undefined) ?? []) {
            found.set(item.sk as string, snapshotOf(item));
          }
          batch = (result.UnprocessedKeys?.[tableName]?.Keys as typeof batch | undefined) ?? [];
        }
      }
      // A snapshot expired (deleted) between the two reads is left out.
      const items = wanted.flatMap((sk) => {
        const snapshot = found.get(sk);
        return snapshot ? [snapshot] : [];
      });
      return { total: keys.length, items };
    },
  };
}
