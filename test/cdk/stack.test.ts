/**
 * The CDK stack, asserted on its synthesized template: tables, streams, TTL, queues with DLQs and
 * alarms, stream failure destinations, the authorizer on every route, gateway responses, Node.js 22
 * on arm64, no physical names, each function's grants and environment against
 * lib/function-access.ts, and cdk-nag's AwsSolutions rules with no unsuppressed finding.
 */
import { App, Aspects, type CfnElement, type Stack } from "aws-cdk-lib";
import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { ResponseType } from "aws-cdk-lib/aws-apigateway";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_FUNCTIONS } from "../../functions/contracts/event-functions.ts";
import { QUEUES, queueArnEnvVar, TABLES } from "../../functions/contracts/resources.ts";
import { ROUTES, routePaths } from "../../functions/contracts/routes.ts";
import { stackPropsFromContext } from "../../lib/app-context.ts";
import { LAMBDA_BUNDLE } from "../../lib/bundle-options.ts";
import { METHOD_NOT_ALLOWED_CONTENT_TYPES } from "../../lib/constructs/api-routes.ts";
import { STREAM_MAX_RECORD_AGE } from "../../lib/constructs/event-consumers.ts";
import { FUNCTION_ACCESS, type QueueName, type TableName } from "../../lib/function-access.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

let template: Template;
let stack: RouteMapTrackerStack;

type Resource = { Type: string; Properties?: Record<string, unknown> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

beforeAll(() => {
  // Bundling is exercised by `npx cdk synth` and the bundle benchmark; assertions need only the template.
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  stack = new RouteMapTrackerStack(app, "TestStack", {
    env: { account: "123456789012", region: "eu-central-1" },
    senderAddress: "alerts@forwarder.example",
    // Cargo-IMP by e-mail: its function is held to its entry like every other.
    inboundMailRecipient: "carriers@forwarder.example",
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  template = wholeTemplate(stack);
}, 120_000);

function resources(type: string): Array<[string, Resource]> {
  return Object.entries(template.findResources(type)) as Array<[string, Resource]>;
}

/**
 * Every Lambda of the stack by handler id (route handler, event function, "authorizer", Cognito's
 * "pre-token-generation" trigger).
 */
function functionsByHandler(): Map<string, IFunction> {
  const trigger = stack.identity.tokenTrigger;
  return new Map<string, IFunction>([
    ["authorizer", stack.api.authorizerFunction],
    ...stack.api.functions,
    ...stack.eventFunctions,
    ...(trigger ? [["pre-token-generation", trigger] as const] : []),
    ...(stack.inboundMail ? [["inbound-carrier-mail", stack.inboundMail.function] as const] : []),
  ]);
}

function logicalIdIn(owner: Stack, construct: { node: { defaultChild?: unknown } } | undefined): string {
  const element = construct?.node.defaultChild as CfnElement | undefined;
  if (!element) throw new Error("construct without a CloudFormation resource");
  return owner.getLogicalId(element);
}

const logicalId = (construct: { node: { defaultChild?: unknown } } | undefined) =>
  logicalIdIn(stack, construct);

function functionOf(handler: string): IFunction {
  const fn = functionsByHandler().get(handler);
  if (!fn) throw new Error(`no function for ${handler}`);
  return fn;
}

/** Every IAM statement attached to a handler's execution role. */
function statementsOf(handler: string): Statement[] {
  const roleRef = JSON.stringify({ Ref: logicalId(functionOf(handler).role) });
  return resources("AWS::IAM::Policy")
    .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles).includes(roleRef))
    .flatMap(([, policy]) => policyStatements(policy));
}

/** A resource's properties, never undefined (the casts below then need no optional chaining). */
const propertiesOf = (resource: Resource | undefined): Record<string, unknown> => resource?.Properties ?? {};

function policyStatements(policy: Resource): Statement[] {
  const document = propertiesOf(policy).PolicyDocument as { Statement?: Statement[] } | undefined;
  return document?.Statement ?? [];
}

const actionsOf = (handler: string) =>
  statementsOf(handler).flatMap((statement) => [statement.Action].flat());

function environmentOf(handler: string): Record<string, unknown> {
  const fn = template.toJSON().Resources[logicalId(functionOf(handler))] as Resource;
  const environment = propertiesOf(fn).Environment as { Variables?: Record<string, unknown> } | undefined;
  return environment?.Variables ?? {};
}

/** Logical ids of the resources a statement names through Fn::GetAtt (directly or inside Fn::Join). */
function referencedIds(statement: Statement): string[] {
  return [...JSON.stringify(statement.Resource).matchAll(/"Fn::GetAtt":\["([^"]+)"/g)].map(
    (match) => match[1] ?? "",
  );
}

const tableOfId = (id: string): TableName | undefined =>
  (Object.keys(TABLES) as TableName[]).find((name) =>
    new RegExp(`^Data${TABLES[name].id}[0-9A-F]{8}$`).test(id),
  );
const queueOfId = (id: string): QueueName | undefined =>
  (Object.keys(QUEUES) as QueueName[]).find((name) =>
    new RegExp(`^Messaging${QUEUES[name].id}[0-9A-F]{8}$`).test(id),
  );

const WRITE_ACTION = /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/;

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
    const streamConsumers = EVENT_FUNCTIONS.filter((fn) => fn.source.kind === "stream");
    // One per queue's DLQ, the Scheduler's DLQ, each stream consumer's failure queue and the inbound
    // mail function's failure queue.
    expect(alarms).toHaveLength(Object.keys(QUEUES).length + 1 + streamConsumers.length + 1);
    for (const [, alarm] of alarms) expect(alarm.Properties?.AlarmActions).toHaveLength(1);
  });
});

describe("stream consumers", () => {
  const consumers = EVENT_FUNCTIONS.filter((fn) => fn.source.kind === "stream").map((fn) => fn.handler);

  it("covers match-event and plan-due-checks", () => {
    expect(consumers.sort()).toEqual(["match-event", "plan-due-checks"]);
  });

  it.each(consumers)("%s parks failed batches on its own encrypted, TLS-only, alarmed queue", (handler) => {
    const mappings = resources("AWS::Lambda::EventSourceMapping").filter(
      ([, mapping]) =>
        JSON.stringify(mapping.Properties?.FunctionName) ===
        JSON.stringify({ Ref: logicalId(functionOf(handler)) }),
    );
    expect(mappings).toHaveLength(1);
    const properties = mappings[0]?.[1].Properties ?? {};
    expect(properties).toMatchObject({
      MaximumRetryAttempts: 10,
      BisectBatchOnFunctionError: true,
      MaximumRecordAgeInSeconds: STREAM_MAX_RECORD_AGE.toSeconds(),
    });
    // Records must still be in the stream (24 h) when an operator redrives them.
    expect(STREAM_MAX_RECORD_AGE.toHours()).toBeLessThanOrEqual(12);
    const destination = (
      properties.DestinationConfig as { OnFailure?: { Destination?: unknown } } | undefined
    )?.OnFailure?.Destination as { "Fn::GetAtt"?: [string, string] } | undefined;
    const queueId = destination?.["Fn::GetAtt"]?.[0] ?? "";
    expect(destination?.["Fn::GetAtt"]?.[1]).toBe("Arn");
    const queue = template.toJSON().Resources[queueId] as Resource | undefined;
    expect(queue?.Type).toBe("AWS::SQS::Queue");
    expect(queue?.Properties?.KmsMasterKeyId).toBeDefined();
    expect(queue?.Properties?.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    template.hasResourceProperties("AWS::SQS::QueuePolicy", {
      Queues: [{ Ref: queueId }],
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
        ]),
      }),
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateNumberOfMessagesVisible",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [queueId, "QueueName"] } }],
      Threshold: 0,
      AlarmActions: [{ Ref: Match.stringLikeRegexp("^AlarmTopic") }],
    });
    // The consumer may send to its failure queue (the mapping sends with the function's role).
    expect(
      statementsOf(handler).some(
        (statement) =>
          [statement.Action].flat().includes("sqs:SendMessage") && referencedIds(statement).includes(queueId),
      ),
    ).toBe(true);
  });

  it("gives each consumer a queue of its own", () => {
    const destinations = resources("AWS::Lambda::EventSourceMapping")
      .map(([, mapping]) => JSON.stringify(mapping.Properties?.DestinationConfig ?? null))
      .filter((value) => value !== "null");
    expect(new Set(destinations).size).toBe(consumers.length);
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

  it("answers whatever the gateway itself refuses as problem+json with a matching status", () => {
    const responses = resources("AWS::ApiGateway::GatewayResponse").map(
      ([, response]) => response.Properties ?? {},
    );
    const types = responses.map((response) => response.ResponseType);
    for (const type of ["DEFAULT_4XX", "DEFAULT_5XX", "UNAUTHORIZED", "ACCESS_DENIED", "THROTTLED"]) {
      expect(types).toContain(type);
    }
    // Every type API Gateway knows has its own entry, so none answers with a status its body contradicts.
    const known = Object.values(ResponseType)
      .filter((value): value is ResponseType => value instanceof ResponseType)
      .map((value) => value.responseType);
    expect(known.length).toBeGreaterThan(15);
    expect([...types].sort()).toEqual([...known].sort());
    for (const response of responses) {
      expect(response.ResponseParameters, String(response.ResponseType)).toMatchObject({
        "gatewayresponse.header.Content-Type": "'application/problem+json'",
      });
      const body = JSON.parse(
        (response.ResponseTemplates as Record<string, string>)["application/json"] ?? "{}",
      );
      expect(body, String(response.ResponseType)).toMatchObject({
        status: Number(response.StatusCode),
        type: expect.stringMatching(/^https:\/\//),
        title: expect.any(String),
        detail: expect.any(String),
        errors: [],
      });
    }
    template.hasResourceProperties("AWS::ApiGateway::GatewayResponse", {
      ResponseType: "MISSING_AUTHENTICATION_TOKEN",
      StatusCode: "404",
    });
    template.hasResourceProperties("AWS::ApiGateway::GatewayResponse", {
      ResponseType: "DEFAULT_4XX",
      StatusCode: "400",
    });
  });

  it("answers another method on a known path 405, whatever the request's content type", () => {
    const mocks = resources("AWS::ApiGateway::Method").filter(
      ([, method]) => method.Properties?.HttpMethod === "ANY",
    );
    expect(mocks.length).toBeGreaterThan(ROUTES.length);
    for (const [id, method] of mocks) {
      const integration = method.Properties?.Integration as {
        Type: string;
        PassthroughBehavior: string;
        RequestTemplates: Record<string, string>;
        IntegrationResponses: Array<Record<string, unknown>>;
      };
      expect(integration.Type, id).toBe("MOCK");
      // Unlisted content types pass through to the mock instead of a 415 (NEVER/WHEN_NO_TEMPLATES).
      expect(integration.PassthroughBehavior, id).toBe("WHEN_NO_MATCH");
      for (const type of [
        "application/json",
        "text/plain",
        "application/xml",
        "text/xml",
        "application/x-www-form-urlencoded",
      ]) {
        expect(JSON.parse(integration.RequestTemplates[type] ?? "{}"), `${id} ${type}`).toEqual({
          statusCode: 405,
        });
      }
      expect(Object.keys(integration.RequestTemplates).sort()).toEqual(
        [...METHOD_NOT_ALLOWED_CONTENT_TYPES].sort(),
      );
      // One default response (no selection pattern): whatever the mock produced becomes the 405.
      expect(integration.IntegrationResponses).toHaveLength(1);
      const [response] = integration.IntegrationResponses;
      expect(response?.StatusCode).toBe("405");
      expect(response?.SelectionPattern).toBeUndefined();
      const body = JSON.parse(
        (response?.ResponseTemplates as Record<string, string> | undefined)?.["application/json"] ?? "{}",
      );
      expect(body).toMatchObject({ status: 405, title: "Method Not Allowed" });
    }
  });

  it("runs every function on Node.js 22, arm64, with a log group that has a retention", () => {
    // CDK's own handlers of the web app's nested stack (BucketDeployment's AWS CLI function, the
    // bucket's auto-delete provider) run what aws-cdk-lib chose for them.
    const cdkOwn = /^Custom(CDKBucketDeployment|S3AutoDeleteObjectsCustomResourceProvider)/;
    const functions = resources("AWS::Lambda::Function").filter(
      ([id, fn]) =>
        fn.Properties?.Runtime !== undefined &&
        String(fn.Properties?.Handler) === "index.handler" &&
        !cdkOwn.test(id),
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

describe("least privilege (lib/function-access.ts)", () => {
  const handlers = () => [...functionsByHandler().keys()];

  it("describes every function of the stack, and the stack has a function for every entry", () => {
    expect(handlers().sort()).toEqual(Object.keys(FUNCTION_ACCESS).sort());
  });

  it("grants each function exactly the tables, queues, schedules and mail of its entry", () => {
    const failureQueues = new Set(
      [
        ...resources("AWS::Lambda::EventSourceMapping"),
        ...resources("AWS::Lambda::EventInvokeConfig"),
      ].flatMap(([, mapping]) =>
        referencedIds({ Resource: mapping.Properties?.DestinationConfig ?? null } as Statement),
      ),
    );
    for (const handler of handlers()) {
      const access = FUNCTION_ACCESS[handler] ?? {};
      const statements = statementsOf(handler);
      const on = (pattern: RegExp) =>
        statements.filter((statement) => [statement.Action].flat().some((action) => pattern.test(action)));
      const tablesBy = (pattern: RegExp) =>
        [...new Set(on(pattern).flatMap(referencedIds).map(tableOfId).filter(Boolean))].sort();
      const expectedTables = (...modes: string[]) =>
        Object.entries(access.tables ?? {})
          .filter(([, granted]) => modes.includes(granted))
          .map(([name]) => name)
          .sort();
      expect(tablesBy(/^dynamodb:GetItem$/), `${handler} reads`).toEqual(
        expectedTables("read", "readWrite", "get"),
      );
      // "count" (the rate-limit counters): UpdateItem only.
      expect(tablesBy(WRITE_ACTION), `${handler} writes`).toEqual(expectedTables("readWrite", "count"));
      const sendsTo = on(/^sqs:SendMessage$/).flatMap(referencedIds);
      expect(
        sendsTo
          .filter((id) => !failureQueues.has(id))
          .map((id) => queueOfId(id) ?? id)
          .sort(),
        `${handler} sends to`,
      ).toEqual([...(access.sendTo ?? [])].sort());
      expect(
        actionsOf(handler)
          .filter((action) => action.startsWith("scheduler:"))
          .sort(),
        `${handler} schedules`,
      ).toEqual((access.schedules ?? []).map((action) => `scheduler:${action}`).sort());
      expect(actionsOf(handler).includes("ses:SendEmail"), `${handler} mails`).toBe(
        access.sendsEmail === true,
      );
    }
  });

  it("lets exactly the scheduling functions pass the Scheduler role, to Scheduler only", () => {
    const schedulerRoleId = logicalId(stack.node.findChild("SchedulerRole"));
    const holders = resources("AWS::IAM::Policy")
      .filter(([, policy]) => JSON.stringify(policy.Properties?.PolicyDocument).includes("iam:PassRole"))
      .flatMap(([, policy]) => (propertiesOf(policy).Roles as Array<{ Ref: string }>).map((role) => role.Ref))
      .sort();
    expect(holders).toEqual(
      ["run-due-check", "deliver-job", "plan-due-checks"]
        .map((handler) => logicalId(functionOf(handler).role))
        .sort(),
    );
    for (const handler of ["run-due-check", "deliver-job", "plan-due-checks"]) {
      const passRoles = statementsOf(handler).filter((statement) =>
        [statement.Action].flat().includes("iam:PassRole"),
      );
      expect(passRoles).toEqual([
        {
          Effect: "Allow",
          Action: "iam:PassRole",
          Resource: { "Fn::GetAtt": [schedulerRoleId, "Arn"] },
          Condition: { StringEquals: { "iam:PassedToService": "scheduler.amazonaws.com" } },
        },
      ]);
    }
  });

  it("never grants deleting or reading schedules, and scopes schedule rights to the check group", () => {
    for (const handler of handlers()) {
      for (const statement of statementsOf(handler)) {
        const actions = [statement.Action].flat();
        expect(actions, handler).not.toContain("scheduler:DeleteSchedule");
        expect(actions, handler).not.toContain("scheduler:GetSchedule");
        if (actions.some((action) => action.startsWith("scheduler:"))) {
          expect(JSON.stringify(statement.Resource), handler).toContain(
            'schedule/",{"Ref":"CheckSchedules"},"/*"',
          );
        }
      }
    }
  });

  it("gives GET routes no write action of any kind, but counting their caller's requests in RateLimits", () => {
    const getHandlers = [
      ...new Set(ROUTES.filter((route) => route.method === "GET").map((route) => route.handler)),
    ];
    expect(getHandlers.length).toBeGreaterThan(5);
    const writes = /^(dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)|sqs:|ses:|scheduler:|iam:)/;
    for (const handler of getHandlers) {
      const writing = statementsOf(handler).filter((statement) =>
        [statement.Action].flat().some((action) => writes.test(action)),
      );
      // Issue 11: every authenticated route counts its caller in the shared rate-limit windows.
      const targets = [...new Set(writing.flatMap(referencedIds).map(tableOfId))];
      const isPublic = ROUTES.some((route) => route.handler === handler && route.roles === "public");
      expect(targets, handler).toEqual(isPublic ? [] : ["rateLimits"]);
    }
    expect(actionsOf("get-route-map")).toContain("dynamodb:GetItem");
  });

  it("lets put-carrier write carrier settings and nothing else: no queue, no schedule", () => {
    const actions = actionsOf("put-carrier");
    expect(actions).toContain("dynamodb:PutItem");
    expect(actions.filter((action) => /^(sqs:|scheduler:|iam:|ses:)/.test(action))).toEqual([]);
  });

  it("lets the rule routes that queue a ProActive sweep send to DueChecks, but not schedule", () => {
    for (const handler of [
      "create-notification-rule",
      "update-notification-rule",
      "enable-notification-rule",
    ]) {
      const sends = statementsOf(handler).filter((statement) =>
        [statement.Action].flat().includes("sqs:SendMessage"),
      );
      expect(sends.flatMap(referencedIds).map(queueOfId), handler).toEqual(["dueChecks"]);
      expect(
        actionsOf(handler).filter((action) => /^(scheduler:|iam:)/.test(action)),
        handler,
      ).toEqual([]);
      expect(environmentOf(handler)[QUEUES.dueChecks.envVar], handler).toBeDefined();
    }
  });

  // Issue 11 point 21: saving or enabling an Email rule mails its new NotifyTo address a confirmation link.
  const MAILERS = [
    "deliver-job",
    "create-notification-rule",
    "update-notification-rule",
    "enable-notification-rule",
    // The error reply to a carrier mail that cannot be placed.
    "inbound-carrier-mail",
  ];
  it("lets only deliver-job, the rule routes that mail confirmation links and inbound mail's reply send e-mail", () => {
    for (const handler of MAILERS) expect(actionsOf(handler), handler).toContain("ses:SendEmail");
    const withMail = resources("AWS::IAM::Policy").filter(([, policy]) =>
      JSON.stringify(policy.Properties).includes("ses:SendEmail"),
    );
    const roles = (refs: unknown[]) => refs.map((ref) => JSON.stringify(ref)).sort();
    expect(roles(withMail.flatMap(([, policy]) => policy.Properties?.Roles))).toEqual(
      roles(MAILERS.map((handler) => ({ Ref: logicalId(functionOf(handler).role) }))),
    );
  });

  it("grants on Resource * only the X-Ray and ListStreams actions that cannot be scoped", () => {
    const unscoped = resources("AWS::IAM::Policy").flatMap(([, policy]) =>
      policyStatements(policy)
        .filter((statement) => [statement.Resource].flat().includes("*"))
        .flatMap((statement) => [statement.Action].flat()),
    );
    expect([...new Set(unscoped)].sort()).toEqual([
      "dynamodb:ListStreams",
      "xray:PutTelemetryRecords",
      "xray:PutTraceSegments",
    ]);
    expect(Annotations.fromStack(stack).findError("*", Match.stringLikeRegexp("WildcardResource"))).toEqual(
      [],
    );
  });
});

describe("function environment", () => {
  it("names exactly the tables and queues each function may use", () => {
    const tableVars = new Set<string>(Object.values(TABLES).map((table) => table.envVar));
    const queueVars = new Set(
      Object.values(QUEUES).flatMap((queue) => [queue.envVar, queueArnEnvVar(queue)]),
    );
    for (const [handler, access] of Object.entries(FUNCTION_ACCESS)) {
      const names = Object.keys(environmentOf(handler));
      expect(names.filter((name) => tableVars.has(name)).sort(), handler).toEqual(
        Object.keys(access.tables ?? {})
          .map((name) => TABLES[name as TableName].envVar)
          .sort(),
      );
      expect(names.filter((name) => queueVars.has(name)).sort(), handler).toEqual(
        (access.sendTo ?? []).flatMap((name) => [QUEUES[name].envVar, queueArnEnvVar(QUEUES[name])]).sort(),
      );
    }
  });

  it("gives every function that creates schedules the group, the Scheduler role and the schedules' DLQ", () => {
    const creators = [...functionsByHandler().keys()].filter((handler) =>
      actionsOf(handler).includes("scheduler:CreateSchedule"),
    );
    expect(creators.sort()).toEqual(["deliver-job", "plan-due-checks", "run-due-check"]);
    const dlqId = logicalId(stack.node.findChild("Messaging").node.findChild("SchedulerDlq"));
    const roleId = logicalId(stack.node.findChild("SchedulerRole"));
    for (const handler of creators) {
      expect(environmentOf(handler), handler).toMatchObject({
        SCHEDULER_DLQ_ARN: { "Fn::GetAtt": [dlqId, "Arn"] },
        SCHEDULER_ROLE_ARN: { "Fn::GetAtt": [roleId, "Arn"] },
        SCHEDULE_GROUP_NAME: { Ref: "CheckSchedules" },
      });
    }
    for (const handler of functionsByHandler().keys()) {
      if (!creators.includes(handler))
        expect(environmentOf(handler).SCHEDULER_ROLE_ARN, handler).toBeUndefined();
    }
  });

  it("gives every route the per-caller rate limit, 50/s with a burst of 100 by default", () => {
    for (const handler of new Set(ROUTES.map((route) => route.handler))) {
      expect(environmentOf(handler), handler).toMatchObject({
        RATE_LIMIT_PER_SECOND: "50",
        RATE_LIMIT_BURST: "100",
      });
    }
  });

  it("runs every function with the NODE_OPTIONS of lib/bundle-options.ts", () => {
    for (const handler of functionsByHandler().keys()) {
      expect(environmentOf(handler).NODE_OPTIONS, handler).toBe(LAMBDA_BUNDLE.nodeOptions);
    }
  });

  it("tells only the authorizer about the token issuer", () => {
    for (const handler of functionsByHandler().keys()) {
      expect(environmentOf(handler).JWT_ISSUER !== undefined, handler).toBe(handler === "authorizer");
    }
  });
});

describe("as `cdk synth` builds it: no account or region, settings from context", () => {
  let offline: RouteMapTrackerStack;
  let functions: Record<string, Resource>;

  beforeAll(() => {
    const app = new App({
      context: {
        "aws:cdk:bundling-stacks": [],
        senderAddress: "alerts@forwarder.example",
        rateLimitPerSecond: "20",
        rateLimitBurst: "40",
      },
    });
    offline = new RouteMapTrackerStack(app, "OfflineStack", stackPropsFromContext(app.node));
    Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
    app.synth();
    functions = wholeTemplate(offline).findResources("AWS::Lambda::Function") as Record<string, Resource>;
  }, 120_000);

  it("passes the deploy-time rate limit to every route, and only to routes", () => {
    for (const [handler, fn] of offline.api.functions) {
      expect(propertiesOf(functions[logicalIdIn(offline, fn)]).Environment, handler).toMatchObject({
        Variables: { RATE_LIMIT_PER_SECOND: "20", RATE_LIMIT_BURST: "40" },
      });
    }
    for (const fn of [offline.api.authorizerFunction, ...offline.eventFunctions.values()]) {
      const environment = propertiesOf(functions[logicalIdIn(offline, fn)]).Environment as {
        Variables: Record<string, string>;
      };
      expect(environment.Variables.RATE_LIMIT_PER_SECOND).toBeUndefined();
    }
  });

  it("reports no unsuppressed AwsSolutions error or warning (tokens in ARNs)", () => {
    const annotations = Annotations.fromStack(offline);
    const findings = [
      ...annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ...annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ];
    expect(findings.map((entry) => `${entry.id}: ${String(entry.entry.data).slice(0, 160)}`)).toEqual([]);
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

  it("has a schedule group, a role EventBridge Scheduler assumes, and one e-mail identity", () => {
    expect(resources("AWS::Scheduler::ScheduleGroup")).toHaveLength(1);
    template.hasResourceProperties("AWS::IAM::Role", {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: "scheduler.amazonaws.com" } })]),
      }),
    });
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
