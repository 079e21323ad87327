import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMIT, RateLimiter, rateLimitConfigFrom } from "../../../functions/core/rate-limit.ts";

describe("RateLimiter", () => {
  it("allows a burst, then refuses with a Retry-After, then refills with time", () => {
    const limiter = new RateLimiter({ ratePerSecond: 2, burst: 3 });
    const decisions = [0, 0, 0, 0].map(() => limiter.take("forwarder:A", 1_000));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]).toEqual({ allowed: false, retryAfterSeconds: 1 });
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
    expect(rateLimitConfigFrom({})).toEqual(DEFAULT_RATE_LIMIT);
    expect(rateLimitConfigFrom({ RATE_LIMIT_PER_SECOND: "5", RATE_LIMIT_BURST: "7" })).toEqual({
      ratePerSecond: 5,
      burst: 7,
    });
    expect(rateLimitConfigFrom({ RATE_LIMIT_PER_SECOND: "-1", RATE_LIMIT_BURST: "x" })).toEqual(
      DEFAULT_RATE_LIMIT,
    );
  });
});
