/**
 * The rate-limit middleware's windows through the real pipeline, over a stand-in counter: a full
 * window answers 429 naming it (detail and headers); a counter that cannot be reached lets the
 * request through and logs the error (fail open).
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configFrom } from "../../../functions/adapters/config.ts";
import type { RateLimitCounter } from "../../../functions/core/ports/rate-limits.ts";
import { InProcessWindowCounter, RateLimiter } from "../../../functions/core/rate-limit.ts";
import { httpRoute } from "../../../functions/http/pipeline.ts";

let counter: RateLimitCounter = new InProcessWindowCounter();

const context = { awsRequestId: "lambda-request-id" } as Context;
const event = (sub: string) =>
  ({
    resource: "/support/carriers/{prefix}",
    path: "/support/carriers/020",
    httpMethod: "GET",
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { prefix: "020" },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: `req-${sub}`, authorizer: { role: "support", sub } } as never,
  }) as APIGatewayProxyEvent;

type Handler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<{ statusCode: number; headers?: Record<string, unknown>; body: string }>;
// The route's pipeline deps, as functions/wiring.ts builds them: the limits from the environment, and
// the counter each test sets.
const tiers = configFrom({ RATE_LIMIT_PER_MINUTE: "2" }).rateLimitTiers();
const limiter = new RateLimiter(tiers.defaults);
const handler = httpRoute("get-carrier", {}, () => ({ rateLimit: { tiers, limiter, counter } })).handle(
  async () => ({ status: 200, body: {} }),
) as unknown as Handler;

afterEach(() => {
  counter = new InProcessWindowCounter();
  vi.restoreAllMocks();
});

describe("rate-limit windows in the pipeline", () => {
  it("answers 429 naming the per-minute window once it is used up", async () => {
    expect((await handler(event("minute-tester"), context)).statusCode).toBe(200);
    expect((await handler(event("minute-tester"), context)).statusCode).toBe(200);
    const limited = await handler(event("minute-tester"), context);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({
      "x-ratelimit-window": "minute",
      "x-ratelimit-limit": "2",
      "retry-after": expect.stringMatching(/^\d+$/),
      "ratelimit-policy": expect.stringContaining('"minute";q=2;w=60'),
      ratelimit: expect.stringMatching(/^"minute";r=0;t=\d+$/),
    });
    expect(Number(limited.headers?.["retry-after"])).toBeLessThanOrEqual(60);
    expect(JSON.parse(limited.body)).toMatchObject({
      type: "https://route-map-tracker.dev/problems/rate-limited",
      status: 429,
      detail: expect.stringContaining("per-minute limit of 2 requests"),
      errors: [],
    });
  });

  it("lets the request through and logs when the counter cannot be reached", async () => {
    const { logger } = await import("../../../functions/adapters/logger.ts");
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    counter = { take: async () => Promise.reject(new Error("ProvisionedThroughputExceededException")) };
    for (let i = 0; i < 3; i++) expect((await handler(event("outage-tester"), context)).statusCode).toBe(200);
    expect(logged).toHaveBeenCalledWith(
      "rate-limit counter unavailable: request let through",
      expect.objectContaining({ caller: "support:outage-tester" }),
    );
  });
});
