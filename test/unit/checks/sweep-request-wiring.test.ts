/**
 * The rule routes' sweep queue (functions/wiring.ts bestEffortProActiveSweeps): a request that cannot
 * be queued is logged as an error and does not fail the request, whose rule is already stored (a
 * client retrying a 5xx POST would create a duplicate rule).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "../../../functions/adapters/logger.ts";
import { bestEffortProActiveSweeps as proActiveSweeps } from "../../../functions/wiring.ts";

const saved = { ...process.env };
beforeAll(() => {
  // Nothing listens on port 9 locally: every send fails at once (connection refused).
  Object.assign(process.env, {
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:9",
    AWS_MAX_ATTEMPTS: "1",
    DUE_CHECKS_QUEUE_URL: "http://127.0.0.1:9/000000000000/DueChecks",
  });
});
afterAll(() => {
  process.env = saved;
});

describe("rule routes: sweep request wiring", () => {
  it("a sweep that cannot be queued is logged, not thrown", async () => {
    const errors = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const sweep = {
      kind: "proactive-sweep" as const,
      ruleId: 7,
      forwarderId: "ACMECARGO",
      ruleUpdatedAt: "2026-03-13T10:00:00Z",
      cursor: null,
    };
    await expect(proActiveSweeps().request(sweep)).resolves.toBeUndefined();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[0]).toMatch(/ProActive sweep not queued/);
    expect(errors.mock.calls[0]?.[1]).toMatchObject({ ruleId: 7, forwarderId: "ACMECARGO" });
  });
});
