/**
 * Issue 11 point 19 in the AWS configuration: deliver-job reads its main queue with a maximum
 * concurrency and the slow lane with its own small one; its timeout outlasts one attempt's deadline.
 */
import { App } from "aws-cdk-lib";
import type { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { EVENT_FUNCTIONS } from "../../functions/contracts/event-functions.ts";
import { QUEUES } from "../../functions/contracts/resources.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

let template: Template;
let stack: RouteMapTrackerStack;

beforeAll(() => {
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  stack = new RouteMapTrackerStack(app, "LanesStack", {
    env: { account: "123456789012", region: "eu-central-1" },
    senderAddress: "alerts@forwarder.example",
  });
  app.synth();
  template = wholeTemplate(stack);
}, 120_000);

type Mapping = {
  Properties: { EventSourceArn: unknown; FunctionName: unknown; ScalingConfig?: unknown; BatchSize?: number };
};

describe("deliver-job lanes", () => {
  it("two SQS event sources on deliver-job: main (max 20 concurrent batches) and slow lane (max 2)", () => {
    const definition = EVENT_FUNCTIONS.find((fn) => fn.handler === "deliver-job");
    expect(definition?.source).toMatchObject({
      kind: "queue",
      queue: "deliveryJobs",
      maxConcurrency: 20,
      slowLane: { queue: "deliverySlowJobs", maxConcurrency: 2 },
    });
    const fn = stack.eventFunctions.get("deliver-job");
    const fnId = stack.getLogicalId(fn?.node.defaultChild as never);
    const mappings = Object.values(template.findResources("AWS::Lambda::EventSourceMapping")) as Mapping[];
    const mine = mappings.filter((m) => JSON.stringify(m.Properties.FunctionName).includes(fnId));
    const byQueue = (id: string) =>
      mine.find((m) => JSON.stringify(m.Properties.EventSourceArn).includes(`Messaging${id}`));
    expect(mine).toHaveLength(2);
    expect(byQueue(QUEUES.deliveryJobs.id)?.Properties.ScalingConfig).toEqual({ MaximumConcurrency: 20 });
    expect(byQueue(QUEUES.deliverySlowJobs.id)?.Properties.ScalingConfig).toEqual({ MaximumConcurrency: 2 });
    // Ten concurrent 10 s attempts end well inside the 60 s timeout (and the 90 s visibility timeout).
    expect(definition?.timeoutSeconds).toBeGreaterThan(10 + 5);
    expect(QUEUES.deliverySlowJobs.visibilityTimeoutSeconds).toBeGreaterThan(definition?.timeoutSeconds ?? 0);
  });
});
