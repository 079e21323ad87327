/**
 * Turns a function's entry in lib/function-access.ts into what it gets in the stack: the environment
 * naming its settings and resources (names from functions/contracts/resources.ts and settings.ts) and
 * the IAM grants on exactly those resources, each wildcard suppressed by name. Used by every construct
 * that creates a function (the API, matching, delivery, scheduled checks), so none grants on its own.
 */
import { Lazy, type Stack } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { type IRole, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { CfnScheduleGroup } from "aws-cdk-lib/aws-scheduler";
import type { ConfigurationSet, EmailIdentity } from "aws-cdk-lib/aws-ses";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { type NagPackSuppression, NagSuppressions } from "cdk-nag";
import { QUEUES, queueArnEnvVar, TABLES } from "../functions/contracts/resources.ts";
import { SETTINGS_ENV } from "../functions/contracts/settings.ts";
import { AUTHORIZER_HANDLER } from "./constructs/api.ts";
import {
  type FunctionAccess,
  functionAccess,
  type QueueName,
  type TableAccess,
  type TableName,
} from "./function-access.ts";

export const KMS_WILDCARDS = ["Action::kms:GenerateDataKey*", "Action::kms:ReEncrypt*"] as const;
/** What CDK's grantWriteData gives on a table's customer-managed key (DynamoDB calls KMS as the caller). */
const TABLE_WRITE_KEY_ACTIONS = [
  "kms:Decrypt",
  "kms:DescribeKey",
  "kms:Encrypt",
  "kms:ReEncrypt*",
  "kms:GenerateDataKey*",
] as const;

export const KMS_WILDCARD_REASON =
  "KMS data-key actions (GenerateDataKey*, ReEncrypt*) on the one data key, as CDK grants them for encrypted tables and queues.";

/** EventBridge Scheduler as the functions that create schedules use it. */
export interface SchedulerResources {
  /** The check group: due checks and long delivery retries. */
  group: CfnScheduleGroup;
  /** The role Scheduler assumes to deliver a schedule to its queue. */
  role: IRole;
  /** Where Scheduler parks what it could not deliver. */
  deadLetterQueue: IQueue;
}

/** The handler that creates status requests (sendsme): it reads the collapse window. */
const STATUS_REQUEST_HANDLER = "trigger-route-map";

export interface FunctionBindingsProps {
  tables: Record<TableName, ITable>;
  queues: Record<QueueName, IQueue>;
  scheduler: SchedulerResources;
  mail: { senderAddress: string; configurationSet: ConfigurationSet; identity: EmailIdentity };
  serviceName: string;
  jwtIssuer: string;
  /** Required: the authorizer refuses tokens for any other audience (and every token without one). */
  jwtAudience: string;
  /** Longest token lifetime the authorizer accepts, in seconds. */
  jwtMaxLifetimeSeconds: number;
  /** Repeated sendsme for one AWB within this many seconds ask the carrier once (trigger-route-map). */
  statusRequestWindowSeconds: number;
  /** Per-caller limits, set on every route's function: token bucket and minute/hour/day windows. */
  rateLimit: { perSecond: number; burst: number; perMinute: number; perHour: number; perDay: number };
  /** Named tiers and callers' tiers (validated by the stack), set on every route's function. */
  rateLimitTiers: { tiers: Record<string, unknown>; callerTiers: Record<string, string> };
  /** Handler ids of the route table's routes (they get the rate limit). */
  routeHandlers: ReadonlySet<string>;
  /** The Cognito user pool of tenant app clients and forwarder users (manageClients, manageUsers). */
  userPool: { userPoolId: string; userPoolArn: string };
}

/** Cognito actions of each user-pool access flag, on the stack's pool only. */
const USER_POOL_ACTIONS = {
  manageClients: ["cognito-idp:CreateUserPoolClient", "cognito-idp:DeleteUserPoolClient"],
  manageUsers: ["cognito-idp:AdminCreateUser", "cognito-idp:AdminDeleteUser"],
} as const;

function userPoolActions(access: FunctionAccess): string[] {
  return [
    ...(access.manageClients ? USER_POOL_ACTIONS.manageClients : []),
    ...(access.manageUsers ? USER_POOL_ACTIONS.manageUsers : []),
  ];
}

function tableEntries(access: FunctionAccess): Array<[TableName, TableAccess]> {
  return Object.entries(access.tables ?? {}) as Array<[TableName, TableAccess]>;
}

export class FunctionBindings {
  private readonly schedulesArn: string;
  /**
   * The web app's origin (the CloudFront distribution), known only after the API exists (the
   * distribution fronts it): set by setAppBaseUrl, read lazily when the template is written.
   */
  private appBaseUrl: string | undefined;
  private readonly appBaseUrlToken = Lazy.string({
    produce: () => {
      if (this.appBaseUrl === undefined)
        throw new Error(
          "FunctionBindings.setAppBaseUrl was never called: no function can link to the web app",
        );
      return this.appBaseUrl;
    },
  });

  constructor(
    private readonly stack: Stack,
    private readonly props: FunctionBindingsProps,
  ) {
    this.schedulesArn = stack.formatArn({
      service: "scheduler",
      resource: "schedule",
      resourceName: `${props.scheduler.group.ref}/*`,
    });
  }

  /** Where the web app is served (`https://<distribution domain>`), for functions with linksToApp. */
  setAppBaseUrl(url: string): void {
    this.appBaseUrl = url;
  }

  /** A function's environment: the settings and resources of its entry in lib/function-access.ts. */
  environmentFor(handler: string): Record<string, string> {
    const { props } = this;
    const access = functionAccess(handler);
    const environment: Record<string, string> = {
      [SETTINGS_ENV.serviceName]: props.serviceName,
      [SETTINGS_ENV.deploymentMode]: "production",
      // Powertools' own switch, stated so a deployment never runs without idempotency.
      POWERTOOLS_IDEMPOTENCY_DISABLED: "false",
    };
    if (handler === AUTHORIZER_HANDLER) {
      environment[SETTINGS_ENV.jwtIssuer] = props.jwtIssuer;
      environment[SETTINGS_ENV.jwtAudience] = props.jwtAudience;
      environment[SETTINGS_ENV.jwtMaxLifetimeSeconds] = String(props.jwtMaxLifetimeSeconds);
    }
    if (handler === STATUS_REQUEST_HANDLER) {
      environment[SETTINGS_ENV.statusRequestWindowSeconds] = String(props.statusRequestWindowSeconds);
    }
    if (props.routeHandlers.has(handler)) {
      // Read by functions/adapters/config.ts (rateLimitTiers) for every route's rate-limit middleware.
      environment[SETTINGS_ENV.rateLimitPerSecond] = String(props.rateLimit.perSecond);
      environment[SETTINGS_ENV.rateLimitBurst] = String(props.rateLimit.burst);
      environment[SETTINGS_ENV.rateLimitPerMinute] = String(props.rateLimit.perMinute);
      environment[SETTINGS_ENV.rateLimitPerHour] = String(props.rateLimit.perHour);
      environment[SETTINGS_ENV.rateLimitPerDay] = String(props.rateLimit.perDay);
      environment[SETTINGS_ENV.rateLimitTiers] = JSON.stringify(props.rateLimitTiers.tiers);
      environment[SETTINGS_ENV.rateLimitCallerTiers] = JSON.stringify(props.rateLimitTiers.callerTiers);
    }
    for (const [name] of tableEntries(access)) {
      environment[TABLES[name].envVar] = props.tables[name].tableName;
    }
    for (const name of access.sendTo ?? []) {
      environment[QUEUES[name].envVar] = props.queues[name].queueUrl;
      environment[queueArnEnvVar(QUEUES[name])] = props.queues[name].queueArn;
    }
    if ((access.schedules ?? []).length > 0) {
      // Every schedule it creates names the group, the role Scheduler assumes and a dead-letter queue.
      environment[SETTINGS_ENV.scheduleGroupName] = props.scheduler.group.ref;
      environment[SETTINGS_ENV.schedulerRoleArn] = props.scheduler.role.roleArn;
      environment[SETTINGS_ENV.schedulerDlqArn] = props.scheduler.deadLetterQueue.queueArn;
    }
    if (userPoolActions(access).length > 0) {
      environment[SETTINGS_ENV.userPoolId] = props.userPool.userPoolId;
    }
    if (access.linksToApp) environment[SETTINGS_ENV.appBaseUrl] = this.appBaseUrlToken;
    if (access.sendsEmail) {
      environment[SETTINGS_ENV.senderAddress] = props.mail.senderAddress;
      environment[SETTINGS_ENV.sesConfigurationSet] = props.mail.configurationSet.configurationSetName;
    }
    return environment;
  }

  /** Grants exactly a function's entry in lib/function-access.ts, suppressing each wildcard by name. */
  grant(handler: string, fn: IFunction): void {
    const { props } = this;
    const access = functionAccess(handler);
    const wildcards: NagPackSuppression[] = [];
    for (const [name, mode] of tableEntries(access)) {
      const table = props.tables[name];
      if (mode === "readWrite") table.grantReadWriteData(fn);
      else if (mode === "read") table.grantReadData(fn);
      else if (mode === "get") {
        // Items by key, nothing else: no Query, no Scan (the table's key decrypts them).
        table.grant(fn, "dynamodb:GetItem");
        table.encryptionKey?.grant(fn, "kms:Decrypt");
      } else {
        // Counting: UpdateItem only, with the data key's actions CDK grants for any write.
        table.grant(fn, "dynamodb:UpdateItem");
        table.encryptionKey?.grant(fn, ...TABLE_WRITE_KEY_ACTIONS);
      }
      if (TABLES[name].globalIndexes.length > 0) {
        wildcards.push({
          id: "AwsSolutions-IAM5",
          reason: `Queries on the ${TABLES[name].id} table's own indexes (table ARN + /index/*).`,
          appliesTo: [
            { regex: `/^Resource::<Data${TABLES[name].id}[0-9A-F]+\\.Arn>\\/index\\/\\*$/` },
            // The same table ARN as a nested stack's parameter (the API areas, the pipeline).
            { regex: `/^Resource::<referenceto\\w*Data${TABLES[name].id}[0-9A-F]+Arn>\\/index\\/\\*$/` },
          ],
        });
      }
    }
    for (const name of access.sendTo ?? []) props.queues[name].grantSendMessages(fn);
    const writes = tableEntries(access).some(([, mode]) => mode === "readWrite" || mode === "count");
    if (writes || (access.sendTo ?? []).length > 0) {
      wildcards.push({ id: "AwsSolutions-IAM5", reason: KMS_WILDCARD_REASON, appliesTo: [...KMS_WILDCARDS] });
    }
    const scheduleActions = access.schedules ?? [];
    if (scheduleActions.length > 0) {
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: scheduleActions.map((action) => `scheduler:${action}`),
          resources: [this.schedulesArn],
        }),
      );
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ["iam:PassRole"],
          resources: [props.scheduler.role.roleArn],
          conditions: { StringEquals: { "iam:PassedToService": "scheduler.amazonaws.com" } },
        }),
      );
      wildcards.push({
        id: "AwsSolutions-IAM5",
        reason: "Schedules are named per AWB and check at run time; the grant covers only the check group.",
        appliesTo: [
          {
            // Region and account: literals with an env, tokens without (the offline `cdk synth`); the
            // group by its logical id, or as the parameter a nested stack receives it by.
            regex:
              "/^Resource::arn:<AWS::Partition>:scheduler:(<AWS::Region>|[a-z0-9-]+):(<AWS::AccountId>|\\d{12}):schedule\\/<(CheckSchedules|referenceto\\w*CheckSchedules\\w*Ref)>\\/\\*$/",
          },
        ],
      });
    }
    if (access.sendsEmail) {
      props.mail.identity.grantSendEmail(fn);
      // Sending with a configuration set also needs the send actions on the set itself.
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ["ses:SendEmail", "ses:SendRawEmail"],
          resources: [
            this.stack.formatArn({
              service: "ses",
              resource: "configuration-set",
              resourceName: props.mail.configurationSet.configurationSetName,
            }),
          ],
        }),
      );
    }
    const poolActions = userPoolActions(access);
    if (poolActions.length > 0) {
      fn.addToRolePolicy(
        new PolicyStatement({ actions: poolActions, resources: [props.userPool.userPoolArn] }),
      );
    }
    if (wildcards.length > 0) NagSuppressions.addResourceSuppressions(fn, wildcards, true);
  }
}
