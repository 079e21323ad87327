/**
 * Issue 13 point 1 in the AWS configuration: status requests ride the delivery pipeline. The sendsme
 * function sends to the DeliveryJobs queue (whose dead-letter queue and consumer are the delivery
 * pipeline's) and to no other queue; the old carrier-requests queue nothing consumed is gone; the
 * collapse window is set from context; the carrier's pull routes touch only the Deliveries table.
 */
import { App, type CfnElement, Stack } from "aws-cdk-lib";
import type { Template } from "aws-cdk-lib/assertions";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_FUNCTIONS } from "../../functions/contracts/event-functions.ts";
import { QUEUES, TABLES } from "../../functions/contracts/resources.ts";
import { SETTINGS_ENV } from "../../functions/contracts/settings.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

type Resource = { Type: string; Properties?: Record<string, unknown> };
type Statement = { Action: string | string[]; Resource: unknown };

let template: Template;
let stack: RouteMapTrackerStack;

beforeAll(() => {
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  stack = new RouteMapTrackerStack(app, "StatusRequestsStack", {
    env: { account: "123456789012", region: "eu-central-1" },
    senderAddress: "alerts@forwarder.example",
    statusRequestWindowSeconds: 600,
  });
  app.synth();
  template = wholeTemplate(stack);
}, 120_000);

const resourcesOf = (type: string) =>
  Object.entries(template.findResources(type)) as Array<[string, Resource]>;

function fn(handler: string): IFunction {
  const found = stack.api.functions.get(handler) ?? stack.eventFunctions.get(handler);
  if (!found) throw new Error(`no function ${handler}`);
  return found;
}

const idOf = (construct: { node: { defaultChild?: unknown } }) =>
  Stack.of(construct as never).getLogicalId(construct.node.defaultChild as CfnElement);

function statementsOf(handler: string): Statement[] {
  const role = fn(handler).role;
  if (!role) throw new Error(`${handler} has no role`);
  const roleRef = JSON.stringify({ Ref: idOf(role) });
  return resourcesOf("AWS::IAM::Policy")
    .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles).includes(roleRef))
    .flatMap(([, policy]) => {
      const document = policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined;
      return document?.Statement ?? [];
    });
}

function environmentOf(handler: string): Record<string, unknown> {
  const resource = template.toJSON().Resources[idOf(fn(handler))] as Resource;
  const environment = resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined;
  return environment?.Variables ?? {};
}

/** Logical id of a queue of the Messaging construct (`Messaging<Id>...`), not its DLQ. */
function queueId(id: string): string {
  const match = resourcesOf("AWS::SQS::Queue").find(
    ([logical, queue]) => logical.startsWith(`Messaging${id}`) && queue.Properties?.RedrivePolicy,
  );
  if (!match) throw new Error(`no queue ${id}`);
  return match[0];
}

describe("status requests on the delivery pipeline", () => {
  it("the sendsme function sends to the DeliveryJobs queue only, which has the delivery DLQ and consumer", () => {
    const sqsStatements = statementsOf("trigger-route-map").filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith("sqs:")),
    );
    const queues = new Set(
      sqsStatements.flatMap((statement) =>
        [...JSON.stringify(statement.Resource).matchAll(/"Fn::GetAtt":\["([^"]+)"/g)].map((m) => m[1]),
      ),
    );
    const deliveryQueue = queueId(QUEUES.deliveryJobs.id);
    expect([...queues]).toEqual([deliveryQueue]);
    const environment = environmentOf("trigger-route-map");
    expect(JSON.stringify(environment[QUEUES.deliveryJobs.envVar])).toContain(deliveryQueue);
    expect(environment[SETTINGS_ENV.statusRequestWindowSeconds]).toBe("600");

    // The same queue's dead-letter queue (maxReceiveCount as the delivery contract says) and consumer.
    const queue = template.toJSON().Resources[deliveryQueue] as Resource;
    expect(queue.Properties?.RedrivePolicy).toMatchObject({
      deadLetterTargetArn: { "Fn::GetAtt": [expect.stringMatching(/DeadLetter|Dlq|DLQ/i), "Arn"] },
      maxReceiveCount: QUEUES.deliveryJobs.maxReceiveCount,
    });
    const deliverJob = EVENT_FUNCTIONS.find((definition) => definition.handler === "deliver-job");
    expect(deliverJob?.source).toMatchObject({ kind: "queue", queue: "deliveryJobs" });
    const consumers = resourcesOf("AWS::Lambda::EventSourceMapping").filter(([, mapping]) =>
      JSON.stringify(mapping.Properties?.EventSourceArn).includes(deliveryQueue),
    );
    expect(consumers).toHaveLength(1);
    expect(JSON.stringify(consumers[0]?.[1].Properties?.FunctionName)).toContain(idOf(fn("deliver-job")));
  });

  it("has no carrier-requests queue any more, and no function names one", () => {
    expect(Object.values(QUEUES).map((queue) => queue.id)).not.toContain("CarrierRequests");
    expect(resourcesOf("AWS::SQS::Queue").filter(([id]) => id.includes("CarrierRequests"))).toEqual([]);
    expect(JSON.stringify(template.toJSON())).not.toContain("CARRIER_REQUESTS_QUEUE_URL");
  });

  it("the carrier's pull routes and the usage routes touch the Deliveries table only (and, as every route, the rate-limit counter)", () => {
    const onDeliveries = (statement: Statement) =>
      JSON.stringify(statement.Resource).includes(`Data${TABLES.deliveries.id}`);
    const onRateLimits = (statement: Statement) =>
      JSON.stringify(statement.Resource).includes(`Data${TABLES.rateLimits.id}`);
    const dynamoActions = (statement: Statement) =>
      [statement.Action].flat().filter((action) => action.startsWith("dynamodb:"));
    for (const handler of [
      "list-carrier-requests",
      "ack-carrier-request",
      "get-xtd-usage",
      "list-xtd-usage",
    ]) {
      const statements = statementsOf(handler);
      const actions = statements.flatMap((statement) => [statement.Action].flat());
      expect(actions.some((action) => action.startsWith("sqs:"))).toBe(false);
      const dynamo = statements.filter((statement) => dynamoActions(statement).length > 0);
      expect(dynamo.filter(onDeliveries).length).toBeGreaterThan(0);
      for (const statement of dynamo) expect(onDeliveries(statement) || onRateLimits(statement)).toBe(true);
      // Only the ack removes anything from the Deliveries table.
      const writes = dynamo
        .filter(onDeliveries)
        .flatMap(dynamoActions)
        .some((action) => /dynamodb:(PutItem|DeleteItem|UpdateItem|\*)/.test(action));
      expect(writes).toBe(handler === "ack-carrier-request");
    }
  });
});
