/**
 * The whole service in one stack (DESIGN.md sections 2 and 3): API + authorizer, tables, queues with
 * DLQs and alarms, event-driven functions, EventBridge Scheduler group and role, SES identity.
 * No physical names: everything is named by CloudFormation and handed to functions as environment.
 */
import { Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { AccountRecovery, UserPool } from "aws-cdk-lib/aws-cognito";
import { PolicyStatement, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import { FilterCriteria, FilterRule, type IFunction, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { CfnScheduleGroup } from "aws-cdk-lib/aws-scheduler";
import { ConfigurationSet, EmailIdentity, Identity } from "aws-cdk-lib/aws-ses";
import { Topic } from "aws-cdk-lib/aws-sns";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import { DEFAULT_SERVICE_NAME, ROUTES } from "../functions/handlers/http/routes.ts";
import { Api } from "./constructs/api.ts";
import { DataTables } from "./constructs/data.ts";
import { HandlerFunction } from "./constructs/handler-function.ts";
import { Messaging } from "./constructs/messaging.ts";
import { deadLetterEnvVar, QUEUES, queueArnEnvVar, TABLES } from "./definitions.ts";
import { EVENT_FUNCTIONS, type FilterPattern } from "./event-functions.ts";

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

    const scheduleGroup = new CfnScheduleGroup(this, "CheckSchedules", {});
    const senderAddress = props.senderAddress ?? "notifications@example.com";
    const configurationSet = new ConfigurationSet(this, "MailConfiguration", {});
    const emailIdentity = new EmailIdentity(this, "Sender", {
      identity: Identity.email(senderAddress),
      configurationSet,
    });

    const environment: Record<string, string> = {
      SERVICE_NAME: serviceName,
      DEPLOYMENT_MODE: "production",
      JWT_ISSUER: issuer,
      ...(props.jwtAudience ? { JWT_AUDIENCE: props.jwtAudience } : {}),
      SENDER_ADDRESS: senderAddress,
      SES_CONFIGURATION_SET: configurationSet.configurationSetName,
      SCHEDULE_GROUP_NAME: scheduleGroup.ref,
      SCHEDULER_DLQ_ARN: messaging.schedulerDeadLetterQueue.queueArn,
      SCHEDULER_DLQ_URL: messaging.schedulerDeadLetterQueue.queueUrl,
      POWERTOOLS_IDEMPOTENCY_DISABLED: "false",
    };
    for (const [name, definition] of Object.entries(TABLES))
      environment[definition.envVar] = data.tables[name as keyof typeof TABLES].tableName;
    for (const [name, definition] of Object.entries(QUEUES)) {
      environment[definition.envVar] = messaging.queues[name as keyof typeof QUEUES].queueUrl;
      environment[deadLetterEnvVar(definition)] =
        messaging.deadLetterQueues[name as keyof typeof QUEUES].queueUrl;
      environment[queueArnEnvVar(definition)] = messaging.queues[name as keyof typeof QUEUES].queueArn;
    }

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
      [
        {
          id: "AwsSolutions-IAM5",
          reason: "KMS data-key actions (GenerateDataKey*, ReEncrypt*) on the one queue key, granted by CDK.",
        },
      ],
      true,
    );
    environment.SCHEDULER_ROLE_ARN = schedulerRole.roleArn;

    for (const definition of EVENT_FUNCTIONS) {
      const fn = new HandlerFunction(this, `Event-${definition.handler}`, {
        handlerPath: `${definition.folder}/${definition.handler}`,
        environment,
        logRetention,
        timeout: Duration.seconds(definition.timeoutSeconds),
      }).fn;
      this.eventFunctions.set(definition.handler, fn);
      const source = definition.source;
      if (source.kind === "stream") {
        fn.addEventSource(
          new DynamoEventSource(data.tables[source.table], {
            startingPosition: StartingPosition.TRIM_HORIZON,
            batchSize: source.batchSize,
            reportBatchItemFailures: true,
            bisectBatchOnError: true,
            retryAttempts: 10,
            filters: [FilterCriteria.filter(toFilterRules(source.filter))],
          }),
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
      environment[`${definition.handler.toUpperCase().replace(/-/g, "_")}_FUNCTION_ARN`] = fn.functionArn;
    }

    this.api = new Api(this, "Api", {
      serviceName,
      environment,
      logRetention,
      throttle: { rateLimit: 500, burstLimit: 1000 },
    });

    // Least privilege, by what each kind of function does:
    // - reads (GET routes): read-only on the tables, nothing else;
    // - writes (other routes): read/write on the tables, send to the queues, manage check schedules;
    // - event functions: the same as writes; only `deliver` may send e-mail;
    // - the authorizer and the API description: no data access at all.
    const grantWrites = (fn: IFunction) => {
      for (const table of Object.values(data.tables)) table.grantReadWriteData(fn);
      for (const queue of Object.values(messaging.queues)) queue.grantSendMessages(fn);
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: [
            "scheduler:CreateSchedule",
            "scheduler:UpdateSchedule",
            "scheduler:DeleteSchedule",
            "scheduler:GetSchedule",
          ],
          resources: [
            `arn:${this.partition}:scheduler:${this.region}:${this.account}:schedule/${scheduleGroup.ref}/*`,
          ],
        }),
      );
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ["iam:PassRole"],
          resources: [schedulerRole.roleArn],
          conditions: { StringEquals: { "iam:PassedToService": "scheduler.amazonaws.com" } },
        }),
      );
    };
    for (const route of ROUTES) {
      const fn = this.api.functions.get(route.handler);
      if (!fn || route.roles === "public") continue;
      if (route.method === "GET") {
        for (const table of Object.values(data.tables)) table.grantReadData(fn);
      } else {
        grantWrites(fn);
      }
    }
    for (const [handler, fn] of this.eventFunctions) {
      grantWrites(fn);
      if (handler === "deliver") {
        emailIdentity.grantSendEmail(fn);
        // Sending with a configuration set also needs the send actions on the set itself.
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ["ses:SendEmail", "ses:SendRawEmail"],
            resources: [
              `arn:${this.partition}:ses:${this.region}:${this.account}:configuration-set/${configurationSet.configurationSetName}`,
            ],
          }),
        );
      }
    }
    NagSuppressions.addResourceSuppressions(messaging.schedulerDeadLetterQueue, [
      {
        id: "AwsSolutions-SQS3",
        reason: "This queue is itself a dead-letter queue (EventBridge Scheduler's).",
      },
    ]);
  }
}
