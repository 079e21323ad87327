/**
 * Cargo-IMP by e-mail in AWS (lib/constructs/inbound-mail.ts): with
 * `inboundMailRecipient`, an SES receipt rule set whose rule scans the mail, stores it under inbound/
 * in an encrypted, private, TLS-only bucket that forgets it after 30 days, then invokes
 * inbound-carrier-mail; that function may read only those objects, the tables its use case needs and
 * send the error reply. Without the context: none of it. cdk-nag has no unsuppressed finding.
 */
import { App, Aspects, type CfnElement } from "aws-cdk-lib";
import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { beforeAll, describe, expect, it } from "vitest";
import { TABLES } from "../../functions/contracts/resources.ts";
import { stackPropsFromContext } from "../../lib/app-context.ts";
import { validatedInboundRecipient } from "../../lib/constructs/inbound-mail.ts";
import { RouteMapTrackerStack, type RouteMapTrackerStackProps } from "../../lib/route-map-tracker-stack.ts";
import { wholeTemplate } from "../support/cdk-template.ts";

type Resource = { Type: string; Properties?: Record<string, unknown>; DependsOn?: string[] };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

interface Built {
  stack: RouteMapTrackerStack;
  template: Template;
}

function build(id: string, props: RouteMapTrackerStackProps): Built {
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new RouteMapTrackerStack(app, id, {
    env: { account: "123456789012", region: "eu-west-1" },
    senderAddress: "notifications@forwarder.example",
    ...props,
  });
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  app.synth();
  return { stack, template: wholeTemplate(stack) };
}

let withMail: Built;
let withoutMail: Built;

beforeAll(() => {
  withMail = build("WithInboundMail", { inboundMailRecipient: "Carriers@Forwarder.example" });
  withoutMail = build("WithoutInboundMail", {});
}, 240_000);

const resourcesOf = (built: Built, type: string) =>
  Object.entries(built.template.findResources(type)) as Array<[string, Resource]>;

function onlyResource(built: Built, type: string): [string, Resource] {
  const found = resourcesOf(built, type);
  expect(found, type).toHaveLength(1);
  return found[0] as [string, Resource];
}

function inbound(built: Built) {
  const mail = built.stack.inboundMail;
  if (!mail) throw new Error("no inbound mail construct");
  const id = (element: unknown) => built.stack.getLogicalId(element as CfnElement);
  return {
    bucketId: id(mail.bucket.node.defaultChild),
    functionId: id(mail.function.node.defaultChild),
    roleId: id(mail.function.role?.node.defaultChild),
    failuresId: id(mail.failures.node.defaultChild),
  };
}

function statementsOfRole(built: Built, roleId: string): Statement[] {
  const roleRef = JSON.stringify({ Ref: roleId });
  return resourcesOf(built, "AWS::IAM::Policy")
    .filter(([, policy]) => JSON.stringify(policy.Properties?.Roles).includes(roleRef))
    .flatMap(
      ([, policy]) =>
        (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [],
    );
}

const tableId = (built: Built, name: keyof typeof TABLES) =>
  resourcesOf(built, "AWS::DynamoDB::Table").find(([id]) =>
    new RegExp(`^Data${TABLES[name].id}[0-9A-F]{8}$`).test(id),
  )?.[0];

describe("receipt rule", () => {
  it("receives for the recipient, scans, stores under inbound/ and then invokes the function (event)", () => {
    const { bucketId, functionId } = inbound(withMail);
    onlyResource(withMail, "AWS::SES::ReceiptRuleSet");
    const [, rule] = onlyResource(withMail, "AWS::SES::ReceiptRule");
    const props = rule.Properties?.Rule as Record<string, unknown>;
    expect(props).toMatchObject({
      Enabled: true,
      Recipients: ["carriers@forwarder.example"],
      ScanEnabled: true,
      TlsPolicy: "Require",
    });
    expect(props.Actions).toEqual([
      { S3Action: { BucketName: { Ref: bucketId }, ObjectKeyPrefix: "inbound/" } },
      {
        LambdaAction: {
          FunctionArn: { "Fn::GetAtt": [functionId, "Arn"] },
          InvocationType: "Event",
        },
      },
    ]);
  });

  it("lets only SES of this account invoke the function and write to the bucket", () => {
    const { bucketId, functionId } = inbound(withMail);
    const permissions = resourcesOf(withMail, "AWS::Lambda::Permission").filter(([, permission]) =>
      JSON.stringify(permission.Properties?.FunctionName).includes(functionId),
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]?.[1].Properties).toMatchObject({
      Action: "lambda:InvokeFunction",
      Principal: "ses.amazonaws.com",
      SourceAccount: { Ref: "AWS::AccountId" },
    });
    const [, policy] = resourcesOf(withMail, "AWS::S3::BucketPolicy").find(
      ([, candidate]) => JSON.stringify(candidate.Properties?.Bucket) === JSON.stringify({ Ref: bucketId }),
    ) ?? ["", { Type: "" }];
    const statements =
      (policy.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)?.Statement ?? [];
    const allows = statements.filter((statement) => statement.Effect === "Allow");
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Action: "s3:PutObject",
      Principal: { Service: "ses.amazonaws.com" },
      Condition: { StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } } },
    });
    // TLS only.
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: "Deny",
        Condition: { Bool: { "aws:SecureTransport": "false" } },
      }),
    );
  });

  it("is not there without inboundMailRecipient: no rule set, no mail bucket, no function", () => {
    expect(withoutMail.stack.inboundMail).toBeUndefined();
    expect(resourcesOf(withoutMail, "AWS::SES::ReceiptRuleSet")).toEqual([]);
    expect(resourcesOf(withoutMail, "AWS::SES::ReceiptRule")).toEqual([]);
    // The one bucket left is the web app's (lib/constructs/web-app.ts).
    const webAppBucket = withoutMail.stack.getLogicalId(
      withoutMail.stack.webApp.bucket.node.defaultChild as CfnElement,
    );
    expect(resourcesOf(withoutMail, "AWS::S3::Bucket").map(([id]) => id)).toEqual([webAppBucket]);
  });

  it("reads the recipient from context and refuses one SES cannot receive for", () => {
    const app = new App({ context: { inboundMailRecipient: "carriers@forwarder.example" } });
    expect(stackPropsFromContext(app.node).inboundMailRecipient).toBe("carriers@forwarder.example");
    expect(() => validatedInboundRecipient("not an address")).toThrow(/inboundMailRecipient/);
    expect(validatedInboundRecipient("Carriers@Example.com")).toBe("carriers@example.com");
  });
});

describe("mail bucket", () => {
  it("is encrypted, private, and forgets mail after 30 days", () => {
    const { bucketId } = inbound(withMail);
    const bucket = withMail.template.toJSON().Resources[bucketId] as Resource;
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 30, Status: "Enabled" }] },
    });
  });
});

describe("inbound-carrier-mail", () => {
  it("may read only the stored mails, its tables and send the reply: least privilege", () => {
    const { bucketId, roleId, failuresId } = inbound(withMail);
    const statements = statementsOfRole(withMail, roleId);
    const s3 = statements.filter((statement) => [statement.Action].flat().some((a) => a.startsWith("s3:")));
    expect(s3).toEqual([
      {
        Effect: "Allow",
        Action: "s3:GetObject",
        Resource: { "Fn::Join": ["", [{ "Fn::GetAtt": [bucketId, "Arn"] }, "/inbound/*"]] },
      },
    ]);
    const onTable = (name: keyof typeof TABLES) =>
      statements
        .filter((statement) => JSON.stringify(statement.Resource).includes(`"${tableId(withMail, name)}"`))
        .flatMap((statement) => [statement.Action].flat());
    expect(onTable("subscriptions")).not.toContain("dynamodb:PutItem");
    expect(onTable("subscriptions")).toContain("dynamodb:GetItem");
    expect(onTable("routeMaps")).toContain("dynamodb:PutItem");
    expect(onTable("deliveries")).toContain("dynamodb:PutItem");
    // Whether the carrier is enabled: its tenant item, by key only.
    expect(onTable("tenants")).toEqual(["dynamodb:GetItem"]);
    expect(onTable("rateLimits")).toEqual([]);
    const actions = statements.flatMap((statement) => [statement.Action].flat());
    expect(actions).toContain("ses:SendEmail");
    // The only queue it sends to is its own failure queue (the async invocation's destination).
    const queueStatements = statements.filter((statement) =>
      [statement.Action].flat().includes("sqs:SendMessage"),
    );
    expect(queueStatements.map((statement) => statement.Resource)).toEqual([
      { "Fn::GetAtt": [failuresId, "Arn"] },
    ]);
    expect(
      actions.filter((action) => action.startsWith("scheduler:") || action.startsWith("cognito")),
    ).toEqual([]);
  });

  it("names the bucket in its environment and parks invocations that fail after two retries", () => {
    const { bucketId, functionId, failuresId } = inbound(withMail);
    const fn = withMail.template.toJSON().Resources[functionId] as Resource;
    expect(fn.Properties?.Environment).toMatchObject({
      Variables: { INBOUND_MAIL_BUCKET: { Ref: bucketId } },
    });
    const [, config] = onlyResource(withMail, "AWS::Lambda::EventInvokeConfig");
    expect(config.Properties).toMatchObject({
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { "Fn::GetAtt": [failuresId, "Arn"] } } },
    });
  });
});

describe("cdk-nag", () => {
  it("reports no unsuppressed AwsSolutions error or warning", () => {
    for (const built of [withMail, withoutMail]) {
      const findings = [
        ...Annotations.fromStack(built.stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
        ...Annotations.fromStack(built.stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ];
      expect(findings.map((finding) => `${finding.id}: ${String(finding.entry.data).slice(0, 160)}`)).toEqual(
        [],
      );
    }
  });
});
