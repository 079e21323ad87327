/** lib/app-context.ts: deploy-time settings from CDK context, as `-c` strings or cdk.json values. */
import { App } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { stackPropsFromContext } from "../../lib/app-context.ts";
import { DEFAULT_RATE_LIMIT, validatedRateLimitTiers } from "../../lib/route-map-tracker-stack.ts";

const propsWith = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node);

describe("stackPropsFromContext", () => {
  const WINDOWS = { perMinute: 1_500, perHour: 30_000, perDay: 300_000 };

  it("defaults the per-caller rate limit to 50/s with a burst of 100, 1,500/min, 30,000/h, 300,000/day", () => {
    expect(propsWith({}).rateLimit).toEqual({ perSecond: 50, burst: 100, ...WINDOWS });
  });

  it("reads the minute, hour and day windows, whole numbers of at least 1", () => {
    expect(
      propsWith({ rateLimitPerMinute: "60", rateLimitPerHour: 600, rateLimitPerDay: "6000" }).rateLimit,
    ).toMatchObject({ perMinute: 60, perHour: 600, perDay: 6000 });
    expect(() => propsWith({ rateLimitPerMinute: "1.5" })).toThrow(/rateLimitPerMinute/);
    expect(() => propsWith({ rateLimitPerHour: 0 })).toThrow(/rateLimitPerHour/);
    expect(() => propsWith({ rateLimitPerDay: "many" })).toThrow(/rateLimitPerDay/);
  });

  it("reads the token audience and maximum lifetime (default 24 h)", () => {
    expect(propsWith({}).jwtMaxLifetimeSeconds).toBe(86_400);
    expect(propsWith({ jwtAudience: "aud-1", jwtMaxLifetimeSeconds: "3600" })).toMatchObject({
      jwtAudience: "aud-1",
      jwtMaxLifetimeSeconds: 3600,
    });
    expect(() => propsWith({ jwtMaxLifetimeSeconds: "0" })).toThrow(/jwtMaxLifetimeSeconds/);
  });

  it("reads rateLimitPerSecond and rateLimitBurst from -c strings and cdk.json numbers", () => {
    expect(propsWith({ rateLimitPerSecond: "20", rateLimitBurst: "40" }).rateLimit).toEqual({
      perSecond: 20,
      burst: 40,
      ...WINDOWS,
    });
    expect(propsWith({ rateLimitPerSecond: 2.5, rateLimitBurst: 5 }).rateLimit).toEqual({
      perSecond: 2.5,
      burst: 5,
      ...WINDOWS,
    });
  });

  it("refuses values that would disable or break the limit", () => {
    expect(() => propsWith({ rateLimitPerSecond: "fast" })).toThrow(/rateLimitPerSecond/);
    expect(() => propsWith({ rateLimitPerSecond: 0 })).toThrow(/rateLimitPerSecond/);
    expect(() => propsWith({ rateLimitBurst: "0.5" })).toThrow(/rateLimitBurst/);
  });

  it("reads rate-limit tiers from JSON strings or objects; none by default", () => {
    expect(propsWith({}).rateLimitTiers).toEqual({ tiers: {}, callerTiers: {} });
    const expected = { tiers: { gold: { perMinute: 6000 } }, callerTiers: { "forwarder:ACMECARGO": "gold" } };
    expect(
      propsWith({
        rateLimitTiers: '{"gold":{"perMinute":6000}}',
        rateLimitCallerTiers: '{"forwarder:ACMECARGO":"gold"}',
      }).rateLimitTiers,
    ).toEqual(expected);
    expect(
      propsWith({
        rateLimitTiers: { gold: { perMinute: 6000 } },
        rateLimitCallerTiers: { "forwarder:ACMECARGO": "gold" },
      }).rateLimitTiers,
    ).toEqual(expected);
  });

  it("refuses wrong tiers at synth, naming the context key", () => {
    expect(() => propsWith({ rateLimitTiers: "{gold" })).toThrow(
      /context rateLimitTiers must be a JSON object/,
    );
    expect(() => propsWith({ rateLimitTiers: { gold: { perHour: 0 } } })).toThrow(
      /context rateLimitTiers: tier gold member perHour must be a whole number of at least 1/,
    );
    expect(() => propsWith({ rateLimitCallerTiers: { "carrier:020": "gold" } })).toThrow(
      /context rateLimitCallerTiers: caller carrier:020 names unknown tier "gold"/,
    );
  });

  it("validates tiers given as stack props too, and keeps them within the functions' 4 KB environment", () => {
    expect(() =>
      validatedRateLimitTiers(
        { tiers: {}, callerTiers: { "forwarder:ACMECARGO": "gold" } },
        DEFAULT_RATE_LIMIT,
      ),
    ).toThrow(/rateLimitCallerTiers: caller forwarder:ACMECARGO names unknown tier "gold"/);
    const callerTiers = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`forwarder:FORWARDER-${i}`, "gold"]),
    );
    expect(() => validatedRateLimitTiers({ tiers: { gold: {} }, callerTiers }, DEFAULT_RATE_LIMIT)).toThrow(
      /characters of the functions' environment \(at most 2000/,
    );
  });

  it("keeps the other settings", () => {
    expect(
      propsWith({ serviceName: "svc", jwtIssuer: "https://issuer.example", retainData: "true" }),
    ).toMatchObject({ serviceName: "svc", jwtIssuer: "https://issuer.example", retainData: true });
    // Not given: the stack decides (retained, unless a demo stack; test/cdk/operations.test.ts).
    expect(propsWith({}).retainData).toBeUndefined();
    expect(propsWith({ retainData: "false", demo: "true" })).toMatchObject({ retainData: false, demo: true });
    expect(() => propsWith({ retainData: "yes" })).toThrow(/context retainData must be true or false/);
  });
});
