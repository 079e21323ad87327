import { describe, expect, it } from "vitest";
import { configFrom } from "../../../functions/adapters/config.ts";
import {
  DEFAULT_RATE_LIMIT,
  InProcessWindowCounter,
  type RateLimitConfig,
  RateLimiter,
  windowRefusal,
  windowSlots,
} from "../../../functions/core/rate-limit.ts";
import { rateLimitPolicy } from "../../../functions/http/middleware/rate-limit.ts";

describe("RateLimiter", () => {
  it("allows a burst, then refuses with a Retry-After, then refills with time", () => {
    const limiter = new RateLimiter({ ratePerSecond: 2, burst: 3 });
    const decisions = [0, 0, 0, 0].map(() => limiter.take("forwarder:A", 1_000));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]).toEqual({
      allowed: false,
      window: "second",
      limit: 3,
      windowSeconds: 2,
      retryAfterSeconds: 1,
    });
    // Another caller has its own bucket.
    expect(limiter.take("forwarder:B", 1_000).allowed).toBe(true);
    // Half a second refills one token at 2/s.
    expect(limiter.take("forwarder:A", 1_500).allowed).toBe(true);
    expect(limiter.take("forwarder:A", 1_500).allowed).toBe(false);
  });

  it("keeps memory bounded by dropping the least recently used callers", () => {
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 1 }, 2);
    limiter.take("a", 0);
    limiter.take("b", 0);
    limiter.take("c", 0); // drops "a"
    expect(limiter.take("a", 0).allowed).toBe(true); // fresh bucket again
    expect(limiter.take("c", 0).allowed).toBe(false);
  });

  it("reads its configuration from the environment, falling back to the documented defaults", () => {
    const rateLimitConfigFrom = (env: Record<string, string>) => configFrom(env).rateLimitTiers().defaults;
    expect(rateLimitConfigFrom({})).toEqual(DEFAULT_RATE_LIMIT);
    expect(DEFAULT_RATE_LIMIT).toEqual({
      ratePerSecond: 50,
      burst: 100,
      perMinute: 1_500,
      perHour: 30_000,
      perDay: 300_000,
    });
    expect(
      rateLimitConfigFrom({
        RATE_LIMIT_PER_SECOND: "5",
        RATE_LIMIT_BURST: "7",
        RATE_LIMIT_PER_MINUTE: "60",
        RATE_LIMIT_PER_HOUR: "600.9",
        RATE_LIMIT_PER_DAY: "6000",
      }),
    ).toEqual({ ratePerSecond: 5, burst: 7, perMinute: 60, perHour: 600, perDay: 6000 });
    // Empty is unset; anything else that is not a positive number fails, naming the variable.
    expect(rateLimitConfigFrom({ RATE_LIMIT_PER_DAY: "" })).toEqual(DEFAULT_RATE_LIMIT);
    expect(() => rateLimitConfigFrom({ RATE_LIMIT_PER_SECOND: "-1" })).toThrow(
      'RATE_LIMIT_PER_SECOND must be a positive number, got "-1"',
    );
    expect(() => rateLimitConfigFrom({ RATE_LIMIT_BURST: "x" })).toThrow(
      'RATE_LIMIT_BURST must be a positive number, got "x"',
    );
    expect(() => rateLimitConfigFrom({ RATE_LIMIT_PER_MINUTE: "0" })).toThrow(
      'RATE_LIMIT_PER_MINUTE must be a positive number, got "0"',
    );
    expect(() => rateLimitConfigFrom({ RATE_LIMIT_PER_HOUR: "Infinity" })).toThrow(
      'RATE_LIMIT_PER_HOUR must be a positive number, got "Infinity"',
    );
  });
});

describe("rate-limit windows", () => {
  const limits: RateLimitConfig = { ratePerSecond: 50, burst: 100, perMinute: 3, perHour: 5, perDay: 7 };
  const at = Date.UTC(2026, 10, 24, 10, 59, 30, 250);

  it("places a request in its UTC minute, hour and day", () => {
    expect(windowSlots(limits, at)).toEqual([
      {
        window: "minute",
        limit: 3,
        startMs: Date.UTC(2026, 10, 24, 10, 59),
        endMs: Date.UTC(2026, 10, 24, 11, 0),
      },
      { window: "hour", limit: 5, startMs: Date.UTC(2026, 10, 24, 10), endMs: Date.UTC(2026, 10, 24, 11) },
      { window: "day", limit: 7, startMs: Date.UTC(2026, 10, 24), endMs: Date.UTC(2026, 10, 25) },
    ]);
  });

  it("names the refused window that resets last, with the seconds until it does", () => {
    const [minute, hour] = windowSlots(limits, at);
    expect(windowRefusal([], at)).toBeNull();
    expect(windowRefusal([minute!], at)).toEqual({
      allowed: false,
      window: "minute",
      limit: 3,
      windowSeconds: 60,
      retryAfterSeconds: 30,
    });
    expect(windowRefusal([minute!, hour!], at)).toMatchObject({ window: "hour", retryAfterSeconds: 30 });
    const early = Date.UTC(2026, 10, 24, 10, 0, 0, 1);
    expect(windowRefusal(windowSlots(limits, early).slice(1, 2), early)).toMatchObject({
      window: "hour",
      retryAfterSeconds: 3600,
    });
  });

  it("the in-process counter admits each window's limit, all or nothing, per caller", async () => {
    const counter = new InProcessWindowCounter();
    const slots = windowSlots(limits, at);
    const refusedWindows = async (caller: string, when = slots) =>
      (await counter.take(caller, when)).refused.map((slot) => slot.window);
    for (let i = 0; i < 3; i++) expect(await refusedWindows("a")).toEqual([]);
    expect(await refusedWindows("a")).toEqual(["minute"]);
    expect(await refusedWindows("b")).toEqual([]);
    // 10:59:30 -> 11:00:30 is a new minute and a new hour; the day holds 3 (the refusal was not counted).
    const next = windowSlots(limits, at + 60_000);
    for (let i = 0; i < 3; i++) expect(await refusedWindows("a", next)).toEqual([]);
    expect(await refusedWindows("a", next)).toEqual(["minute"]);
    const later = windowSlots(limits, at + 120_000);
    expect(await refusedWindows("a", later)).toEqual([]);
    expect(await refusedWindows("a", later)).toEqual(["day"]);
  });

  it("keeps the in-process counter bounded: ended windows are dropped first", async () => {
    const counter = new InProcessWindowCounter(6);
    for (const caller of ["a", "b", "c"]) await counter.take(caller, windowSlots(limits, at));
    // Three more callers a day later: the old day's counters go, memory stays at the bound.
    for (const caller of ["d", "e", "f"]) await counter.take(caller, windowSlots(limits, at + 86_400_000));
    expect((await counter.take("a", windowSlots(limits, at + 86_400_000))).refused).toEqual([]);
  });

  it("publishes every limit as a RateLimit-Policy", () => {
    expect(rateLimitPolicy(limits)).toBe(
      '"second";q=100;w=2, "minute";q=3;w=60, "hour";q=5;w=3600, "day";q=7;w=86400',
    );
  });
});
