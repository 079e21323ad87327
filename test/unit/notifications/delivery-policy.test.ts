import { describe, expect, it } from "vitest";
import { retryAfterFloorSeconds } from "../../../functions/core/notifications/delivery-policy.ts";
import {
  classifyOutcome,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_SECONDS,
  MIN_RETRY_AFTER_SECONDS,
  nextAttemptDelay,
  parseRetryAfter,
  RETRY_SCHEDULE_SECONDS,
  retryDelaySeconds,
  splitDelay,
} from "../../../functions/core/notifications/index.ts";

const NOW = "2026-03-14T12:00:00Z";

describe("retryDelaySeconds", () => {
  it("follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h with the middle random number", () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelaySeconds(attempt, 0.5))).toEqual([
      5, 300, 1_800, 7_200, 18_000, 36_000,
    ]);
  });

  it("gives up after the last step", () => {
    expect(retryDelaySeconds(7, 0.5)).toBe("give-up");
    expect(retryDelaySeconds(100, 0.5)).toBe("give-up");
    expect(MAX_ATTEMPTS).toBe(7);
  });

  it("jitter stays within ±10 %", () => {
    RETRY_SCHEDULE_SECONDS.forEach((base, index) => {
      const low = retryDelaySeconds(index + 1, 0);
      const high = retryDelaySeconds(index + 1, 0.999_999);
      expect(low).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
      expect(high).toBeLessThanOrEqual(Math.ceil(base * 1.1));
      expect(high).toBeGreaterThanOrEqual(low as number);
      if (base >= 300) expect(high).toBeGreaterThan(low as number);
    });
  });

  it("refuses attempt numbers below 1", () => {
    expect(() => retryDelaySeconds(0, 0.5)).toThrow(RangeError);
  });
});

describe("classifyOutcome", () => {
  it.each([
    [200, "delivered"],
    [204, "delivered"],
    [202, "delivered"],
    [410, "gone"],
    [408, "retry"],
    [425, "retry"],
    [429, "retry"],
    [500, "retry"],
    [503, "retry"],
    ["timeout", "retry"],
    ["network-error", "retry"],
    [400, "rejected"],
    [401, "rejected"],
    [404, "rejected"],
    [301, "rejected"],
  ] as const)("%s -> %s", (status, expected) => {
    expect(classifyOutcome(status)).toBe(expected);
  });
});

describe("nextAttemptDelay", () => {
  const base = { attempt: 1, now: NOW, random: 0.5 };

  it("delivered, disabled on 410, parked on other 4xx", () => {
    expect(nextAttemptDelay({ ...base, status: 204 })).toEqual({ action: "delivered" });
    expect(nextAttemptDelay({ ...base, status: 410 })).toEqual({ action: "disable-webhook" });
    expect(nextAttemptDelay({ ...base, status: 400 })).toEqual({ action: "park", reason: "rejected" });
  });

  it("retries 5xx and timeouts on the schedule, parks after the last attempt", () => {
    expect(nextAttemptDelay({ ...base, status: 503 })).toEqual({ action: "retry", delaySeconds: 5 });
    expect(nextAttemptDelay({ ...base, attempt: 6, status: "timeout" })).toEqual({
      action: "retry",
      delaySeconds: 36_000,
    });
    expect(nextAttemptDelay({ ...base, attempt: 7, status: 500 })).toEqual({
      action: "park",
      reason: "retries-exhausted",
    });
    // Retry-After does not extend the number of attempts.
    expect(nextAttemptDelay({ ...base, attempt: 7, status: 429, retryAfterHeader: "10" })).toMatchObject({
      action: "park",
    });
  });

  it("a Retry-After longer than the scheduled wait is honoured (seconds and HTTP-date) within bounds", () => {
    // random 0: the Retry-After itself (its jitter only ever adds).
    const low = { ...base, random: 0 };
    expect(nextAttemptDelay({ ...low, status: 429, retryAfterHeader: "120" })).toEqual({
      action: "retry",
      delaySeconds: 120,
    });
    expect(
      nextAttemptDelay({ ...low, status: 503, retryAfterHeader: "Sat, 14 Mar 2026 12:10:00 GMT" }),
    ).toEqual({ action: "retry", delaySeconds: 600 });
    expect(nextAttemptDelay({ ...low, status: 429, retryAfterHeader: "999999" })).toEqual({
      action: "retry",
      delaySeconds: MAX_RETRY_AFTER_SECONDS,
    });
    // Unreadable: the schedule applies.
    expect(nextAttemptDelay({ ...base, status: 429, retryAfterHeader: "soon" })).toEqual({
      action: "retry",
      delaySeconds: 5,
    });
  });

  it("a short Retry-After never shortens the scheduled wait of that attempt", () => {
    // Retry-After 0/1 on every answer: the schedule still spreads the attempts over hours.
    const delays = [1, 2, 3, 4, 5, 6].map((attempt) =>
      nextAttemptDelay({ ...base, attempt, status: 429, retryAfterHeader: attempt % 2 ? "0" : "1" }),
    );
    expect(delays).toEqual(RETRY_SCHEDULE_SECONDS.map((delaySeconds) => ({ action: "retry", delaySeconds })));
    expect(nextAttemptDelay({ ...base, attempt: 2, status: 503, retryAfterHeader: "120" })).toEqual({
      action: "retry",
      delaySeconds: 300,
    });
    // A date in the past means "now": the schedule applies.
    expect(
      nextAttemptDelay({ ...base, status: 429, retryAfterHeader: "Sat, 14 Mar 2026 11:00:00 GMT" }),
    ).toEqual({ action: "retry", delaySeconds: 5 });
  });

  it("jitter applies to waits set by Retry-After too, but never below what the receiver asked", () => {
    const wait = (random: number) =>
      nextAttemptDelay({ ...base, random, status: 429, retryAfterHeader: "600" }) as { delaySeconds: number };
    const spread = [0, 0.25, 0.5, 0.75, 0.999_999].map((random) => wait(random).delaySeconds);
    expect(Math.min(...spread)).toBe(600);
    expect(Math.max(...spread)).toBe(720);
    expect(new Set(spread).size).toBe(spread.length);
    expect(retryAfterFloorSeconds(0, 0)).toBe(MIN_RETRY_AFTER_SECONDS);
    expect(retryAfterFloorSeconds(999_999, 0.5)).toBe(Math.ceil(MAX_RETRY_AFTER_SECONDS * 1.1));
  });

  it("the schedule scale shrinks the backoff but never a Retry-After", () => {
    const scaled = { ...base, attempt: 3, scheduleScale: 0.001 };
    expect(nextAttemptDelay({ ...scaled, status: 500 })).toEqual({ action: "retry", delaySeconds: 1.8 });
    expect(nextAttemptDelay({ ...scaled, status: 429, retryAfterHeader: "2", random: 0 })).toEqual({
      action: "retry",
      delaySeconds: 2,
    });
  });

  it("Retry-After on a success or a rejection changes nothing", () => {
    expect(nextAttemptDelay({ ...base, status: 200, retryAfterHeader: "60" })).toEqual({
      action: "delivered",
    });
    expect(nextAttemptDelay({ ...base, status: 403, retryAfterHeader: "60" })).toMatchObject({
      action: "park",
    });
  });

  it("parseRetryAfter reads delta-seconds and HTTP-dates only", () => {
    expect(parseRetryAfter("30", NOW)).toBe(30);
    expect(parseRetryAfter(" 30 ", NOW)).toBe(30);
    expect(parseRetryAfter("-5", NOW)).toBeNull();
    expect(parseRetryAfter("1.5", NOW)).toBeNull();
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
    expect(parseRetryAfter("2026-03-14", NOW)).toBeNull();
  });
});

describe("splitDelay", () => {
  it("SQS up to 15 minutes, Scheduler beyond", () => {
    expect(splitDelay(5)).toEqual({ via: "sqs", delaySeconds: 5 });
    expect(splitDelay(900)).toEqual({ via: "sqs", delaySeconds: 900 });
    expect(splitDelay(901)).toEqual({ via: "scheduler", delaySeconds: 901 });
    expect(splitDelay(36_000)).toEqual({ via: "scheduler", delaySeconds: 36_000 });
    expect(splitDelay(-3)).toEqual({ via: "sqs", delaySeconds: 0 });
  });
});
