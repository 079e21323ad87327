/**
 * The whole service in one stack (DESIGN.md sections 2 and 3): API + authorizer, tables, queues with
 * DLQs and alarms, event-driven functions, EventBridge Scheduler group and role, SES identity.
 * No physical names: everything is named by CloudFormation and handed to functions as environment.
 * Each function gets exactly its entry in lib/function-access.ts: grants and the environment naming
 * those resources, nothing else.
 */
import { Aspects, Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { AccountRecovery, UserPool } from "aws-cdk-lib/aws-cognito";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import { FilterCriteria, FilterRule, type IFunction, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsDlq, SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { CfnScheduleGroup } from "aws-cdk-lib/aws-scheduler";
import { ConfigurationSet, EmailIdentity, Identity } from "aws-cdk-lib/aws-ses";
import { Topic } from "aws-cdk-lib/aws-sns";
import { type NagPackSuppression, NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import { EVENT_FUNCTIONS, type FilterPattern } from "../functions/contracts/event-functions.ts";
import { QUEUES, queueArnEnvVar, TABLES } from "../functions/contracts/resources.ts";
import { DEFAULT_RATE_LIMIT as CORE_RATE_LIMIT } from "../functions/core/rate-limit.ts";
import { DEFAULT_SERVICE_NAME, ROUTES } from "../functions/handlers/http/routes.ts";
import { Api, AUTHORIZER_HANDLER } from "./constructs/api.ts";
import { DataTables } from "./constructs/data.ts";
import { HandlerFunction } from "./constructs/handler-function.ts";
import { Messaging } from "./constructs/messaging.ts";
import { type FunctionAccess, functionAccess, type TableName } from "./function-access.ts";
import { WildcardResourceGuard } from "./wildcard-guard.ts";

export interface RouteMapTrackerStackProps extends StackProps {
  /** Leading path segment under which every route is also served. */
  serviceName?: string;
  /** Verified SES identity that sends notification e-mail. */
  senderAddress?: string;
  /** OIDC issuer of bearer tokens; a Cognito user pool is created when absent. */
  jwtIssuer?: string;
  jwtAudience?: string;
  /** Keep data on stack deletion (production). */
  retainData?: boolean;
  /** Per-caller token bucket in every route (default 50 requests/s, burst 100). */
  rateLimit?: RateLimitSettings;
}

export interface RateLimitSettings {
  perSecond: number;
  burst: number;
}

/** functions/core/rate-limit.ts's defaults, set explicitly so the deployed values are visible. */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = {
  perSecond: CORE_RATE_LIMIT.ratePerSecond,
  burst: CORE_RATE_LIMIT.burst,
};

/**
 * Oldest stream record a consumer still retries; older ones go to its failure queue. Well inside the
 * stream's 24 h retention, so an operator has about 18 h to redrive them from the stream.
 */
export const STREAM_MAX_RECORD_AGE = Duration.hours(6);

const KMS_WILDCARDS = ["Action::kms:GenerateDataKey*", "Action::kms:ReEncrypt*"] as const;
const KMS_WILDCARD_REASON =
  "KMS data-key actions (GenerateDataKey*, ReEncrypt*) on the one data key, as CDK grants them for encrypted tables and queues.";

function tableEntries(access: FunctionAccess): Array<[TableName, "read" | "readWrite"]> {
  return Object.entries(access.tables ?? {}) as Array<[TableName, "read" | "readWrite"]>;
}

/** "match-event" -> "MatchEvent" (construct ids). */
function pascalCase(id: string): string {
  return id.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase());
}

/** Turns an event-source filter pattern into Lambda FilterCriteria. */
function toFilterRules(pattern: FilterPattern): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(pattern).map(([key, value]) => [
      key,
      Array.isArray(value) ? FilterRule.or(...(value as string[])) : toFilterRules(value as FilterPattern),
    ]),
  );
}

export class RouteMapTrackerStack extends Stack {
  readonly api: Api;
  readonly eventFunctions = new Map<string, IFunction>();

  constructor(scope: Construct, id: string, props: RouteMapTrackerStackProps = {}) {
    super(scope, id, props);
    const serviceName = props.serviceName ?? DEFAULT_SERVICE_NAME;
    const logRetention = RetentionDays.ONE_MONTH;

    const key = new Key(this, "DataKey", {
      enableKeyRotation: true,
      description:
        "Route Map Tracker: tables, queues and secrets (webhook Psk/Token, customer header values)",
    });
    const alarmTopic = new Topic(this, "AlarmTopic", { masterKey: key, enforceSSL: true });
    const data = new DataTables(this, "Data", {
      key,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const messaging = new Messaging(this, "Messaging", { key, alarmTopic });

    let issuer = props.jwtIssuer;
    if (!issuer) {
      const userPool = new UserPool(this, "Users", {
        selfSignUpEnabled: false,
        passwordPolicy: {
          minLength: 14,
          requireDigits: true,
          requireLowercase: true,
          requireUppercase: true,
          requireSymbols: true,
        },
        accountRecovery: AccountRecovery.EMAIL_ONLY,
        removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      issuer = userPool.userPoolProviderUrl;
      NagSuppressions.addResourceSuppressions(userPool, [
        {
          id: "AwsSolutions-COG2",
          reason:
            "Callers are forwarder and carrier systems (machine clients); MFA applies to no human sign-in.",
        },
        {
          id: "AwsSolutions-COG3",
          reason: "Threat protection is an account-level choice of the operating team.",
        },
        {
          id: "AwsSolutions-COG8",
          reason: "Plus feature plan is an account-level choice of the operating team.",
        },
      ]);
    }
    const jwtIssuer: string = issuer;

    const scheduleGroup = new CfnScheduleGroup(this, "CheckSchedules", {});
    const senderAddress = props.senderAddress ?? "notifications@example.com";
    const configurationSet = new ConfigurationSet(this, "MailConfiguration", {});
    const emailIdentity = new EmailIdentity(this, "Sender", {
      identity: Identity.email(senderAddress),
      configurationSet,
    });

    // Scheduler delivers to queues with this role; PassRole is granted only for it.
    const schedulerRole = new Role(this, "SchedulerRole", {
      assumedBy: new ServicePrincipal("scheduler.amazonaws.com", {
        conditions: { StringEquals: { "aws:SourceAccount": this.account } },
      }),
      description: "EventBridge Scheduler: deliver due checks and delayed delivery retries to their queues",
    });
    messaging.schedulerDeadLetterQueue.grantSendMessages(schedulerRole);
    // Scheduler delivers due checks and long-delayed delivery retries to these queues, nothing else.
    messaging.queues.dueChecks.grantSendMessages(schedulerRole);
    messaging.queues.deliveryJobs.grantSendMessages(schedulerRole);
    NagSuppressions.addResourceSuppressions(
      schedulerRole,
      [{ id: "AwsSolutions-IAM5", reason: KMS_WILDCARD_REASON, appliesTo: [...KMS_WILDCARDS] }],
      true,
    );

    const rateLimit = props.rateLimit ?? DEFAULT_RATE_LIMIT;
    const routeHandlers = new Set(ROUTES.map((route) => route.handler));
    const schedulesArn = this.formatArn({
      service: "scheduler",
      resource: "schedule",
      resourceName: `${scheduleGroup.ref}/*`,
    });

    /** A function's environment: the settings and resources of its entry in lib/function-access.ts. */
    const environmentFor = (handler: string): Record<string, string> => {
      const access = functionAccess(handler);
      const environment: Record<string, string> = {
        SERVICE_NAME: serviceName,
        DEPLOYMENT_MODE: "production",
        POWERTOOLS_IDEMPOTENCY_DISABLED: "false",
      };
      if (handler === AUTHORIZER_HANDLER) {
        environment.JWT_ISSUER = jwtIssuer;
        if (props.jwtAudience) environment.JWT_AUDIENCE = props.jwtAudience;
      }
      if (routeHandlers.has(handler)) {
        // Read by functions/core/rate-limit.ts (rateLimitConfigFrom) in every route's middleware.
        environment.RATE_LIMIT_PER_SECOND = String(rateLimit.perSecond);
        environment.RATE_LIMIT_BURST = String(rateLimit.burst);
      }
      for (const [name] of tableEntries(access)) {
        environment[TABLES[name].envVar] = data.tables[name].tableName;
      }
      for (const name of access.sendTo ?? []) {
        environment[QUEUES[name].envVar] = messaging.queues[name].queueUrl;
        environment[queueArnEnvVar(QUEUES[name])] = messaging.queues[name].queueArn;
      }
      if ((access.schedules ?? []).length > 0) {
        // Every schedule it creates names the group, the role Scheduler assumes and a dead-letter queue.
        environment.SCHEDULE_GROUP_NAME = scheduleGroup.ref;
        environment.SCHEDULER_ROLE_ARN = schedulerRole.roleArn;
        environment.SCHEDULER_DLQ_ARN = messaging.schedulerDeadLetterQueue.queueArn;
      }
      if (access.sendsEmail) {
        environment.SENDER_ADDRESS = senderAddress;
        environment.SES_CONFIGURATION_SET = configurationSet.configurationSetName;
      }
      return environment;
    };

    /** Grants exactly a function's entry in lib/function-access.ts, suppressing each wildcard by name. */
    const grantAccess = (handler: string, fn: IFunction) => {
      const access = functionAccess(handler);
      const wildcards: NagPackSuppression[] = [];
      for (const [name, mode] of tableEntries(access)) {
        const table = data.tables[name];
        if (mode === "readWrite") table.grantReadWriteData(fn);
        else table.grantReadData(fn);
        if (TABLES[name].globalIndexes.length > 0) {
          wildcards.push({
            id: "AwsSolutions-IAM5",
            reason: `Queries on the ${TABLES[name].id} table's own indexes (table ARN + /index/*).`,
            appliesTo: [{ regex: `/^Resource::<Data${TABLES[name].id}[0-9A-F]+\\.Arn>\\/index\\/\\*$/` }],
          });
        }
      }
      for (const name of access.sendTo ?? []) messaging.queues[name].grantSendMessages(fn);
      const writes = tableEntries(access).some(([, mode]) => mode === "readWrite");
      if (writes || (access.sendTo ?? []).length > 0) {
        wildcards.push({
          id: "AwsSolutions-IAM5",
          reason: KMS_WILDCARD_REASON,
          appliesTo: [...KMS_WILDCARDS],
        });
      }
      const scheduleActions = access.schedules ?? [];
      if (scheduleActions.length > 0) {
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: scheduleActions.map((action) => `scheduler:${action}`),
            resources: [schedulesArn],
          }),
        );
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ["iam:PassRole"],
            resources: [schedulerRole.roleArn],
            conditions: { StringEquals: { "iam:PassedToService": "scheduler.amazonaws.com" } },
          }),
        );
        wildcards.push({
          id: "AwsSolutions-IAM5",
          reason: "Schedules are named per AWB and check at run time; the grant covers only the check group.",
          appliesTo: [
            {
              // Region and account: literals with an env, tokens without (the offline `cdk synth`).
              regex:
                "/^Resource::arn:<AWS::Partition>:scheduler:(<AWS::Region>|[a-z0-9-]+):(<AWS::AccountId>|\\d{12}):schedule\\/<CheckSchedules>\\/\\*$/",
            },
          ],
        });
      }
      if (access.sendsEmail) {
        emailIdentity.grantSendEmail(fn);
        // Sending with a configuration set also needs the send actions on the set itself.
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ["ses:SendEmail", "ses:SendRawEmail"],
            resources: [
              this.formatArn({
                service: "ses",
                resource: "configuration-set",
                resourceName: configurationSet.configurationSetName,
              }),
            ],
          }),
        );
      }
      if (wildcards.length > 0) NagSuppressions.addResourceSuppressions(fn, wildcards, true);
    };

    for (const definition of EVENT_FUNCTIONS) {
      const fn = new HandlerFunction(this, `Event-${definition.handler}`, {
        handlerPath: `${definition.folder}/${definition.handler}`,
        environment: environmentFor(definition.handler),
        logRetention,
        timeout: Duration.seconds(definition.timeoutSeconds),
      }).fn;
      this.eventFunctions.set(definition.handler, fn);
      grantAccess(definition.handler, fn);
      const source = definition.source;
      if (source.kind === "stream") {
        // After its retries a failed batch is parked here (shard + sequence numbers), never dropped.
        const failures = messaging.streamFailureQueue(pascalCase(definition.handler));
        fn.addEventSource(
          new DynamoEventSource(data.tables[source.table], {
            startingPosition: StartingPosition.TRIM_HORIZON,
            batchSize: source.batchSize,
            reportBatchItemFailures: true,
            bisectBatchOnError: true,
            retryAttempts: 10,
            maxRecordAge: STREAM_MAX_RECORD_AGE,
            onFailure: new SqsDlq(failures),
            filters: [FilterCriteria.filter(toFilterRules(source.filter))],
          }),
        );
        NagSuppressions.addResourceSuppressions(
          fn,
          [
            {
              id: "AwsSolutions-IAM5",
              reason: "Stream event source: dynamodb:ListStreams supports no resource-level permission.",
              appliesTo: ["Resource::*"],
            },
            { id: "AwsSolutions-IAM5", reason: KMS_WILDCARD_REASON, appliesTo: [...KMS_WILDCARDS] },
          ],
          true,
        );
      } else if (source.kind === "queue") {
        fn.addEventSource(
          new SqsEventSource(messaging.queues[source.queue], {
            batchSize: source.batchSize,
            reportBatchItemFailures: true,
          }),
        );
      } else {
        fn.grantInvoke(schedulerRole);
      }
    }

    this.api = new Api(this, "Api", {
      serviceName,
      environmentFor,
      logRetention,
      throttle: { rateLimit: 500, burstLimit: 1000 },
    });
    grantAccess(AUTHORIZER_HANDLER, this.api.authorizerFunction);
    for (const [handler, fn] of this.api.functions) grantAccess(handler, fn);

    Aspects.of(this).add(new WildcardResourceGuard());
  }
}
