/**
 * The predictions' DynamoDB side (key layouts in functions/contracts/resources.ts):
 *
 * - lane statistics in the Deliveries table, `LANE#<item>` / `STATS`, one flat map of counters per
 *   item, applied with one `ADD` update per item (atomic, order-free, no read first); never expire;
 * - the predictions kept per horizon, `ETA#<prefix>#<serial>` / `H#<horizon>`, the milestones as
 *   DEFLATE-compressed JSON (DynamoDB bills per started KB: one write unit for most journeys), 30 days
 *   after they were made (TTL expiresAt, like history);
 * - scored route maps, one item each under the day they completed, `ETASCORE#<yyyy-mm-dd>` /
 *   `<owner>#<prefix>#<serial>`, 30 days: an accuracy read queries at most 30 partitions, a forwarder's
 *   with `begins_with` on its owner key, and a busy day's writes spread over no hot owner partition;
 * - stations' minimum connection times in the Subscriptions table beside the carriers' settings,
 *   `STATION#<code>` / `SETTINGS`.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { BatchGetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { awbKey } from "../core/awb.ts";
import type { LaneStatsStore, PredictionStore, StationSettings } from "../core/ports/predictions.ts";
import type { LaneCounters } from "../core/predictions/lane-stats.ts";
import type { HorizonPrediction, ScoredMilestone, ScoredRouteMap } from "../core/predictions/scoring.ts";
import { dynamo } from "./aws-clients.ts";
import { nowMs } from "./clock.ts";
import { config } from "./config.ts";

/** Kept and scored predictions live as long as a route map's history. */
export const PREDICTION_RETENTION_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;
/** BatchGetItem's limit per call. */
const BATCH_GET_LIMIT = 100;

const expiresAtOf = (iso: string) =>
  Math.floor(Date.parse(iso) / 1000) + PREDICTION_RETENTION_DAYS * 24 * 3600;
const isExpired = (item: Record<string, unknown>) =>
  typeof item.expiresAt === "number" && item.expiresAt <= Math.floor(nowMs() / 1000);

const laneKey = (item: string) => ({ pk: `LANE#${item}`, sk: "STATS" });

export function dynamoLaneStatsStore(tableName = config.table("deliveries")): LaneStatsStore {
  return {
    async read(items) {
      const found = new Map<string, LaneCounters>();
      const unique = [...new Set(items)];
      for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) {
        let keys: Array<Record<string, unknown>> = unique.slice(i, i + BATCH_GET_LIMIT).map(laneKey);
        // Unprocessed keys (throttling) are asked again until none is left.
        while (keys.length > 0) {
          const result = await dynamo().send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } }),
          );
          for (const item of result.Responses?.[tableName] ?? []) {
            const { pk, sk: _sk, ...counters } = item;
            found.set(String(pk).slice("LANE#".length), counters as LaneCounters);
          }
          keys = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Array<Record<string, unknown>>;
        }
      }
      return found;
    },
    async add(increments) {
      for (const [item, counters] of increments) {
        if (counters.size === 0) continue;
        const names: Record<string, string> = {};
        const values: Record<string, number> = {};
        const parts: string[] = [];
        [...counters].forEach(([attribute, amount], index) => {
          names[`#a${index}`] = attribute;
          values[`:v${index}`] = amount;
          parts.push(`#a${index} :v${index}`);
        });
        await dynamo().send(
          new UpdateCommand({
            TableName: tableName,
            Key: laneKey(item),
            UpdateExpression: `ADD ${parts.join(", ")}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
      }
    },
  };
}

const scoreDay = (iso: string) => iso.slice(0, 10);
/** An owner key in a sort key; scored route maps without an owner (no FWB) sort under `-`. */
const ownerPart = (ownerKey: string | null) => ownerKey ?? "-";

/** Scores stored compactly: [milestone, horizon, error, covered, plan error, plan covered]. */
type StoredScore = [string, string, number, 0 | 1, number, 0 | 1];

export function dynamoPredictionStore(tableName = config.table("deliveries")): PredictionStore {
  return {
    async putHorizon(awb, prediction) {
      await dynamo().send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: `ETA#${awbKey(awb)}`,
            sk: `H#${prediction.horizon}`,
            madeAt: prediction.madeAt,
            milestonesZ: deflateRawSync(Buffer.from(JSON.stringify(prediction.milestones), "utf8")),
            expiresAt: expiresAtOf(prediction.madeAt),
          },
        }),
      );
    },
    async horizons(awb) {
      const result = await dynamo().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :h)",
          ExpressionAttributeValues: { ":pk": `ETA#${awbKey(awb)}`, ":h": "H#" },
        }),
      );
      return (result.Items ?? [])
        .filter((item) => !isExpired(item))
        .map(
          (item): HorizonPrediction => ({
            horizon: String(item.sk).slice(2) as HorizonPrediction["horizon"],
            madeAt: item.madeAt as string,
            milestones: JSON.parse(inflateRawSync(item.milestonesZ as Uint8Array).toString("utf8")),
          }),
        );
    },
    async putScored(scored) {
      const scores: StoredScore[] = scored.scores.map((s) => [
        s.name,
        s.horizon,
        s.errorMinutes,
        s.covered ? 1 : 0,
        s.planErrorMinutes,
        s.planCovered ? 1 : 0,
      ]);
      await dynamo().send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: `ETASCORE#${scoreDay(scored.completedAt)}`,
            sk: `${ownerPart(scored.ownerKey)}#${scored.awb}`,
            awb: scored.awb,
            ...(scored.ownerKey ? { ownerKey: scored.ownerKey } : {}),
            lane: scored.lane,
            completedAt: scored.completedAt,
            scoresZ: deflateRawSync(Buffer.from(JSON.stringify(scores), "utf8")),
            expiresAt: expiresAtOf(scored.completedAt),
          },
        }),
      );
    },
    async scored({ ownerKey, since }) {
      const found: ScoredRouteMap[] = [];
      const last = scoreDay(new Date(nowMs()).toISOString());
      // Never more than the retention's days, whatever `since` asks for.
      const first = Math.max(
        Date.parse(`${scoreDay(since)}T00:00:00Z`),
        nowMs() - PREDICTION_RETENTION_DAYS * DAY_MS,
      );
      for (let day = Date.parse(`${scoreDay(new Date(first).toISOString())}T00:00:00Z`); ; day += DAY_MS) {
        const pk = `ETASCORE#${scoreDay(new Date(day).toISOString())}`;
        let startKey: Record<string, unknown> | undefined;
        do {
          const result = await dynamo().send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: ownerKey ? "pk = :pk AND begins_with(sk, :owner)" : "pk = :pk",
              ExpressionAttributeValues: { ":pk": pk, ...(ownerKey ? { ":owner": `${ownerKey}#` } : {}) },
              ExclusiveStartKey: startKey,
            }),
          );
          for (const item of result.Items ?? []) {
            if (isExpired(item) || (item.completedAt as string) < since) continue;
            const stored = JSON.parse(
              inflateRawSync(item.scoresZ as Uint8Array).toString("utf8"),
            ) as StoredScore[];
            found.push({
              awb: item.awb as string,
              ownerKey: (item.ownerKey as string | undefined) ?? null,
              lane: item.lane as string,
              completedAt: item.completedAt as string,
              scores: stored.map(
                ([name, horizon, error, covered, planError, planCovered]): ScoredMilestone => ({
                  name: name as ScoredMilestone["name"],
                  horizon: horizon as ScoredMilestone["horizon"],
                  errorMinutes: error,
                  covered: covered === 1,
                  planErrorMinutes: planError,
                  planCovered: planCovered === 1,
                }),
              ),
            });
          }
          startKey = result.LastEvaluatedKey;
        } while (startKey);
        if (scoreDay(new Date(day).toISOString()) >= last) break;
      }
      return found;
    },
  };
}

const stationKey = (code: string) => ({ pk: `STATION#${code}`, sk: "SETTINGS" });

export function dynamoStationSettings(tableName = config.table("subscriptions")): StationSettings {
  return {
    async minimumConnectionTimes(stations) {
      const found = new Map<string, number>();
      const unique = [...new Set(stations)];
      for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) {
        let keys: Array<Record<string, unknown>> = unique.slice(i, i + BATCH_GET_LIMIT).map(stationKey);
        while (keys.length > 0) {
          const result = await dynamo().send(
            new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } }),
          );
          for (const item of result.Responses?.[tableName] ?? []) {
            if (typeof item.minimumConnectionMinutes === "number") {
              found.set(String(item.pk).slice("STATION#".length), item.minimumConnectionMinutes);
            }
          }
          keys = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Array<Record<string, unknown>>;
        }
      }
      return found;
    },
    async setMinimumConnectionTime(station, minutes, now) {
      await dynamo().send(
        new PutCommand({
          TableName: tableName,
          Item: { ...stationKey(station), minimumConnectionMinutes: minutes, updatedAt: now },
        }),
      );
    },
  };
}
