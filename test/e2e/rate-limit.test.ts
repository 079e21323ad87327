/**
 * Limits: the per-caller rate limit through the real local runner (where it is exact: one
 * process). A low limit is configured so the test needs a handful of requests, not hundreds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";

let stack: RunningStack;
const BURST = 3;
const PATH = "/ffw/service/routemap/02012345675";

beforeAll(async () => {
  // One request per 10 s refills the bucket far slower than this test runs.
  stack = await startRunner({ RATE_LIMIT_PER_SECOND: "0.1", RATE_LIMIT_BURST: String(BURST) });
});

afterAll(async () => {
  await stack?.stop();
});

describe("per-caller rate limit", () => {
  it("answers 429 problem+json with Retry-After once a caller's burst is spent, and only for that caller", async () => {
    const busy = tokens.forwarder("ACMECARGO", "1234567", "0001");
    const statuses: number[] = [];
    for (let i = 0; i < BURST; i++)
      statuses.push((await call(stack.url, "GET", PATH, { token: busy })).status);
    // Within the burst the handler answers (the AWB is unknown: 404).
    expect(statuses).toEqual([404, 404, 404]);

    const limited = await call(stack.url, "GET", PATH, { token: busy });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toContain("application/problem+json");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(limited.body).toMatchObject({ status: 429, title: expect.any(String), errors: [] });

    // Another forwarder has its own bucket.
    const other = tokens.forwarder("FWD2", "7654321", "0042");
    expect((await call(stack.url, "GET", PATH, { token: other })).status).toBe(404);
  });
});
