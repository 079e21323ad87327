/**
 * The whole service (DESIGN.md sections 2 and 3), composed of constructs that mirror functions/: the
 * data (tables) and messaging (queues, DLQs, alarms) the functions share, the API with its authorizer,
 * and the async pipeline: matching (outbox stream -> delivery jobs), delivery (jobs -> webhooks and
 * e-mail, retries) and scheduled checks (plans -> Scheduler -> due checks).
 *
 * One main stack and nested stacks, so every template keeps room under CloudFormation's limits (500
 * resources, 1,000,000 bytes; test/cdk/headroom.test.ts fails above 80% of either):
 * - the main stack holds everything that keeps data or is named from outside, under the logical ids it
 *   has always had: the key, tables, queues and parking queues, the user pool and its domain, the
 *   Scheduler group and role, the mail identity, the alarm topic, the RestApi and its stage; plus the
 *   authorizer, the token trigger, inbound mail and the dashboard and alarms;
 * - one nested stack per API area (lib/constructs/api-areas.ts): the routes' functions and methods;
 * - "Pipeline": the event functions (stream and queue consumers) with their triggers;
 * - the web app (lib/constructs/web-app.ts).
 * No physical names: everything is named by CloudFormation and handed to functions as environment.
 * Each function gets exactly its entry in lib/function-access.ts (lib/function-bindings.ts): grants and
 * the environment naming those resources, nothing else.
 */
import { Aspects, CfnOutput, NestedStack, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import { type IFunction, Function as LambdaFunction } from "aws-cdk-lib/aws-lambda";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { CfnScheduleGroup } from "aws-cdk-lib/aws-scheduler";
import { ConfigurationSet, EmailIdentity, Identity } from "aws-cdk-lib/aws-ses";
import { Topic } from "aws-cdk-lib/aws-sns";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import { EVENT_FUNCTIONS } from "../functions/contracts/event-functions.ts";
import { parseRateLimitTiers, type RateLimitTierSettings } from "../functions/contracts/rate-limit-tiers.ts";
import { QUEUES } from "../functions/contracts/resources.ts";
import { ROUTES } from "../functions/contracts/routes.ts";
import {
  DEFAULT_JWT_AUDIENCE,
  DEFAULT_JWT_MAX_LIFETIME_SECONDS,
  DEFAULT_SENDER_ADDRESS,
  DEFAULT_SERVICE_NAME,
  DEFAULT_STATUS_REQUEST_WINDOW_SECONDS,
  RATE_LIMIT_DEFAULTS,
} from "../functions/contracts/settings.ts";
import { API_STAGE_NAME, Api } from "./constructs/api.ts";
import { DataTables } from "./constructs/data.ts";
import { Delivery } from "./constructs/delivery.ts";
import type { EventConsumersProps } from "./constructs/event-consumers.ts";
import { Identity as CallerIdentity } from "./constructs/identity.ts";
import { InboundMail } from "./constructs/inbound-mail.ts";
import { MailFeedback } from "./constructs/mail-feedback.ts";
import { Matching } from "./constructs/matching.ts";
import { Messaging } from "./constructs/messaging.ts";
import { Operations } from "./constructs/operations.ts";
import { ScheduledChecks } from "./constructs/scheduled-checks.ts";
import { WebApp } from "./constructs/web-app.ts";
import {
  FunctionBindings,
  KMS_WILDCARD_REASON,
  KMS_WILDCARDS,
  type SchedulerResources,
} from "./function-bindings.ts";
import { WildcardResourceGuard } from "./wildcard-guard.ts";

export interface RouteMapTrackerStackProps extends StackProps {
  /** Leading path segment under which every route is also served. */
  serviceName?: string;
  /**
   * Verified SES identity that sends notification e-mail. Required (synthesis fails without it) unless
   * `demo` is set, which sends from the example address.
   */
  senderAddress?: string;
  /**
   * A demonstration stack: the example sender address is allowed and the data is deleted with the
   * stack unless `retainData` says otherwise.
   */
  demo?: boolean;
  /**
   * OIDC issuer the authorizer trusts instead of the stack's Cognito user pool (which is always created:
   * tenant clients and forwarder users live in it).
   */
  jwtIssuer?: string;
  /** Prefix of the user pool's Cognito domain (the token URL); default: stack name + stack id block. */
  cognitoDomainPrefix?: string;
  /**
   * Callback and sign-out URLs of the web app's hosted login besides its own `https://<distribution>/app/`
   * (a custom domain, a developer's localhost); default none.
   */
  webAppCallbackUrls?: readonly string[];
  /** Audience every token must name (default "route-map-tracker"); never unchecked. */
  jwtAudience?: string;
  /** Longest token lifetime accepted, in seconds (default 24 h). */
  jwtMaxLifetimeSeconds?: number;
  /** Repeated sendsme for one AWB within this many seconds ask the carrier once (default 900). */
  statusRequestWindowSeconds?: number;
  /**
   * Keep the data tables and the user pool on stack deletion, with deletion protection (default true;
   * false for `demo` stacks): false for throwaway stacks.
   */
  retainData?: boolean;
  /**
   * Per-caller limits in every route: token bucket (default 50 requests/s, burst 100, per container)
   * and windows counted across containers in the RateLimits table (default 1,500 a minute, 30,000 an
   * hour, 300,000 a day).
   */
  rateLimit?: RateLimitSettings;
  /**
   * Named tiers and the callers held to them (functions/contracts/rate-limit-tiers.ts), validated
   * here; every other caller gets `rateLimit`. Default: no tiers.
   */
  rateLimitTiers?: RateLimitTiersSettings;
  /**
   * The address carriers mail Cargo-IMP to (e.g. carriers@your-domain): an SES receipt rule set (created
   * inactive) -> mail bucket -> inbound-carrier-mail (lib/constructs/inbound-mail.ts). None (default):
   * no receipt rule, bucket or function; carriers post to /carrier/messages only.
   */
  inboundMailRecipient?: string;
}

export interface RateLimitTiersSettings {
  /** Tier name -> the limits that differ from `rateLimit` (whole numbers of at least 1). */
  tiers: Record<string, Partial<RateLimitTierSettings>>;
  /** Caller key (`forwarder:<id>`, `carrier:<prefix>`, `support:<subject>`) -> tier name. */
  callerTiers: Record<string, string>;
}

/**
 * Tiers travel in two environment variables of every route, and a Lambda function's whole environment
 * is limited to 4 KB: beyond this many characters, tiers belong in the tenant records (the next step).
 */
export const MAX_RATE_LIMIT_TIERS_CHARS = 2_000;

/** Validates the tiers against the deployment's limits; throws naming the setting. */
export function validatedRateLimitTiers(
  value: RateLimitTiersSettings | undefined,
  rateLimit: RateLimitSettings,
): RateLimitTiersSettings {
  const table = parseRateLimitTiers(value?.tiers, value?.callerTiers, rateLimit, {
    tiers: "rateLimitTiers",
    callerTiers: "rateLimitCallerTiers",
  });
  const tiers = { tiers: table.given, callerTiers: table.callerTiers };
  const chars = JSON.stringify(tiers.tiers).length + JSON.stringify(tiers.callerTiers).length;
  if (chars > MAX_RATE_LIMIT_TIERS_CHARS)
    throw new Error(
      `rateLimitTiers and rateLimitCallerTiers take ${chars} characters of the functions' environment (at most ${MAX_RATE_LIMIT_TIERS_CHARS}, Lambda allows 4 KB in all)`,
    );
  return tiers;
}

export interface RateLimitSettings {
  perSecond: number;
  burst: number;
  perMinute: number;
  perHour: number;
  perDay: number;
}

/**
 * The functions' own defaults (functions/contracts/settings.ts), set explicitly so the deployed values
 * are visible.
 */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = {
  perSecond: RATE_LIMIT_DEFAULTS.ratePerSecond,
  burst: RATE_LIMIT_DEFAULTS.burst,
  perMinute: RATE_LIMIT_DEFAULTS.perMinute,
  perHour: RATE_LIMIT_DEFAULTS.perHour,
  perDay: RATE_LIMIT_DEFAULTS.perDay,
};

/** The flag a deployment names its sender with (the message of a synthesis without it). */
export const SENDER_ADDRESS_REQUIRED =
  "senderAddress is required: the verified SES identity notification e-mail is sent from. Deploy with -c senderAddress=alerts@your-domain (or -c demo=true for a demonstration stack sending from the example address)";

/** The sender address: the given one, the example one for a demo stack, else synthesis fails. */
export function requiredSenderAddress(
  props: Pick<RouteMapTrackerStackProps, "senderAddress" | "demo">,
): string {
  if (props.senderAddress) return props.senderAddress;
  if (props.demo) return DEFAULT_SENDER_ADDRESS;
  throw new Error(SENDER_ADDRESS_REQUIRED);
}

export class RouteMapTrackerStack extends Stack {
  readonly api: Api;
  /** The Cognito user pool, its domain and the pre-token-generation trigger. */
  readonly identity: CallerIdentity;
  /** The async pipeline's functions by handler id (functions/contracts/event-functions.ts). */
  readonly eventFunctions = new Map<string, IFunction>();
  /** The nested stack of the pipeline's functions (their parking queues stay in this stack). */
  readonly pipeline: NestedStack;
  /** Cargo-IMP by e-mail, when the deployment names an inbound address. */
  readonly inboundMail: InboundMail | undefined;
  /** The dashboard and the alarms beyond the parking queues'. */
  readonly operations: Operations;
  /** The web app: S3 behind the CloudFront distribution that also fronts the API (a nested stack). */
  readonly webApp: WebApp;

  constructor(scope: Construct, id: string, props: RouteMapTrackerStackProps = {}) {
    super(scope, id, props);
    const serviceName = props.serviceName ?? DEFAULT_SERVICE_NAME;
    const retainData = props.retainData ?? !props.demo;
    const removalPolicy = retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logRetention = RetentionDays.ONE_MONTH;

    const key = new Key(this, "DataKey", {
      enableKeyRotation: true,
      description:
        "Route Map Tracker: tables, queues and secrets (webhook Psk/Token, customer header values)",
    });
    const alarmTopic = new Topic(this, "AlarmTopic", { masterKey: key, enforceSSL: true });
    const data = new DataTables(this, "Data", { key, retainData });
    const messaging = new Messaging(this, "Messaging", { key, alarmTopic });

    const senderAddress = requiredSenderAddress(props);
    const configurationSet = new ConfigurationSet(this, "MailConfiguration", {});
    const emailIdentity = new EmailIdentity(this, "Sender", {
      identity: Identity.email(senderAddress),
      configurationSet,
    });
    const scheduler = this.scheduler(messaging.schedulerDeadLetterQueue);
    this.identity = new CallerIdentity(this, "Identity", {
      removalPolicy,
      tenantsTable: data.tables.tenants,
      domainPrefix: props.cognitoDomainPrefix,
      webAppCallbackUrls: props.webAppCallbackUrls,
    });

    const bindings = new FunctionBindings(this, {
      tables: data.tables,
      queues: messaging.queues,
      scheduler,
      mail: { senderAddress, configurationSet, identity: emailIdentity },
      serviceName,
      jwtIssuer: props.jwtIssuer || this.identity.issuer,
      jwtAudience: props.jwtAudience || DEFAULT_JWT_AUDIENCE,
      jwtMaxLifetimeSeconds: props.jwtMaxLifetimeSeconds ?? DEFAULT_JWT_MAX_LIFETIME_SECONDS,
      statusRequestWindowSeconds: props.statusRequestWindowSeconds ?? DEFAULT_STATUS_REQUEST_WINDOW_SECONDS,
      rateLimit: props.rateLimit ?? DEFAULT_RATE_LIMIT,
      rateLimitTiers: validatedRateLimitTiers(props.rateLimitTiers, props.rateLimit ?? DEFAULT_RATE_LIMIT),
      routeHandlers: new Set(ROUTES.map((route) => route.handler)),
      userPool: this.identity.userPool,
    });
    this.identity.addTokenClaims(bindings, logRetention);

    // The async pipeline: outbox event -> matching -> delivery; plans -> scheduled checks.
    this.pipeline = new NestedStack(this, "Pipeline", {
      description: "Route Map Tracker: the event functions (stream and queue consumers) and their triggers",
    });
    const failureQueues = new Map<string, IQueue>();
    const pipeline: EventConsumersProps = {
      bindings,
      functionScope: this.pipeline,
      tables: data.tables,
      queues: messaging.queues,
      key,
      alarmTopic,
      logRetention,
    };
    for (const stage of [
      new Matching(this, "Matching", pipeline),
      new Delivery(this, "Delivery", { ...pipeline, scheduler }),
      new ScheduledChecks(this, "ScheduledChecks", { ...pipeline, scheduler }),
      new MailFeedback(this, "MailFeedback", { ...pipeline, configurationSet }),
    ]) {
      for (const [handler, fn] of stage.functions) this.eventFunctions.set(handler, fn);
      for (const [handler, queue] of stage.failureQueues) failureQueues.set(handler, queue);
    }
    const unbuilt = EVENT_FUNCTIONS.filter((fn) => !this.eventFunctions.has(fn.handler));
    if (unbuilt.length > 0) {
      throw new Error(
        `No construct builds ${unbuilt.map((fn) => fn.handler).join(", ")} (functions/contracts/event-functions.ts)`,
      );
    }

    this.inboundMail = props.inboundMailRecipient
      ? new InboundMail(this, "InboundMail", {
          recipient: props.inboundMailRecipient,
          bindings,
          logRetention,
          retainData,
          key,
          alarmTopic,
        })
      : undefined;

    this.api = new Api(this, "Api", {
      serviceName,
      bindings,
      logRetention,
      throttle: { rateLimit: 500, burstLimit: 1000 },
    });
    // After the API, which the distribution fronts; the functions read its origin when synthesized.
    this.webApp = new WebApp(this, "WebApp", {
      restApi: this.api.restApi,
      stageName: API_STAGE_NAME,
      identity: this.identity,
      logRetention,
    });
    bindings.setAppBaseUrl(this.webApp.baseUrl);

    this.operations = new Operations(this, "Operations", {
      alarmTopic,
      api: this.api.restApi,
      parkingQueues: [
        ...(Object.keys(QUEUES) as Array<keyof typeof QUEUES>).map((name) => ({
          label: `${QUEUES[name].id} DLQ`,
          queue: messaging.deadLetterQueues[name],
        })),
        { label: "Scheduler DLQ", queue: messaging.schedulerDeadLetterQueue },
        ...[...failureQueues].map(([handler, queue]) => ({ label: `${handler} stream failures`, queue })),
      ],
      scheduleGroupName: scheduler.group.ref,
      pipelineLogGroups: [...this.eventFunctions.values(), this.api.functions.get("ingest-carrier-message")]
        .filter((fn) => fn instanceof LambdaFunction)
        .map((fn) => fn.logGroup),
    });
    new CfnOutput(this, "ApiUrl", {
      description: `Base URL of the API (stage ${API_STAGE_NAME}); the AppUrl origin serves it too`,
      value: this.api.restApi.url,
    });
    new CfnOutput(this, "AlarmTopicArn", {
      description: "Subscribe the on-call address or chat integration: every alarm acts on this topic",
      value: alarmTopic.topicArn,
    });
    new CfnOutput(this, "DashboardUrl", {
      description: "The operations dashboard",
      value: this.operations.dashboardUrl(),
    });

    Aspects.of(this).add(new WildcardResourceGuard());
  }

  /**
   * EventBridge Scheduler's check group and the role it delivers schedules with (to the due-check and
   * delivery queues, which scheduled checks and delivery allow; parked schedules to its DLQ). Shared by
   * scheduled checks and delivery retries, and named by every pending schedule, so they stay here at
   * stack level: their logical ids never move, and a replaced group would take its schedules with it.
   */
  private scheduler(deadLetterQueue: IQueue): SchedulerResources {
    const group = new CfnScheduleGroup(this, "CheckSchedules", {});
    // Scheduler delivers to queues with this role; PassRole is granted only for it.
    const role = new Role(this, "SchedulerRole", {
      assumedBy: new ServicePrincipal("scheduler.amazonaws.com", {
        conditions: { StringEquals: { "aws:SourceAccount": this.account } },
      }),
      description: "EventBridge Scheduler: deliver due checks and delayed delivery retries to their queues",
    });
    deadLetterQueue.grantSendMessages(role);
    NagSuppressions.addResourceSuppressions(
      role,
      [{ id: "AwsSolutions-IAM5", reason: KMS_WILDCARD_REASON, appliesTo: [...KMS_WILDCARDS] }],
      true,
    );
    return { group, role, deadLetterQueue };
  }
}
