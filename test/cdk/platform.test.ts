/**
 * Issue 11 in the stack: the RateLimits table (minute/hour/day windows shared across containers) is
 * granted to, and named in the environment of, every authenticated route and nothing else, with the
 * deploy-time window limits; the authorizer always checks an audience and a maximum token lifetime.
 */
import { App, Aspects, type CfnElement } from "aws-cdk-lib";
import { Annotations, Match } from "aws-cdk-lib/assertions";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { TABLES } from "../../functions/contracts/resources.ts";
import { ROUTES } from "../../functions/contracts/routes.ts";
import { stackPropsFromContext } from "../../lib/app-context.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

type Resource = { Type: string; Properties?: Record<string, unknown> };
type Statement = { Action: string | string[]; Resource: unknown };

function synth(context: Record<string, unknown>) {
  const app = new App({
    context: { "aws:cdk:bundling-stacks": [], senderAddress: "alerts@forwarder.example", ...context },
  });
  const stack = new RouteMapTrackerStack(app, "PlatformStack", {
    ...stackPropsFromContext(app.node),
    env: { account: "123456789012", region: "eu-central-1" },
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  return { stack, template: wholeTemplate(stack) };
}

let configured: ReturnType<typeof synth>;
let defaults: ReturnType<typeof synth>;

beforeAll(() => {
  configured = synth({
    rateLimitPerMinute: "60",
    rateLimitPerHour: 600,
    rateLimitPerDay: "6000",
    jwtAudience: "partner-api",
    jwtMaxLifetimeSeconds: "3600",
    // cdk.json form (an object) and `-c` form (a JSON string).
    rateLimitTiers: { gold: { perMinute: 6000, burst: 400 } },
    rateLimitCallerTiers: '{"forwarder:ACMECARGO":"gold"}',
  });
  defaults = synth({});
}, 180_000);

const logicalId = ({ stack }: ReturnType<typeof synth>, fn: IFunction) =>
  stack.getLogicalId(fn.node.defaultChild as CfnElement);

function environment(built: ReturnType<typeof synth>, fn: IFunction): Record<string, unknown> {
  const resource = built.template.toJSON().Resources[logicalId(built, fn)] as Resource;
  const env = resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined;
  return env?.Variables ?? {};
}

function statements(built: ReturnType<typeof synth>, fn: IFunction): Statement[] {
  const roleRef = JSON.stringify({ Ref: built.stack.getLogicalId(fn.role?.node.defaultChild as CfnElement) });
  return Object.values(built.template.findResources("AWS::IAM::Policy") as Record<string, Resource>)
    .filter((policy) => JSON.stringify(policy.Properties?.Roles).includes(roleRef))
    .flatMap(
      (policy) =>
        (policy.Properties?.PolicyDocument as { Statement: Statement[] } | undefined)?.Statement ?? [],
    );
}

function rateLimitTableId(built: ReturnType<typeof synth>): string {
  const ids = Object.keys(built.template.findResources("AWS::DynamoDB::Table")).filter((id) =>
    new RegExp(`^Data${TABLES.rateLimits.id}[0-9A-F]{8}$`).test(id),
  );
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

const updatesTable = (list: Statement[], tableId: string) =>
  list.some(
    (statement) =>
      [statement.Action].flat().includes("dynamodb:UpdateItem") &&
      JSON.stringify(statement.Resource).includes(`"Fn::GetAtt":["${tableId}","Arn"]`),
  );

describe("rate-limit tiers", () => {
  it("are set, as validated at synth, on every route and on nothing else", () => {
    const routes = new Set<string>(ROUTES.map((route) => route.handler));
    for (const [handler, fn] of configured.stack.api.functions) {
      if (!routes.has(handler)) continue;
      expect(environment(configured, fn), handler).toMatchObject({
        RATE_LIMIT_TIERS: '{"gold":{"burst":400,"perMinute":6000}}',
        RATE_LIMIT_CALLER_TIERS: '{"forwarder:ACMECARGO":"gold"}',
      });
      expect(environment(defaults, fn), handler).toMatchObject({
        RATE_LIMIT_TIERS: "{}",
        RATE_LIMIT_CALLER_TIERS: "{}",
      });
    }
    for (const fn of [configured.stack.api.authorizerFunction, ...configured.stack.eventFunctions.values()])
      expect(environment(configured, fn).RATE_LIMIT_TIERS).toBeUndefined();
  });
});

describe("RateLimits table", () => {
  it("is keyed by caller, expires its counters (TTL) and is encrypted with the data key and recoverable", () => {
    const id = rateLimitTableId(configured);
    const table = configured.template.toJSON().Resources[id] as Resource;
    expect(table.Properties).toMatchObject({
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      BillingMode: "PAY_PER_REQUEST",
      TimeToLiveSpecification: { AttributeName: "expiresAt", Enabled: true },
      SSESpecification: {
        SSEEnabled: true,
        SSEType: "KMS",
        KMSMasterKeyId: { "Fn::GetAtt": [expect.stringMatching(/^DataKey/), "Arn"] },
      },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it("is granted to, and named in the environment of, every authenticated route with the window limits", () => {
    const id = rateLimitTableId(configured);
    const authenticated = new Set<string>(
      ROUTES.filter((route) => route.roles !== "public").map((route) => route.handler),
    );
    expect(authenticated.size).toBeGreaterThan(20);
    for (const [handler, fn] of configured.stack.api.functions) {
      const env = environment(configured, fn);
      if (authenticated.has(handler)) {
        expect(env, handler).toMatchObject({
          RATE_LIMITS_TABLE: { Ref: id },
          RATE_LIMIT_PER_MINUTE: "60",
          RATE_LIMIT_PER_HOUR: "600",
          RATE_LIMIT_PER_DAY: "6000",
        });
        expect(updatesTable(statements(configured, fn), id), handler).toBe(true);
        // UpdateItem only: a route can neither read nor delete another caller's counters.
        const onTable = statements(configured, fn).filter((statement) =>
          JSON.stringify(statement.Resource).includes(`"Fn::GetAtt":["${id}","Arn"]`),
        );
        expect(
          onTable.flatMap((statement) => [statement.Action].flat()),
          handler,
        ).toEqual(["dynamodb:UpdateItem"]);
      } else {
        expect(env.RATE_LIMITS_TABLE, handler).toBeUndefined();
        expect(updatesTable(statements(configured, fn), id), handler).toBe(false);
      }
    }
  });

  it("is neither granted nor named to the authorizer or any event function", () => {
    const id = rateLimitTableId(configured);
    for (const fn of [configured.stack.api.authorizerFunction, ...configured.stack.eventFunctions.values()]) {
      expect(environment(configured, fn).RATE_LIMITS_TABLE).toBeUndefined();
      expect(updatesTable(statements(configured, fn), id)).toBe(false);
    }
  });

  it("uses the documented defaults when the deployment names none", () => {
    const [, fn] = [...defaults.stack.api.functions].find(([handler]) => handler === "get-route-map") ?? [];
    expect(environment(defaults, fn as IFunction)).toMatchObject({
      RATE_LIMIT_PER_SECOND: "50",
      RATE_LIMIT_BURST: "100",
      RATE_LIMIT_PER_MINUTE: "1500",
      RATE_LIMIT_PER_HOUR: "30000",
      RATE_LIMIT_PER_DAY: "300000",
    });
  });
});

describe("authorizer", () => {
  it("always checks an audience and a maximum token lifetime (defaults route-map-tracker and 24 h)", () => {
    expect(environment(configured, configured.stack.api.authorizerFunction)).toMatchObject({
      JWT_AUDIENCE: "partner-api",
      JWT_MAX_LIFETIME_SECONDS: "3600",
    });
    expect(environment(defaults, defaults.stack.api.authorizerFunction)).toMatchObject({
      JWT_AUDIENCE: "route-map-tracker",
      JWT_MAX_LIFETIME_SECONDS: "86400",
    });
  });
});

describe("cdk-nag", () => {
  it("reports no unsuppressed AwsSolutions error or warning", () => {
    for (const built of [configured, defaults]) {
      const findings = [
        ...Annotations.fromStack(built.stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
        ...Annotations.fromStack(built.stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ];
      expect(findings.map((finding) => finding.entry.data)).toEqual([]);
    }
  });
});
