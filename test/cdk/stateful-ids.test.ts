/**
 * A deploy over an existing stack keeps its data only if every resource that holds data (or that
 * something outside the stack names: the API's URL, the token URL, pending schedules, subscriptions of
 * the alarm topic) keeps its logical id and its stack. This is their snapshot: the ids below were
 * read from the stack before the API areas and the pipeline moved into nested stacks, and must not
 * change. A new table, queue, key or bucket belongs in the list (its id then never changes either).
 */
import { App, type CfnElement, NestedStack, type Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";

type Where = "main stack" | "web app stack";

/** [where, type, logical id]: the largest stack the flags make (inbound mail adds its bucket and queue). */
const KEPT: ReadonlyArray<readonly [Where, string, string]> = [
  ["main stack", "AWS::KMS::Key", "DataKey17AFBB84"],
  ["main stack", "AWS::DynamoDB::Table", "DataRouteMapsE3A6EAA4"],
  ["main stack", "AWS::DynamoDB::Table", "DataSubscriptionsB97CF578"],
  ["main stack", "AWS::DynamoDB::Table", "DataDeliveries440B443D"],
  ["main stack", "AWS::DynamoDB::Table", "DataIdempotency4AE02808"],
  ["main stack", "AWS::DynamoDB::Table", "DataTenants5C7A8409"],
  ["main stack", "AWS::DynamoDB::Table", "DataRateLimitsB3E4B03B"],
  ["main stack", "AWS::SQS::Queue", "MessagingDeliveryJobs8AB4D1CD"],
  ["main stack", "AWS::SQS::Queue", "MessagingDeliveryJobsDlq4BFBB084"],
  ["main stack", "AWS::SQS::Queue", "MessagingDeliverySlowJobs141940C2"],
  ["main stack", "AWS::SQS::Queue", "MessagingDeliverySlowJobsDlq3FEDDB36"],
  ["main stack", "AWS::SQS::Queue", "MessagingDueChecks7971D2C6"],
  ["main stack", "AWS::SQS::Queue", "MessagingDueChecksDlqB7C2C78A"],
  ["main stack", "AWS::SQS::Queue", "MessagingSesFeedbackA0A06ECF"],
  ["main stack", "AWS::SQS::Queue", "MessagingSesFeedbackDlq274F432E"],
  ["main stack", "AWS::SQS::Queue", "MessagingSchedulerDlq3AEFA91D"],
  ["main stack", "AWS::SQS::Queue", "MatchingMatchEventStreamFailures9D984FC7"],
  ["main stack", "AWS::SQS::Queue", "ScheduledChecksPlanDueChecksStreamFailures46928508"],
  ["main stack", "AWS::SQS::Queue", "InboundMailFailures5ED4D27B"],
  ["main stack", "AWS::S3::Bucket", "InboundMail3EB248DF"],
  ["main stack", "AWS::SES::ReceiptRuleSet", "InboundMailRuleSet1C376EE0"],
  ["main stack", "AWS::Cognito::UserPool", "IdentityUsers61009EFD"],
  ["main stack", "AWS::Cognito::UserPoolDomain", "IdentityUsersDomain884689BD"],
  ["main stack", "AWS::Cognito::UserPoolResourceServer", "IdentityUsersRouteMapApi4780EA4F"],
  ["main stack", "AWS::Scheduler::ScheduleGroup", "CheckSchedules"],
  // Every pending schedule names this role: replaced, they could no longer deliver.
  ["main stack", "AWS::IAM::Role", "SchedulerRole59E73443"],
  ["main stack", "AWS::SES::EmailIdentity", "SenderF5F9B8E0"],
  ["main stack", "AWS::SES::ConfigurationSet", "MailConfiguration5CD4B050"],
  ["main stack", "AWS::SNS::Topic", "AlarmTopicD01E77F9"],
  ["main stack", "AWS::SNS::Topic", "MailFeedbackTopic7A5EA358"],
  // Its id is the API's URL (ApiUrl, the distribution's origin).
  ["main stack", "AWS::ApiGateway::RestApi", "ApiRestApiE35FEAFE"],
  // The web app's build (recreated by every deploy) and the distribution whose domain is AppUrl.
  ["web app stack", "AWS::S3::Bucket", "Files8E6940B8"],
  ["web app stack", "AWS::CloudFront::Distribution", "Distribution830FAC52"],
];

/** Types whose every resource, in any template, must be in KEPT: what holds data. */
const DATA_TYPES = [
  "AWS::DynamoDB::Table",
  "AWS::SQS::Queue",
  "AWS::KMS::Key",
  "AWS::S3::Bucket",
  "AWS::Cognito::UserPool",
  "AWS::Scheduler::ScheduleGroup",
];

let stack: RouteMapTrackerStack;
let templates: Array<{ where: string; resources: Record<string, { Type: string }> }>;

beforeAll(() => {
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  stack = new RouteMapTrackerStack(app, "RouteMapTracker", {
    senderAddress: "alerts@forwarder.example",
    inboundMailRecipient: "carriers@forwarder.example",
  });
  app.synth();
  const nested = stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c));
  const named = (owner: Stack) =>
    owner === stack ? "main stack" : owner === stack.webApp.nestedStack ? "web app stack" : owner.node.path;
  templates = [stack, ...nested].map((owner) => ({
    where: named(owner),
    resources: (Template.fromStack(owner).toJSON() as { Resources: Record<string, { Type: string }> })
      .Resources,
  }));
}, 120_000);

describe("resources that hold data or are named from outside", () => {
  it.each(KEPT.map(([where, type, id]) => ({ where, type, id })))(
    "$id ($type) is still in the $where",
    ({ where, type, id }) => {
      const template = templates.find((candidate) => candidate.where === where);
      expect(template?.resources[id]?.Type, `${id} in the ${where}`).toBe(type);
    },
  );

  it("are all in the snapshot: no table, queue, key, bucket, user pool or schedule group outside it", () => {
    const found = templates.flatMap(({ where, resources }) =>
      Object.entries(resources)
        .filter(([, resource]) => DATA_TYPES.includes(resource.Type))
        .map(([id, resource]) => `${where} ${resource.Type} ${id}`),
    );
    const kept = KEPT.filter(([, type]) => DATA_TYPES.includes(type)).map(
      ([where, type, id]) => `${where} ${type} ${id}`,
    );
    expect(found.sort()).toEqual(kept.sort());
  });

  it("include the Scheduler role the stack hands to every schedule", () => {
    const role = stack.node.findChild("SchedulerRole").node.defaultChild as CfnElement;
    expect(stack.getLogicalId(role)).toBe("SchedulerRole59E73443");
  });
});
