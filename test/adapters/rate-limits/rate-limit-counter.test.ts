/**
 * The DynamoDB rate-limit counter (functions/adapters/rate-limit-counter.ts) against DynamoDB Local:
 * windows admit exactly their limit whatever the concurrency (two counters stand for two Lambda
 * containers), a refused request counts in no window, and every counter item expires after its window.
 * The in-process counter runs the same behaviour checks.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateLimitCounter } from "../../../functions/core/ports/rate-limits.ts";
import {
  InProcessWindowCounter,
  type RateLimitConfig,
  type WindowSlot,
  windowSlots,
} from "../../../functions/core/rate-limit.ts";
import { scaled } from "../../support/time.ts";
import { type LocalTables, startLocalTables } from "../subscriptions/dynamo-local.ts";

const LIMITS: RateLimitConfig = { ratePerSecond: 50, burst: 100, perMinute: 3, perHour: 5, perDay: 100 };
const NOW = Date.UTC(2026, 10, 24, 10, 0, 30);

let local: LocalTables;
let containerA: RateLimitCounter;
let containerB: RateLimitCounter;

beforeAll(async () => {
  local = await startLocalTables();
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoRateLimitCounter } = await import("../../../functions/adapters/rate-limit-counter.ts");
  containerA = dynamoRateLimitCounter();
  containerB = dynamoRateLimitCounter();
}, scaled(60_000));

afterAll(async () => {
  await local?.stop();
});

let callers = 0;
const freshCaller = () => `forwarder:rl-${++callers}-${Math.random().toString(36).slice(2, 8)}`;

function behaviour(name: string, counters: () => [RateLimitCounter, RateLimitCounter]) {
  describe(name, () => {
    it("admits the minute's limit, then refuses naming the full window", async () => {
      const [counter] = counters();
      const caller = freshCaller();
      const slots = windowSlots(LIMITS, NOW);
      for (let i = 0; i < 3; i++) expect((await counter.take(caller, slots)).refused).toEqual([]);
      const refused = (await counter.take(caller, slots)).refused;
      expect(refused.map((slot) => slot.window)).toEqual(["minute"]);
      // The next minute admits again, until the hour (5) is full: the refused request was not counted.
      const next = windowSlots(LIMITS, NOW + 60_000);
      expect((await counter.take(caller, next)).refused).toEqual([]);
      expect((await counter.take(caller, next)).refused).toEqual([]);
      expect((await counter.take(caller, next)).refused.map((slot) => slot.window)).toEqual(["hour"]);
      // Another caller is untouched.
      expect((await counter.take(freshCaller(), slots)).refused).toEqual([]);
    });

    it("admits exactly the limit of 40 simultaneous requests from two containers", async () => {
      const [a, b] = counters();
      const caller = freshCaller();
      const slots = windowSlots(LIMITS, NOW);
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).take(caller, slots)),
      );
      expect(outcomes.filter((outcome) => outcome.refused.length === 0)).toHaveLength(3);
    });
  });
}

behaviour("DynamoDB counter (DynamoDB Local)", () => [containerA, containerB]);
const inProcess = new InProcessWindowCounter();
behaviour("in-process counter", () => [inProcess, inProcess]);

describe("DynamoDB layout", () => {
  it("one item per caller with each window's start and count (admitted requests only) and a TTL an hour after the day", async () => {
    const caller = freshCaller();
    const read = async () =>
      (
        await local.doc.send(
          new GetCommand({ TableName: local.tables.RATE_LIMITS_TABLE, Key: { pk: caller } }),
        )
      ).Item;
    const slots = windowSlots(LIMITS, NOW);
    for (let i = 0; i < 4; i++) await containerA.take(caller, slots);
    const [minute, hour, day] = slots as [WindowSlot, WindowSlot, WindowSlot];
    // 4 requests, the 4th refused by the minute: counted nowhere.
    expect(await read()).toMatchObject({
      mS: minute.startMs,
      mN: 3,
      hS: hour.startMs,
      hN: 3,
      dS: day.startMs,
      dN: 3,
      expiresAt: day.endMs / 1000 + 3600,
    });
    // The next minute restarts the minute's count and keeps counting the hour and the day.
    await containerB.take(caller, windowSlots(LIMITS, NOW + 60_000));
    expect(await read()).toMatchObject({ mS: minute.startMs + 60_000, mN: 1, hN: 4, dN: 4 });
  });

  it("throws when the table cannot be written (the middleware then lets the request through)", async () => {
    const { dynamoRateLimitCounter } = await import("../../../functions/adapters/rate-limit-counter.ts");
    await expect(
      dynamoRateLimitCounter("NoSuchTable").take(freshCaller(), windowSlots(LIMITS, NOW)),
    ).rejects.toThrow();
  });
});
