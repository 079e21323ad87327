/**
 * X-Ray in AWS: every function of the service (routes, authorizer, event functions, the token trigger,
 * inbound mail), in whichever stack it lives, runs with active tracing, may put its segments, and has
 * the Powertools Tracer settings of lib/constructs/handler-function.ts (responses not recorded).
 */
import { App } from "aws-cdk-lib";
import type { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { TRACER_ENVIRONMENT } from "../../lib/constructs/handler-function.ts";
import { FUNCTION_ACCESS } from "../../lib/function-access.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

type Resource = { Type: string; Properties?: Record<string, unknown> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

let template: Template;

beforeAll(() => {
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new RouteMapTrackerStack(app, "TracingStack", {
    env: { account: "123456789012", region: "eu-central-1" },
    senderAddress: "alerts@forwarder.example",
    inboundMailRecipient: "carriers@forwarder.example",
  });
  app.synth();
  template = wholeTemplate(stack);
}, 120_000);

const resources = (type: string) => Object.entries(template.findResources(type)) as Array<[string, Resource]>;

/** The service's own functions: CDK's helpers (the web app's file deployment) carry no service name. */
function serviceFunctions(): Array<[string, Resource]> {
  return resources("AWS::Lambda::Function").filter(
    ([, fn]) =>
      (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables
        ?.POWERTOOLS_SERVICE_NAME !== undefined,
  );
}

describe("tracing", () => {
  it("covers one function per handler of lib/function-access.ts", () => {
    expect(serviceFunctions()).toHaveLength(Object.keys(FUNCTION_ACCESS).length);
  });

  it("is active on every function, with the Tracer's settings", () => {
    for (const [id, fn] of serviceFunctions()) {
      expect(fn.Properties?.TracingConfig, id).toEqual({ Mode: "Active" });
      expect(
        (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables,
        id,
      ).toMatchObject({ ...TRACER_ENVIRONMENT });
    }
    expect(TRACER_ENVIRONMENT).toMatchObject({
      POWERTOOLS_TRACE_ENABLED: "true",
      POWERTOOLS_TRACER_CAPTURE_RESPONSE: "false",
    });
  });

  it("lets every function's role put its trace segments and telemetry", () => {
    const policies = resources("AWS::IAM::Policy");
    for (const [id, fn] of serviceFunctions()) {
      const role = JSON.stringify(fn.Properties?.Role);
      const roleId = /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(role)?.[1] ?? "?";
      const actions = policies
        .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles).includes(`{"Ref":"${roleId}"}`))
        .flatMap(
          ([, policy]) =>
            (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [],
        )
        .filter((statement) => statement.Effect === "Allow" && statement.Resource === "*")
        .flatMap((statement) => [statement.Action].flat());
      expect(actions, id).toEqual(
        expect.arrayContaining(["xray:PutTraceSegments", "xray:PutTelemetryRecords"]),
      );
    }
  });
});
