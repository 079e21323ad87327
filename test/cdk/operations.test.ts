/**
 * Issue 12 points 4 and 5 in the stack: a first deploy needs a sender address (or says it is a demo),
 * keeps its data (tables retained with deletion protection unless `retainData=false`), names what an
 * operator needs in its outputs, and has a dashboard fed by the handlers' metrics, alarms beyond the
 * dead-letter queues on the alarm topic, and SES bounces and complaints flowing to `ses-feedback`.
 * Settings come from context through lib/app-context.ts, as `cdk synth -c ...` passes them.
 */
import { App, Aspects, type Stack } from "aws-cdk-lib";
import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { DELIVERY_OUTCOMES, METRIC_NAMES, METRICS_SERVICE } from "../../functions/contracts/metrics.ts";
import { QUEUES, TABLES } from "../../functions/contracts/resources.ts";
import { DEFAULT_SENDER_ADDRESS } from "../../functions/contracts/settings.ts";
import { stackPropsFromContext } from "../../lib/app-context.ts";
import { ALARM_THRESHOLDS, SCHEDULER_METRICS } from "../../lib/constructs/operations.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

type Resource = {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

function build(context: Record<string, unknown>, nag = false) {
  const app = new App({
    context: {
      "aws:cdk:bundling-stacks": [],
      ...context,
    },
  });
  const stack = new RouteMapTrackerStack(app, "OpsStack", {
    ...stackPropsFromContext(app.node),
    env: { account: "123456789012", region: "eu-central-1" },
  });
  if (nag) Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  return { stack, template: wholeTemplate(stack) };
}

const SENDER = "alerts@forwarder.example";
let retained: ReturnType<typeof build>;
let throwaway: ReturnType<typeof build>;
let demo: ReturnType<typeof build>;

beforeAll(() => {
  retained = build({ senderAddress: SENDER }, true);
  throwaway = build({ senderAddress: SENDER, retainData: "false" });
  demo = build({ demo: "true" });
}, 240_000);

function resources(template: Template, type: string): Array<[string, Resource]> {
  return Object.entries(template.findResources(type)) as Array<[string, Resource]>;
}

function variablesOf(fn: Resource): Record<string, unknown> {
  const environment = fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined;
  return environment?.Variables ?? {};
}

/** The logical id of a stack-level construct's CloudFormation resource. */
const idOf = (stack: Stack, path: string) => {
  const found = stack.node.findAll().find((node) => node.node.path === `${stack.stackName}/${path}`);
  const child = found?.node.defaultChild ?? found;
  if (!child) throw new Error(`no ${path}`);
  return stack.getLogicalId(child as never);
};

describe("the sender address", () => {
  it("is required: synthesis without it fails naming the flag", () => {
    const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
    expect(() => new RouteMapTrackerStack(app, "NoSender", stackPropsFromContext(app.node))).toThrow(
      /senderAddress is required.*-c senderAddress=alerts@your-domain.*-c demo=true/,
    );
  });

  it("is the one given, in the environment of every function that sends e-mail", () => {
    for (const [built, sender] of [
      [retained, SENDER],
      [demo, DEFAULT_SENDER_ADDRESS],
    ] as const) {
      const senders = resources(built.template, "AWS::Lambda::Function")
        .map(([, fn]) => variablesOf(fn))
        .filter((variables) => variables.SENDER_ADDRESS !== undefined);
      expect(senders.length).toBeGreaterThan(0);
      for (const variables of senders) expect(variables.SENDER_ADDRESS).toBe(sender);
      built.template.hasResourceProperties("AWS::SES::EmailIdentity", { EmailIdentity: sender });
    }
  });
});

describe("the data tables", () => {
  const tables = (built: ReturnType<typeof build>) => {
    const all = resources(built.template, "AWS::DynamoDB::Table");
    return Object.values(TABLES).map((definition) => {
      const found = all.find(([id]) => id.startsWith(`Data${definition.id}`));
      if (!found) throw new Error(`no ${definition.id} table`);
      return [definition.id, found[1]] as const;
    });
  };

  it("are all retained, with deletion protection, by default", () => {
    for (const [id, table] of tables(retained)) {
      expect(table.DeletionPolicy, id).toBe("Retain");
      expect(table.UpdateReplacePolicy, id).toBe("Retain");
      expect(table.Properties?.DeletionProtectionEnabled, id).toBe(true);
    }
  });

  it("are deleted with a throwaway stack (retainData=false), and with a demo stack", () => {
    for (const built of [throwaway, demo]) {
      for (const [id, table] of tables(built)) {
        expect(table.DeletionPolicy, id).toBe("Delete");
        expect(table.Properties?.DeletionProtectionEnabled, id).toBe(false);
      }
    }
  });

  it("stay retained in a demo stack that asks for it", () => {
    const app = new App({ context: { "aws:cdk:bundling-stacks": [], demo: "true", retainData: "true" } });
    expect(stackPropsFromContext(app.node)).toMatchObject({ demo: true, retainData: true });
  });
});

describe("outputs", () => {
  it("name the API URL, the alarm topic and the dashboard URL", () => {
    const { template, stack } = retained;
    const outputs = template.findOutputs("*");
    expect(outputs.ApiUrl?.Value).toBeDefined();
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain(".execute-api.");
    expect(outputs.AlarmTopicArn?.Value).toEqual({ Ref: idOf(stack, "AlarmTopic") });
    const dashboardUrl = JSON.stringify(outputs.DashboardUrl?.Value);
    expect(dashboardUrl).toContain(
      "https://eu-central-1.console.aws.amazon.com/cloudwatch/home?region=eu-central-1#dashboards:name=",
    );
    expect(dashboardUrl).toContain(`{"Ref":"${idOf(stack, "Operations/Dashboard")}"}`);
  });
});

describe("the dashboard", () => {
  let body: string;
  beforeAll(() => {
    const [[, dashboard] = ["", { Type: "" }]] = resources(retained.template, "AWS::CloudWatch::Dashboard");
    body = JSON.stringify(dashboard.Properties?.DashboardBody);
  });

  it("is one dashboard", () => {
    retained.template.resourceCountIs("AWS::CloudWatch::Dashboard", 1);
  });

  it("shows the handlers' metrics in the RouteMapTracker namespace with the service dimension", () => {
    for (const name of [
      METRIC_NAMES.messagesIngested,
      METRIC_NAMES.routeMapsChanged,
      METRIC_NAMES.eventsMatched,
      METRIC_NAMES.deliveryLatency,
      METRIC_NAMES.emailFeedback,
    ]) {
      expect(body).toContain(`\\"RouteMapTracker\\",\\"${name}\\"`);
    }
    expect(body).toContain(`\\"service\\",\\"${METRICS_SERVICE}\\"`);
    // Refusals by class and Scheduler call failures by operation: whatever classes occur.
    expect(body).toContain('MetricName=\\\\\\"IngestErrors\\\\\\"');
    expect(body).toContain('MetricName=\\\\\\"SchedulerErrors\\\\\\"');
  });

  it("shows deliveries by every outcome, the failure rate and latency p50/p99", () => {
    for (const outcome of DELIVERY_OUTCOMES) expect(body).toContain(`\\"Outcome\\",\\"${outcome}\\"`);
    expect(body).toContain("IF((d + f) > 0, 100 * f / (d + f), 0)");
    expect(body).toMatch(/DeliveryLatency.*"stat\\":\\"p50\\"/);
    expect(body).toMatch(/DeliveryLatency.*"stat\\":\\"p99\\"/);
  });

  it("shows the depth of every dead-letter queue, the Scheduler DLQ and the stream failure queues", () => {
    for (const queue of Object.values(QUEUES)) expect(body).toContain(`${queue.id} DLQ`);
    expect(body).toContain("Scheduler DLQ");
    expect(body).toContain("match-event stream failures");
    expect(body).toContain("plan-due-checks stream failures");
    expect(body).toContain("ApproximateNumberOfMessagesVisible");
  });

  it("shows the check group's Scheduler errors, the API's 5xx and latency", () => {
    for (const metric of SCHEDULER_METRICS) expect(body).toContain(`\\"AWS/Scheduler\\",\\"${metric}\\"`);
    expect(body).toContain(`{"Ref":"${idOf(retained.stack, "CheckSchedules")}"}`);
    expect(body).toContain('\\"AWS/ApiGateway\\",\\"5XXError\\"');
    expect(body).toContain('\\"AWS/ApiGateway\\",\\"Latency\\"');
  });
});

describe("alarms", () => {
  const alarms = () => resources(retained.template, "AWS::CloudWatch::Alarm");
  const topic = () => ({ Ref: idOf(retained.stack, "AlarmTopic") });

  it("all act on the alarm topic (and nothing else)", () => {
    expect(alarms().length).toBeGreaterThanOrEqual(Object.keys(QUEUES).length + 4);
    for (const [id, alarm] of alarms()) expect(alarm.Properties?.AlarmActions, id).toEqual([topic()]);
  });

  it("watch the delivery failure rate (metric math over the Outcome counts)", () => {
    const [[, alarm] = ["", { Type: "" }]] = alarms().filter(([id]) => id.includes("DeliveryFailureRate"));
    expect(alarm.Properties).toMatchObject({
      Threshold: ALARM_THRESHOLDS.deliveryFailureRatePercent,
      ComparisonOperator: "GreaterThanThreshold",
      OKActions: [topic()],
    });
    const metrics = JSON.stringify(alarm.Properties?.Metrics);
    expect(metrics).toContain("100 * f / (d + f)");
    expect(metrics).toContain('"Name":"Outcome","Value":"delivered"');
    expect(metrics).toContain('"Name":"Outcome","Value":"failed"');
  });

  it("watch the API's 5xx rate and p99 latency", () => {
    const [[, rate] = ["", { Type: "" }]] = alarms().filter(([id]) => id.includes("Api5xxRate"));
    expect(rate.Properties?.Threshold).toBe(ALARM_THRESHOLDS.api5xxRatePercent);
    expect(JSON.stringify(rate.Properties?.Metrics)).toContain('"MetricName":"5XXError"');
    const [[, latency] = ["", { Type: "" }]] = alarms().filter(([id]) => id.includes("ApiLatencyP99"));
    expect(latency.Properties).toMatchObject({
      MetricName: "Latency",
      Namespace: "AWS/ApiGateway",
      ExtendedStatistic: "p99",
      Threshold: ALARM_THRESHOLDS.apiLatencyP99Ms,
      AlarmActions: [topic()],
    });
  });
});

describe("SES bounces and complaints", () => {
  it("go from the configuration set to an encrypted topic, subscribed by the SesFeedback queue", () => {
    const { template, stack } = retained;
    const topicId = idOf(stack, "MailFeedback/Topic");
    template.hasResourceProperties("AWS::SES::ConfigurationSetEventDestination", {
      ConfigurationSetName: { Ref: idOf(stack, "MailConfiguration") },
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: ["bounce", "complaint"],
        SnsDestination: { TopicARN: { Ref: topicId } },
      }),
    });
    const keyArn = { "Fn::GetAtt": [idOf(stack, "DataKey"), "Arn"] };
    expect(template.findResources("AWS::SNS::Topic")[topicId]?.Properties?.KmsMasterKeyId).toEqual(keyArn);
    const queueId = idOf(stack, `Messaging/${QUEUES.sesFeedback.id}`);
    template.hasResourceProperties("AWS::SNS::Subscription", {
      Protocol: "sqs",
      TopicArn: { Ref: topicId },
      Endpoint: { "Fn::GetAtt": [queueId, "Arn"] },
    });
    template.hasResourceProperties("AWS::SQS::Queue", { KmsMasterKeyId: keyArn });
    // SES may use the data key to publish to the encrypted topic.
    template.hasResourceProperties("AWS::KMS::Key", {
      KeyPolicy: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: "ses.amazonaws.com" },
            Action: ["kms:GenerateDataKey*", "kms:Decrypt"],
          }),
        ]),
      }),
    });
  });

  it("feed the ses-feedback function, which may write the Subscriptions and Deliveries tables only", () => {
    const { template, stack } = retained;
    const fn = stack.eventFunctions.get("ses-feedback");
    expect(fn).toBeDefined();
    const fnId = stack.getLogicalId(fn?.node.defaultChild as never);
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: fnId },
      EventSourceArn: { "Fn::GetAtt": [idOf(stack, `Messaging/${QUEUES.sesFeedback.id}`), "Arn"] },
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    const environment = template.findResources("AWS::Lambda::Function")[fnId]?.Properties?.Environment as
      | { Variables: Record<string, unknown> }
      | undefined;
    const variables = environment?.Variables ?? {};
    expect(
      Object.keys(variables)
        .filter((name) => name.endsWith("_TABLE"))
        .sort(),
    ).toEqual([TABLES.deliveries.envVar, TABLES.subscriptions.envVar]);
  });
});

describe("metrics", () => {
  it("every function runs with the service name the dashboard's metrics carry", () => {
    for (const [id, fn] of resources(retained.template, "AWS::Lambda::Function")) {
      const variables = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables;
      // CDK's own helper functions (log retention, custom resources) have no service.
      if (variables?.POWERTOOLS_SERVICE_NAME === undefined) continue;
      expect(variables.POWERTOOLS_SERVICE_NAME, id).toBe(METRICS_SERVICE);
      expect(variables.POWERTOOLS_METRICS_DISABLED, id).toBeUndefined();
    }
  });
});

describe("cdk-nag", () => {
  it("reports no unsuppressed AwsSolutions error or warning", () => {
    const annotations = Annotations.fromStack(retained.stack);
    const findings = [
      ...annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ...annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ];
    expect(findings.map((entry) => `${entry.id}: ${String(entry.entry.data).slice(0, 200)}`)).toEqual([]);
  });
});
