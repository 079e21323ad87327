/** lib/app-context.ts: deploy-time settings from CDK context, as `-c` strings or cdk.json values. */
import { App } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { stackPropsFromContext } from "../../lib/app-context.ts";

const propsWith = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node);

describe("stackPropsFromContext", () => {
  it("defaults the per-caller rate limit to 50/s with a burst of 100", () => {
    expect(propsWith({}).rateLimit).toEqual({ perSecond: 50, burst: 100 });
  });

  it("reads rateLimitPerSecond and rateLimitBurst from -c strings and cdk.json numbers", () => {
    expect(propsWith({ rateLimitPerSecond: "20", rateLimitBurst: "40" }).rateLimit).toEqual({
      perSecond: 20,
      burst: 40,
    });
    expect(propsWith({ rateLimitPerSecond: 2.5, rateLimitBurst: 5 }).rateLimit).toEqual({
      perSecond: 2.5,
      burst: 5,
    });
  });

  it("refuses values that would disable or break the limit", () => {
    expect(() => propsWith({ rateLimitPerSecond: "fast" })).toThrow(/rateLimitPerSecond/);
    expect(() => propsWith({ rateLimitPerSecond: 0 })).toThrow(/rateLimitPerSecond/);
    expect(() => propsWith({ rateLimitBurst: "0.5" })).toThrow(/rateLimitBurst/);
  });

  it("keeps the other settings", () => {
    expect(
      propsWith({ serviceName: "svc", jwtIssuer: "https://issuer.example", retainData: "true" }),
    ).toMatchObject({ serviceName: "svc", jwtIssuer: "https://issuer.example", retainData: true });
    expect(propsWith({}).retainData).toBe(false);
  });
});
