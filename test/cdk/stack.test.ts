/**
 * The CDK stack, asserted on its synthesized template: tables, streams, TTL, queues with DLQs and
 * alarms, the authorizer on every route, Node.js 22 on arm64, no physical names, and cdk-nag's
 * AwsSolutions rules with no unsuppressed finding.
 */
import { App, Aspects } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUTES, routePaths } from "../../functions/handlers/http/routes.ts";
import { QUEUES, TABLES } from "../../lib/definitions.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";

let template: Template;
let stack: RouteMapTrackerStack;

type Resource = { Type: string; Properties?: Record<string, unknown> };

beforeAll(() => {
  // Bundling is exercised by `npx cdk synth` and the bundle benchmark; assertions need only the template.
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  stack = new RouteMapTrackerStack(app, "TestStack", {
    env: { account: "123456789012", region: "eu-central-1" },
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  template = Template.fromStack(stack);
}, 120_000);

function resources(type: string): Array<[string, Resource]> {
  return Object.entries(template.findResources(type)) as Array<[string, Resource]>;
}

describe("data", () => {
  it("keeps route maps with a TTL attribute and a NEW_IMAGE stream", () => {
    template.hasResourceProperties("AWS::DynamoDB::Table", {
      TimeToLiveSpecification: { AttributeName: TABLES.routeMaps.ttlAttribute, Enabled: true },
      StreamSpecification: { StreamViewType: "NEW_IMAGE" },
      GlobalSecondaryIndexes: Match.arrayWith([Match.objectLike({ IndexName: "byReader" })]),
    });
    expect(resources("AWS::DynamoDB::Table")).toHaveLength(Object.keys(TABLES).length);
  });

  it("gives no resource a hard-coded physical name", () => {
    const named = ["TableName", "QueueName", "FunctionName", "RoleName", "TopicName", "RestApiName"];
    for (const [id, resource] of Object.entries(template.toJSON().Resources as Record<string, Resource>)) {
      for (const property of named) {
        // References to other resources' generated names are fine; literal strings are not.
        expect(typeof resource.Properties?.[property], `${id}.${property}`).not.toBe("string");
      }
    }
  });
});

describe("messaging", () => {
  it("gives every queue a dead-letter queue and alarms on every DLQ's depth", () => {
    const queues = resources("AWS::SQS::Queue");
    const withRedrive = queues.filter(([, queue]) => queue.Properties?.RedrivePolicy);
    expect(withRedrive).toHaveLength(Object.keys(QUEUES).length);
    for (const [, queue] of withRedrive) {
      expect(queue.Properties?.RedrivePolicy).toMatchObject({ deadLetterTargetArn: expect.anything() });
    }
    const alarms = resources("AWS::CloudWatch::Alarm").filter(
      ([, alarm]) => alarm.Properties?.MetricName === "ApproximateNumberOfMessagesVisible",
    );
    // One per queue's DLQ plus the Scheduler's DLQ.
    expect(alarms).toHaveLength(Object.keys(QUEUES).length + 1);
    for (const [, alarm] of alarms) expect(alarm.Properties?.AlarmActions).toHaveLength(1);
  });
});

describe("API", () => {
  function resourcePaths(): Map<string, string> {
    const all = template.findResources("AWS::ApiGateway::Resource") as Record<
      string,
      { Properties: { ParentId: unknown; PathPart: string } }
    >;
    const paths = new Map<string, string>();
    const resolve = (id: string): string => {
      const known = paths.get(id);
      if (known) return known;
      const resource = all[id];
      if (!resource) return "";
      const parent = resource.Properties.ParentId as { Ref?: string };
      const path = `${parent.Ref ? resolve(parent.Ref) : ""}/${resource.Properties.PathPart}`;
      paths.set(id, path);
      return path;
    };
    for (const id of Object.keys(all)) resolve(id);
    return paths;
  }

  it("wires every route of the route table, on both paths, to a Lambda with the authorizer", () => {
    const paths = resourcePaths();
    const methods = resources("AWS::ApiGateway::Method").map(([, method]) => {
      const properties = method.Properties ?? {};
      const resourceId = properties.ResourceId as { Ref?: string };
      return {
        path: resourceId.Ref ? (paths.get(resourceId.Ref) ?? "?") : "/",
        method: properties.HttpMethod as string,
        authorization: properties.AuthorizationType as string,
        integration: (properties.Integration as { Type?: string } | undefined)?.Type,
      };
    });
    for (const route of ROUTES) {
      for (const path of routePaths(route)) {
        const wired = methods.find(
          (candidate) => candidate.path === path && candidate.method === route.method,
        );
        expect(wired, `${route.method} ${path}`).toBeDefined();
        expect(wired?.integration).toBe("AWS_PROXY");
        expect(wired?.authorization).toBe(route.roles === "public" ? "NONE" : "CUSTOM");
      }
    }
    template.hasResourceProperties("AWS::ApiGateway::Authorizer", { Type: "TOKEN" });
  });

  it("answers what the gateway refuses as problem+json", () => {
    for (const type of [
      "UNAUTHORIZED",
      "ACCESS_DENIED",
      "MISSING_AUTHENTICATION_TOKEN",
      "THROTTLED",
      "DEFAULT_5XX",
    ]) {
      template.hasResourceProperties("AWS::ApiGateway::GatewayResponse", {
        ResponseType: type,
        ResponseParameters: Match.objectLike({
          "gatewayresponse.header.Content-Type": "'application/problem+json'",
        }),
      });
    }
    template.hasResourceProperties("AWS::ApiGateway::GatewayResponse", {
      ResponseType: "MISSING_AUTHENTICATION_TOKEN",
      StatusCode: "404",
    });
  });

  it("runs every function on Node.js 22, arm64, with a log group that has a retention", () => {
    const functions = resources("AWS::Lambda::Function").filter(
      ([, fn]) => fn.Properties?.Runtime !== undefined && String(fn.Properties?.Handler) === "index.handler",
    );
    expect(functions.length).toBeGreaterThanOrEqual(new Set(ROUTES.map((route) => route.handler)).size + 1);
    for (const [, fn] of functions) {
      expect(fn.Properties?.Runtime).toBe("nodejs22.x");
      expect(fn.Properties?.Architectures).toEqual(["arm64"]);
      expect(fn.Properties?.LoggingConfig).toBeDefined();
    }
    for (const [, group] of resources("AWS::Logs::LogGroup"))
      expect(group.Properties?.RetentionInDays).toBeGreaterThan(0);
  });
});

describe("least privilege", () => {
  /** Every action granted to the role of the function whose construct path contains `marker`. */
  function actionsOf(marker: string): string[] {
    const functions = template.toJSON().Resources as Record<
      string,
      { Type: string; Properties?: { Role?: { "Fn::GetAtt"?: [string] } } }
    >;
    const fnId = Object.keys(functions).find(
      (id) => id.includes(marker) && functions[id]?.Type === "AWS::Lambda::Function",
    );
    const roleId = fnId ? functions[fnId]?.Properties?.Role?.["Fn::GetAtt"]?.[0] : undefined;
    expect(roleId, marker).toBeDefined();
    return resources("AWS::IAM::Policy")
      .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles).includes(roleId ?? "?"))
      .flatMap(
        ([, policy]) =>
          (
            (policy.Properties?.PolicyDocument ?? { Statement: [] }) as {
              Statement: Array<{ Action: string | string[] }>;
            }
          ).Statement,
      )
      .flatMap((statement) => [statement.Action].flat());
  }

  it("gives read routes read-only table access and nothing else", () => {
    const actions = actionsOf("Routegetroutemap");
    expect(actions).toContain("dynamodb:GetItem");
    expect(
      actions.filter((action) =>
        /^(dynamodb:.*(Put|Update|Delete|Write)|sqs:|ses:|scheduler:|iam:)/.test(action),
      ),
    ).toEqual([]);
  });

  it("lets only the delivery function send e-mail", () => {
    const withMail = resources("AWS::IAM::Policy").filter(([, policy]) =>
      JSON.stringify(policy.Properties).includes("ses:SendEmail"),
    );
    expect(withMail.length).toBeLessThanOrEqual(1);
  });
});

describe("scheduling and mail", () => {
  it("lets EventBridge Scheduler send only to the due-check and delivery queues and its own DLQ", () => {
    const schedulerRoleId = resources("AWS::IAM::Role").find(([, role]) =>
      JSON.stringify(role.Properties?.AssumeRolePolicyDocument).includes("scheduler.amazonaws.com"),
    )?.[0];
    expect(schedulerRoleId).toBeDefined();
    const statements = resources("AWS::IAM::Policy")
      .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles).includes(schedulerRoleId ?? "?"))
      .flatMap(
        ([, policy]) =>
          (
            (policy.Properties?.PolicyDocument ?? { Statement: [] }) as {
              Statement: Array<Record<string, unknown>>;
            }
          ).Statement,
      );
    const actions = new Set(statements.flatMap((statement) => [statement.Action].flat() as string[]));
    expect([...actions].filter((action) => !action.startsWith("kms:")).sort()).toEqual([
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
      "sqs:SendMessage",
    ]);
    const sqsResources = statements
      .filter((statement) => [statement.Action].flat().includes("sqs:SendMessage"))
      .flatMap((statement) => [statement.Resource].flat());
    expect(sqsResources).toHaveLength(3);
    expect(JSON.stringify(sqsResources)).not.toContain('"*"');
  });

  it("has a schedule group, a role EventBridge Scheduler assumes, and PassRole scoped to it", () => {
    expect(resources("AWS::Scheduler::ScheduleGroup")).toHaveLength(1);
    template.hasResourceProperties("AWS::IAM::Role", {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: "scheduler.amazonaws.com" } })]),
      }),
    });
    const policies = resources("AWS::IAM::Policy");
    const passRoles = policies.flatMap(([, policy]) =>
      (
        (policy.Properties?.PolicyDocument as { Statement?: Array<Record<string, unknown>> } | undefined)
          ?.Statement ?? []
      ).filter((statement) => statement.Action === "iam:PassRole"),
    );
    expect(passRoles.length).toBeGreaterThan(0);
    for (const statement of passRoles) {
      expect(statement.Resource).not.toBe("*");
      expect(statement.Condition).toEqual({
        StringEquals: { "iam:PassedToService": "scheduler.amazonaws.com" },
      });
    }
    template.resourceCountIs("AWS::SES::EmailIdentity", 1);
  });
});

describe("cdk-nag", () => {
  it("reports no unsuppressed AwsSolutions error or warning", () => {
    const errors = Annotations.fromStack(stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    const warnings = Annotations.fromStack(stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    expect(errors.map((entry) => `${entry.id}: ${String(entry.entry.data).slice(0, 160)}`)).toEqual([]);
    expect(warnings.map((entry) => `${entry.id}: ${String(entry.entry.data).slice(0, 160)}`)).toEqual([]);
  });
});
