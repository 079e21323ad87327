/**
 * Named rate-limit tiers: parsing and validation of RATE_LIMIT_TIERS /
 * RATE_LIMIT_CALLER_TIERS (functions/contracts/rate-limit-tiers.ts), tier selection
 * (functions/core/rate-limit.ts), and the middleware holding each caller to its tier.
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { optionsFromEnv } from "../../../bin/local/runner.ts";
import { configFrom } from "../../../functions/adapters/config.ts";
import { DEFAULT_TIER, parseRateLimitTiers } from "../../../functions/contracts/rate-limit-tiers.ts";
import {
  DEFAULT_RATE_LIMIT,
  InProcessWindowCounter,
  RateLimiter,
  tierFor,
} from "../../../functions/core/rate-limit.ts";
import { httpRoute, type PipelineDeps } from "../../../functions/http/pipeline.ts";

const DEFAULTS = { perSecond: 50, burst: 100, perMinute: 1_500, perHour: 30_000, perDay: 300_000 };
const SOURCES = { tiers: "RATE_LIMIT_TIERS", callerTiers: "RATE_LIMIT_CALLER_TIERS" };
const parse = (tiers: unknown, callerTiers?: unknown) =>
  parseRateLimitTiers(tiers, callerTiers, DEFAULTS, SOURCES);
/** The tiers as a function reads them from its environment (functions/adapters/config.ts). */
const rateLimitTiersFrom = (env: Record<string, string>) => configFrom(env).rateLimitTiers();

describe("parseRateLimitTiers", () => {
  it("fills members left out with the defaults, and keeps what was given apart", () => {
    const table = parse('{"gold":{"perMinute":6000,"perSecond":100}}', { "forwarder:ACMECARGO": "gold" });
    expect(table.tiers).toEqual({ gold: { ...DEFAULTS, perMinute: 6000, perSecond: 100 } });
    expect(table.given).toEqual({ gold: { perSecond: 100, perMinute: 6000 } });
    expect(table.callerTiers).toEqual({ "forwarder:ACMECARGO": "gold" });
  });

  it("accepts nothing (unset, empty) as no tiers, and objects as well as JSON strings", () => {
    expect(parse(undefined, undefined)).toEqual({ tiers: {}, callerTiers: {}, given: {} });
    expect(parse("", "")).toEqual({ tiers: {}, callerTiers: {}, given: {} });
    expect(parse({ silver: { perDay: 10 } }).tiers.silver?.perDay).toBe(10);
  });

  it("lets a caller name the default tier explicitly", () => {
    expect(parse("{}", '{"carrier:020":"default"}').callerTiers).toEqual({ "carrier:020": DEFAULT_TIER });
  });

  it.each([
    ["not JSON", "{gold", undefined, /RATE_LIMIT_TIERS must be a JSON object/],
    ["an array", "[]", undefined, /RATE_LIMIT_TIERS must be a JSON object/],
    ["a tier that is not an object", '{"gold":5}', undefined, /tier gold must be an object/],
    [
      "a fraction",
      '{"gold":{"perMinute":1.5}}',
      undefined,
      /tier gold member perMinute must be a whole number/,
    ],
    [
      "zero",
      '{"gold":{"burst":0}}',
      undefined,
      /tier gold member burst must be a whole number of at least 1/,
    ],
    ["a string number", '{"gold":{"perHour":"60"}}', undefined, /member perHour must be a whole number/],
    ["an unknown member", '{"gold":{"perMinutes":60}}', undefined, /tier gold has unknown member perMinutes/],
    ["a bad tier name", '{"gold tier":{}}', undefined, /RATE_LIMIT_TIERS: tier name "gold tier"/],
    ["the reserved name", '{"default":{}}', undefined, /tier name default is reserved/],
    ["callers not an object", "{}", '"gold"', /RATE_LIMIT_CALLER_TIERS must be a JSON object/],
    [
      "an unknown tier",
      '{"gold":{}}',
      '{"forwarder:ACMECARGO":"platinum"}',
      /caller forwarder:ACMECARGO names unknown tier "platinum"/,
    ],
    ["a tier that is not a name", '{"gold":{}}', '{"forwarder:ACMECARGO":1}', /names unknown tier 1/],
    [
      "a caller key without its kind",
      '{"gold":{}}',
      '{"ACMECARGO":"gold"}',
      /RATE_LIMIT_CALLER_TIERS: caller "ACMECARGO" must be forwarder:<id>/,
    ],
  ])("refuses %s with a message naming the setting", (_, tiers, callers, message) => {
    expect(() => parse(tiers, callers)).toThrow(message);
  });

  it("keeps a tier named __proto__ as data, never as a prototype", () => {
    const table = parse('{"__proto__":{"perMinute":7}}', '{"forwarder:X":"__proto__"}');
    expect(Object.hasOwn(table.tiers, "__proto__")).toBe(true);
    expect(table.callerTiers["forwarder:X"]).toBe("__proto__");
  });
});

describe("the local runner", () => {
  it("makes the local runner refuse wrong tiers at start", () => {
    expect(() => optionsFromEnv({ RATE_LIMIT_CALLER_TIERS: '{"forwarder:ACMECARGO":"gold"}' })).toThrow(
      /RATE_LIMIT_CALLER_TIERS: caller forwarder:ACMECARGO names unknown tier "gold"/,
    );
    expect(optionsFromEnv({ RATE_LIMIT_TIERS: '{"gold":{}}' }).port).toBe(3000);
  });
});

describe("rateLimitTiersFrom and tierFor", () => {
  const tiers = rateLimitTiersFrom({
    RATE_LIMIT_PER_MINUTE: "60",
    RATE_LIMIT_TIERS: '{"gold":{"perMinute":6000,"perSecond":200,"burst":400}}',
    RATE_LIMIT_CALLER_TIERS: '{"forwarder:ACMECARGO":"gold","carrier:020":"default"}',
  });

  it("holds a named caller to its tier, the members it leaves out from RATE_LIMIT_PER_*", () => {
    expect(tierFor(tiers, "forwarder:ACMECARGO")).toEqual({
      name: "gold",
      config: { ratePerSecond: 200, burst: 400, perMinute: 6000, perHour: 30_000, perDay: 300_000 },
    });
  });

  it("holds every other caller to the default tier", () => {
    const defaults = { ...DEFAULT_RATE_LIMIT, perMinute: 60 };
    expect(tierFor(tiers, "forwarder:FWD2")).toEqual({ name: "default", config: defaults });
    expect(tierFor(tiers, "carrier:020")).toEqual({ name: "default", config: defaults });
    // Caller keys are exact: another kind of caller with the same id is not in the tier.
    expect(tierFor(tiers, "support:ACMECARGO").name).toBe("default");
  });

  it("fails at the container's start on a caller naming an unknown tier", () => {
    expect(() => rateLimitTiersFrom({ RATE_LIMIT_CALLER_TIERS: '{"forwarder:ACMECARGO":"gold"}' })).toThrow(
      /RATE_LIMIT_CALLER_TIERS: caller forwarder:ACMECARGO names unknown tier "gold"/,
    );
  });

  it("applies a tier's bucket to its caller only (RateLimiter.take with the tier's config)", () => {
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 1 });
    expect([limiter.take("a", 0), limiter.take("a", 0)].map((d) => d.allowed)).toEqual([true, false]);
    const wide = { ratePerSecond: 1, burst: 3 };
    const taken = [0, 0, 0, 0].map(() => limiter.take("b", 0, wide));
    expect(taken.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(taken[3]).toMatchObject({ window: "second", limit: 3 });
  });
});

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

describe("the middleware applies the caller's tier", () => {
  // The route's pipeline deps, as functions/wiring.ts builds them from the environment.
  const tiers = rateLimitTiersFrom({
    RATE_LIMIT_BURST: "2",
    RATE_LIMIT_PER_SECOND: "1",
    RATE_LIMIT_TIERS: '{"bulk":{"burst":4},"capped":{"perHour":1}}',
    RATE_LIMIT_CALLER_TIERS: '{"support:bulk-user":"bulk","support:capped-user":"capped"}',
  });
  const deps: PipelineDeps = {
    rateLimit: { tiers, limiter: new RateLimiter(tiers.defaults), counter: new InProcessWindowCounter() },
  };
  const handler = httpRoute("get-carrier", {}, () => deps).handle(async () => ({
    status: 200,
    body: {},
  })) as unknown as Handler;

  const statuses = async (sub: string, count: number) => {
    const answers = [];
    for (let i = 0; i < count; i++) answers.push(await handler(event(sub), context));
    return answers;
  };

  it("gives the tier's burst to its caller and the default burst to others; 429 names the tier", async () => {
    const plain = await statuses("plain-user", 3);
    expect(plain.map((answer) => answer.statusCode)).toEqual([200, 200, 429]);
    expect(JSON.parse(plain[2]?.body ?? "{}").detail).toContain(
      "the per-second (burst) limit of 2 requests of tier default is used up",
    );
    const bulk = await statuses("bulk-user", 5);
    expect(bulk.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 429]);
    expect(bulk[4]?.headers).toMatchObject({ "x-ratelimit-window": "second", "x-ratelimit-limit": "4" });
    expect(JSON.parse(bulk[4]?.body ?? "{}").detail).toContain("limit of 4 requests of tier bulk");
  });

  it("counts the tier's windows: the per-hour limit of tier capped", async () => {
    const capped = await statuses("capped-user", 2);
    expect(capped.map((answer) => answer.statusCode)).toEqual([200, 429]);
    expect(capped[1]?.headers).toMatchObject({
      "x-ratelimit-window": "hour",
      "x-ratelimit-limit": "1",
      "ratelimit-policy": expect.stringContaining('"hour";q=1;w=3600'),
    });
    expect(JSON.parse(capped[1]?.body ?? "{}").detail).toContain(
      "the per-hour limit of 1 requests of tier capped is used up",
    );
  });
});
