/**
 * The rate-limit windows' counters in the RateLimits table (RateLimitCounter port), shared by every
 * container of every route, so a caller's minute/hour/day limits are exact across the fleet.
 *
 * Layout: one item per caller,
 *   pk = <caller>   mS, mN (minute start, epoch ms; requests in it)   hS, hN (hour)   dS, dN (day)
 *   expiresAt (TTL: an hour after the current day window ends)
 * A request is one conditional UpdateItem on that item, all windows at once (all or nothing, one write
 * unit): usually `ADD mN 1, hN 1, dN 1` while every start is current and every count under its limit.
 * When that condition fails, the item's old image (ReturnValuesOnConditionCheckFailure) says why: a
 * full window refuses the request (nothing is written, so a refused request uses no quota), a window
 * that has ended is restarted at 1 on the condition that it still holds what was read (optimistic,
 * retried on a race). No window ever admits more than its limit, whatever the concurrency.
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { type NativeAttributeValue, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { RateLimitCounter, WindowTake } from "../core/ports/rate-limits.ts";
import type { RateWindow, WindowSlot } from "../core/rate-limit.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isConditionFailure } from "./dynamo-errors.ts";

type Item = Record<string, NativeAttributeValue>;

const EXPIRY_AFTER_WINDOW_SECONDS = 3600;
/** Optimistic rounds before giving up (the middleware then lets the request through, logged). */
const MAX_ROUNDS = 8;
const PREFIX: Readonly<Record<RateWindow, string>> = { minute: "m", hour: "h", day: "d" };

interface Update {
  expression: string;
  condition: string;
  values: Item;
}

/** The write for one request given what the item held (null: assume every window is current). */
function plan(slots: readonly WindowSlot[], stored: Item | null): { refused: WindowSlot[]; update: Update } {
  const sets: string[] = [];
  const adds: string[] = [];
  const conditions: string[] = [];
  const values: Item = { ":one": 1 };
  const refused: WindowSlot[] = [];
  for (const slot of slots) {
    const p = PREFIX[slot.window];
    const storedStart = stored ? (stored[`${p}S`] as number | undefined) : slot.startMs;
    const storedCount = stored ? ((stored[`${p}N`] as number | undefined) ?? 0) : 0;
    // A window that started later than this container thinks (clock skew) is the current one.
    if (storedStart !== undefined && storedStart >= slot.startMs) {
      if (storedCount >= slot.limit) refused.push(slot);
      values[`:${p}S`] = storedStart;
      values[`:${p}L`] = slot.limit;
      adds.push(`${p}N :one`);
      conditions.push(`${p}S = :${p}S AND ${p}N < :${p}L`);
    } else {
      values[`:${p}S`] = slot.startMs;
      sets.push(`${p}S = :${p}S`, `${p}N = :one`);
      if (storedStart === undefined) conditions.push(`attribute_not_exists(${p}S)`);
      else {
        values[`:${p}Old`] = storedStart;
        conditions.push(`${p}S = :${p}Old`);
      }
    }
  }
  const dayEnd = Math.max(...slots.map((slot) => slot.endMs));
  values[":expiresAt"] = Math.ceil(dayEnd / 1000) + EXPIRY_AFTER_WINDOW_SECONDS;
  sets.push("expiresAt = :expiresAt");
  return {
    refused,
    update: {
      expression: `SET ${sets.join(", ")}${adds.length > 0 ? ` ADD ${adds.join(", ")}` : ""}`,
      condition: conditions.join(" AND "),
      values,
    },
  };
}

export function dynamoRateLimitCounter(tableName = config.table("rateLimits")): RateLimitCounter {
  return {
    async take(caller, slots): Promise<WindowTake> {
      if (slots.length === 0) return { refused: [] };
      let stored: Item | null = null;
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const { refused, update } = plan(slots, stored);
        if (refused.length > 0) return { refused };
        try {
          await dynamo().send(
            new UpdateCommand({
              TableName: tableName,
              Key: { pk: caller },
              UpdateExpression: update.expression,
              ConditionExpression: update.condition,
              ExpressionAttributeValues: update.values,
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            }),
          );
          return { refused: [] };
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          const old = (error as { Item?: Record<string, AttributeValue> }).Item;
          stored = old ? unmarshall(old) : {};
        }
      }
      throw new Error(`rate-limit counter of ${caller}: still contended after ${MAX_ROUNDS} rounds`);
    },
  };
}
