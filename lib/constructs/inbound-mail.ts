/**
 * Cargo-IMP by e-mail: an SES receipt rule set with one rule for the inbound
 * address (context `inboundMailRecipient`, e.g. carriers@your-domain). The rule scans for spam and
 * viruses, stores the raw mail in an encrypted, private, TLS-only bucket under `inbound/` (kept 30
 * days), then invokes `inbound-carrier-mail` (event invocation), which reads the mail from the bucket
 * (GetObject on `inbound/*` only), checks the verdicts SES put in the event and the sender allow-list,
 * and calls the carrier-message ingest. Invocations that still fail after Lambda's two retries are
 * parked on an alarmed queue.
 *
 * SES has ONE active receipt rule set per region: this set is created inactive. Activate it once,
 * after the first deploy, with `aws ses set-active-receipt-rule-set --rule-set-name <InboundMailRuleSet output>`
 * (this replaces any other active set of the region: merge rules first if the account receives other
 * mail). The recipient's domain needs an MX record to `inbound-smtp.<region>.amazonaws.com` and a
 * verified SES domain identity, in a region where SES receives mail.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack } from "aws-cdk-lib";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IKey } from "aws-cdk-lib/aws-kms";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { SqsDestination } from "aws-cdk-lib/aws-lambda-destinations";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { BlockPublicAccess, Bucket, BucketEncryption } from "aws-cdk-lib/aws-s3";
import { ReceiptRuleSet, TlsPolicy } from "aws-cdk-lib/aws-ses";
import { Lambda, LambdaInvocationType, S3 } from "aws-cdk-lib/aws-ses-actions";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import {
  INBOUND_MAIL_BUCKET_ENV,
  INBOUND_MAIL_FUNCTION,
  INBOUND_MAIL_OBJECT_PREFIX,
  INBOUND_MAIL_RETENTION_DAYS,
  INBOUND_MAIL_TIMEOUT_SECONDS,
} from "../../functions/contracts/inbound-mail.ts";
import { type FunctionBindings, KMS_WILDCARD_REASON, KMS_WILDCARDS } from "../function-bindings.ts";
import { HandlerFunction } from "./handler-function.ts";
import { parkingQueue } from "./messaging.ts";

export interface InboundMailProps {
  /** The address carriers mail Cargo-IMP to (context inboundMailRecipient). */
  recipient: string;
  bindings: FunctionBindings;
  logRetention: RetentionDays;
  /** Keep the mail bucket on stack deletion (the data's removal policy). */
  retainData: boolean;
  /** Encrypts and alarms the queue of failed invocations. */
  key: IKey;
  alarmTopic: ITopic;
}

/** An address SES can receive for: local part @ domain (or a bare domain, which SES also accepts). */
const RECIPIENT = /^(?:[^@\s]+@)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

/** Throws naming the context flag when the recipient is no address SES can receive for. */
export function validatedInboundRecipient(recipient: string): string {
  if (!RECIPIENT.test(recipient))
    throw new Error(
      `inboundMailRecipient must be an e-mail address (or domain) SES receives for, e.g. carriers@your-domain; got ${JSON.stringify(recipient)}`,
    );
  return recipient.toLowerCase();
}

export class InboundMail extends Construct {
  readonly bucket: Bucket;
  readonly function: IFunction;
  readonly ruleSet: ReceiptRuleSet;
  /** Mails whose processing failed after Lambda's retries (the SES event, to replay). */
  readonly failures: IQueue;

  constructor(scope: Construct, id: string, props: InboundMailProps) {
    super(scope, id);
    const recipient = validatedInboundRecipient(props.recipient);
    this.bucket = new Bucket(this, "Mail", {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      versioned: false,
      lifecycleRules: [{ expiration: Duration.days(INBOUND_MAIL_RETENTION_DAYS) }],
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: "AwsSolutions-S1",
        reason:
          "Raw inbound mail kept 30 days, written only by SES and read only by inbound-carrier-mail; every mail and its outcome is in the carrier's inbound log, and S3 data events go to the account's CloudTrail.",
      },
    ]);

    const { handler, folder } = INBOUND_MAIL_FUNCTION;
    const fn = new HandlerFunction(this, "InboundCarrierMail", {
      handlerPath: `${folder}/${handler}`,
      environment: {
        ...props.bindings.environmentFor(handler),
        [INBOUND_MAIL_BUCKET_ENV]: this.bucket.bucketName,
      },
      timeout: Duration.seconds(INBOUND_MAIL_TIMEOUT_SECONDS),
      logRetention: props.logRetention,
    }).fn;
    props.bindings.grant(handler, fn);
    // The raw mails, and nothing else of the bucket.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ["s3:GetObject"],
        resources: [this.bucket.arnForObjects(`${INBOUND_MAIL_OBJECT_PREFIX}*`)],
      }),
    );
    this.failures = parkingQueue(
      this,
      "Failures",
      "inbound-carrier-mail: received mails whose processing failed after retries (replay the SES event)",
      props,
    );
    fn.configureAsyncInvoke({
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
      onFailure: new SqsDestination(this.failures),
    });
    NagSuppressions.addResourceSuppressions(
      fn,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "SES stores each mail under inbound/<message id>: GetObject on that prefix of the one bucket.",
          appliesTo: [{ regex: "/^Resource::<InboundMail(Mail)?[0-9A-F]+\\.Arn>\\/inbound\\/\\*$/" }],
        },
        { id: "AwsSolutions-IAM5", reason: KMS_WILDCARD_REASON, appliesTo: [...KMS_WILDCARDS] },
      ],
      true,
    );
    this.function = fn;

    // Inactive when created: one rule set is active per region (see the header).
    this.ruleSet = new ReceiptRuleSet(this, "RuleSet", {
      rules: [
        {
          recipients: [recipient],
          scanEnabled: true,
          tlsPolicy: TlsPolicy.REQUIRE,
          actions: [
            new S3({ bucket: this.bucket, objectKeyPrefix: INBOUND_MAIL_OBJECT_PREFIX }),
            new Lambda({ function: fn, invocationType: LambdaInvocationType.EVENT }),
          ],
        },
      ],
    });
    new CfnOutput(Stack.of(this), "InboundMailRuleSet", {
      description:
        "Activate once (one active set per region): aws ses set-active-receipt-rule-set --rule-set-name <this>",
      value: this.ruleSet.receiptRuleSetName,
    });
  }
}
