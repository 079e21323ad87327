/**
 * The functions' configuration: every environment variable a function reads is read here, and only
 * here, and validated with valibot. Each accessor reads only its own variables, when first called, and
 * keeps the answer for the container's life: a function asks only for what it uses, so it never fails
 * for a variable it does not need, and a missing or malformed variable fails with an error naming it
 * (ConfigurationError). Nothing is read at import.
 *
 * Names and defaults are those of functions/contracts/settings.ts (tables' and queues' variables:
 * resources.ts), which the stack (lib/function-bindings.ts) and the local runner (bin/local) set. An
 * empty (or blank) variable counts as unset, as the stack writes nothing where a setting has no value.
 *
 * `config` reads this process's environment; tests build one over their own with `configFrom({...})`.
 * Handlers and the HTTP pipeline receive what they need through `make(deps)`, filled in from here by
 * their `handler = make(...)` line and functions/wiring.ts; adapters default to it.
 */
import type { Jwks } from "aws-jwt-verify/jwk";
import * as v from "valibot";
import { INBOUND_MAIL_BUCKET_ENV } from "../contracts/inbound-mail.ts";
import { parseRateLimitTiers } from "../contracts/rate-limit-tiers.ts";
import { QUEUES, queueArnEnvVar, TABLES } from "../contracts/resources.ts";
import {
  DEFAULT_JWT_MAX_LIFETIME_SECONDS,
  DEFAULT_MAX_RULES_PER_FORWARDER,
  DEFAULT_MAX_WEBHOOKS_PER_FORWARDER,
  DEFAULT_SCHEDULE_GROUP_NAME,
  DEFAULT_SENDER_ADDRESS,
  DEFAULT_SERVICE_NAME,
  DEFAULT_SHARE_LINKS_PER_AWB,
  DEFAULT_SHARE_LINKS_PER_FORWARDER_PER_DAY,
  DEFAULT_STATUS_REQUEST_WINDOW_SECONDS,
  type DeploymentMode,
  RATE_LIMIT_DEFAULTS,
  SETTINGS_ENV,
} from "../contracts/settings.ts";
import type { ShareLinkLimits } from "../core/ports/share-links.ts";
import { type RateLimitConfig, type RateLimitTiers, rateLimitTiersOf } from "../core/rate-limit.ts";
import type { SubscriptionLimits } from "../core/use-cases/shared/subscription-limits.ts";

/** Variables by name, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable the function needs is missing, or its value is not one the function can use. */
export class ConfigurationError extends Error {
  constructor(
    /** The environment variable's name. */
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = "ConfigurationError";
  }
}

export type TableName = keyof typeof TABLES;
export type QueueName = keyof typeof QUEUES;

/** The bearer-token verifier's settings (functions/adapters/token-verifier.ts). */
export interface TokenVerifierConfig {
  issuer: string;
  audience: string;
  jwksUri: string;
  /** Preloaded keys (local dev issuer); when absent keys are fetched from jwksUri and cached. */
  jwks: Jwks | null;
  /** Longest lifetime accepted, in seconds. */
  maxLifetimeSeconds: number;
}

/** The due-check scheduler's settings (functions/adapters/check-scheduler.ts). */
export interface CheckSchedulerConfig {
  groupName: string;
  roleArn: string;
  queueArn: string;
  queueUrl: string;
  deadLetterArn: string | null;
  /** The local runner: the only place a schedule may lack a dead-letter queue. */
  local: boolean;
}

/** The delivery retry scheduler's settings (functions/adapters/delivery-retry-scheduler.ts). */
export interface RetrySchedulerConfig {
  groupName: string;
  roleArn: string;
  queueArn: string;
  deadLetterArn?: string;
  /** The local runner: the only place a schedule may lack a dead-letter queue. */
  local: boolean;
}

/** Notification e-mail's sender and SES configuration set (functions/adapters/email-sender.ts). */
export interface EmailSenderConfig {
  senderAddress: string;
  configurationSet?: string;
}

/** What the deliver-job handler reads (functions/handlers/queue/deliver-job.ts). */
export interface DeliverJobSettings {
  /** Table of the idempotency records of delivery attempts. */
  idempotencyTable: string;
  /** Origin of the web app, for e-mail links (absent locally: the e-mails then carry no links to it). */
  appBaseUrl?: string;
  /** Local and test knob: multiplies the retry schedule. */
  retryScale?: number;
  /** Local and test knob: the per-attempt timeout in milliseconds. */
  timeoutMs?: number;
}

// Rules for one variable's value: undefined when unset, else the text as set.
type Rule<T> = v.GenericSchema<string | undefined, T>;

const REQUIRED = "is not set";

const required = (message = REQUIRED): Rule<string> => v.string(message);

const optionalText: Rule<string | undefined> = v.optional(v.string());

/** A number given as text: `Number(text)`, refused when that is not a number. */
const numeric = (what: string) => v.pipe(v.string(), v.transform(Number), v.number(`must be ${what}`));

const positiveNumber = v.pipe(
  numeric("a positive number"),
  v.finite("must be a positive number"),
  v.gtValue(0, "must be a positive number"),
);

const wholeNumber = v.pipe(
  numeric("a whole number of at least 1"),
  v.safeInteger("must be a whole number of at least 1"),
  v.minValue(1, "must be a whole number of at least 1"),
);

/** A rate-limit window counts whole requests: a positive number, rounded down, at least 1. */
const windowLimit = v.pipe(
  positiveNumber,
  v.transform((limit: number) => Math.max(1, Math.floor(limit))),
);

const withDefault = <T>(rule: Rule<T>, fallback: T): Rule<T> =>
  v.pipe(
    v.optional(v.string()),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (dataset.value === undefined) return fallback;
      const parsed = v.safeParse(rule, dataset.value);
      if (parsed.success) return parsed.output;
      addIssue({ message: parsed.issues[0].message });
      return NEVER;
    }),
  );

const deploymentMode: Rule<DeploymentMode> = v.optional(
  v.picklist(["production", "local"], 'must be "production" or "local"'),
  "production",
);

const url = v.pipe(
  v.string(),
  v.url("must be a URL"),
  v.transform((text: string) => text.replace(/\/+$/, "")),
);

const jwks = v.pipe(
  v.string(),
  v.parseJson(undefined, "must be a JWKS document (JSON)"),
  v.looseObject({ keys: v.array(v.looseObject({})) }, 'must be a JWKS document ({ "keys": [...] })'),
);

/** One variable, validated: its value, or a ConfigurationError naming it. */
function variable<T>(env: Environment, name: string, rule: Rule<T>): T {
  const raw = env[name];
  const value = raw === undefined || raw.trim() === "" ? undefined : raw.trim();
  const result = v.safeParse(rule, value);
  if (result.success) return result.output;
  const problem = result.issues[0].message;
  throw new ConfigurationError(
    name,
    value === undefined ? problem : `${problem}, got ${JSON.stringify(raw)}`,
  );
}

/**
 * `https://sqs.eu-west-1.amazonaws.com/123456789012/Name` (or a local emulator's
 * `http://127.0.0.1:4566/000000000000/Name`) -> `arn:aws:sqs:eu-west-1:123456789012:Name`.
 */
export function queueArnFromUrl(queueUrl: string, region: string, partition = "aws"): string {
  // Not `new URL`: fauxqs hands out hosts like "sqs.us-east-1.127.0.0.1", which WHATWG URLs reject.
  const match = /^https?:\/\/([^/]+)\/(\d{12})\/([^/?#]+)\/?$/.exec(queueUrl);
  if (!match) throw new Error(`not an SQS queue URL: ${queueUrl}`);
  const [, host = "", account, name] = match;
  const fromHost = /^sqs\.([a-z0-9-]+)\.amazonaws\.com/.exec(host)?.[1];
  return `arn:${partition}:sqs:${fromHost ?? region}:${account}:${name}`;
}

function rateLimitTiersFrom(env: Environment): RateLimitTiers {
  const defaults: RateLimitConfig = {
    ratePerSecond: variable(
      env,
      SETTINGS_ENV.rateLimitPerSecond,
      withDefault(positiveNumber, RATE_LIMIT_DEFAULTS.ratePerSecond),
    ),
    burst: variable(env, SETTINGS_ENV.rateLimitBurst, withDefault(positiveNumber, RATE_LIMIT_DEFAULTS.burst)),
    perMinute: variable(
      env,
      SETTINGS_ENV.rateLimitPerMinute,
      withDefault(windowLimit, RATE_LIMIT_DEFAULTS.perMinute),
    ),
    perHour: variable(
      env,
      SETTINGS_ENV.rateLimitPerHour,
      withDefault(windowLimit, RATE_LIMIT_DEFAULTS.perHour),
    ),
    perDay: variable(env, SETTINGS_ENV.rateLimitPerDay, withDefault(windowLimit, RATE_LIMIT_DEFAULTS.perDay)),
  };
  // Its messages name the variable, the tier and the member.
  const table = parseRateLimitTiers(
    variable(env, SETTINGS_ENV.rateLimitTiers, optionalText),
    variable(env, SETTINGS_ENV.rateLimitCallerTiers, optionalText),
    { ...defaults, perSecond: defaults.ratePerSecond },
    { tiers: SETTINGS_ENV.rateLimitTiers, callerTiers: SETTINGS_ENV.rateLimitCallerTiers },
  );
  return rateLimitTiersOf(defaults, table);
}

function tokenVerifierFrom(env: Environment): TokenVerifierConfig {
  const issuer = variable(env, SETTINGS_ENV.jwtIssuer, required());
  return {
    issuer,
    audience: variable(
      env,
      SETTINGS_ENV.jwtAudience,
      required(`${REQUIRED}: every token must name its audience`),
    ),
    jwksUri:
      variable(env, SETTINGS_ENV.jwksUri, optionalText) ??
      `${issuer.replace(/\/$/, "")}/.well-known/jwks.json`,
    jwks: (variable(env, SETTINGS_ENV.jwksJson, v.optional(jwks)) as Jwks | undefined) ?? null,
    maxLifetimeSeconds: variable(
      env,
      SETTINGS_ENV.jwtMaxLifetimeSeconds,
      withDefault(wholeNumber, DEFAULT_JWT_MAX_LIFETIME_SECONDS),
    ),
  };
}

/** `from=to,...` origin pairs; production refuses any, so no deployed GET is ever redirected. */
function localOneRecordOriginsFrom(env: Environment): ReadonlyMap<string, string> {
  const raw = variable(env, SETTINGS_ENV.localOneRecordOrigins, optionalText);
  const origins = new Map<string, string>();
  if (raw === undefined) return origins;
  if (modeFrom(env) !== "local")
    throw new ConfigurationError(SETTINGS_ENV.localOneRecordOrigins, "is for the local runner only");
  for (const pair of raw.split(",")) {
    const [from, to] = pair.split("=").map((part) => part.trim());
    const origin = (text: string | undefined) => {
      try {
        return text ? new URL(text).origin : null;
      } catch {
        return null;
      }
    };
    const source = origin(from);
    const target = origin(to);
    if (source === null || target === null)
      throw new ConfigurationError(
        SETTINGS_ENV.localOneRecordOrigins,
        `must be origin=origin pairs, got ${pair}`,
      );
    origins.set(source, target);
  }
  return origins;
}

const modeFrom = (env: Environment) => variable(env, SETTINGS_ENV.deploymentMode, deploymentMode);
const groupNameFrom = (env: Environment) =>
  variable(env, SETTINGS_ENV.scheduleGroupName, withDefault(required(), DEFAULT_SCHEDULE_GROUP_NAME));

function checkSchedulerFrom(env: Environment): CheckSchedulerConfig {
  return {
    groupName: groupNameFrom(env),
    roleArn: variable(env, SETTINGS_ENV.schedulerRoleArn, required()),
    queueArn: variable(env, queueArnEnvVar(QUEUES.dueChecks), required()),
    queueUrl: variable(env, QUEUES.dueChecks.envVar, required()),
    deadLetterArn: variable(env, SETTINGS_ENV.schedulerDlqArn, optionalText) ?? null,
    local: modeFrom(env) === "local",
  };
}

function retrySchedulerFrom(env: Environment): RetrySchedulerConfig {
  const deadLetterArn = variable(env, SETTINGS_ENV.schedulerDlqArn, optionalText);
  return {
    groupName: groupNameFrom(env),
    roleArn: variable(env, SETTINGS_ENV.schedulerRoleArn, required()),
    // The local runner sets only the URL; the stack sets both.
    queueArn:
      variable(env, queueArnEnvVar(QUEUES.deliveryJobs), optionalText) ??
      queueArnFromUrl(
        variable(env, QUEUES.deliveryJobs.envVar, required()),
        variable(env, "AWS_REGION", withDefault(required(), "us-east-1")),
      ),
    ...(deadLetterArn ? { deadLetterArn } : {}),
    local: modeFrom(env) === "local",
  };
}

function emailSenderFrom(env: Environment): EmailSenderConfig {
  const configurationSet = variable(env, SETTINGS_ENV.sesConfigurationSet, optionalText);
  return {
    senderAddress: variable(env, SETTINGS_ENV.senderAddress, withDefault(required(), DEFAULT_SENDER_ADDRESS)),
    ...(configurationSet ? { configurationSet } : {}),
  };
}

const appBaseUrlFrom = (env: Environment) => variable(env, SETTINGS_ENV.appBaseUrl, v.optional(url));

function deliverJobFrom(env: Environment): DeliverJobSettings {
  const appBaseUrl = appBaseUrlFrom(env);
  const retryScale = variable(env, SETTINGS_ENV.deliveryRetryScale, v.optional(positiveNumber));
  const timeoutMs = variable(env, SETTINGS_ENV.deliveryTimeoutMs, v.optional(positiveNumber));
  return {
    idempotencyTable: variable(env, TABLES.idempotency.envVar, required()),
    ...(appBaseUrl ? { appBaseUrl } : {}),
    ...(retryScale ? { retryScale } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  };
}

/**
 * The configuration over `source` (an environment, or a function returning it, read when an accessor
 * is first called). Each accessor validates its variables once and keeps the answer; a failure is not
 * kept, so a corrected environment is read again.
 */
export function configFrom(source: Environment | (() => Environment)) {
  const env = typeof source === "function" ? source : () => source;
  const kept = new Map<string, unknown>();
  const once =
    <A extends unknown[], T>(key: string, read: (env: Environment, ...args: A) => T) =>
    (...args: A): T => {
      const id = [key, ...args].join(":");
      if (kept.has(id)) return kept.get(id) as T;
      const value = read(env(), ...args);
      kept.set(id, value);
      return value;
    };
  return {
    /** SERVICE_NAME: the extra leading path segment of every route (default api.routemap). */
    serviceName: once("serviceName", (e) =>
      variable(e, SETTINGS_ENV.serviceName, withDefault(required(), DEFAULT_SERVICE_NAME)),
    ),
    /** DEPLOYMENT_MODE: "production" (default) or "local" (only the local runner). */
    deploymentMode: once("deploymentMode", modeFrom),
    /** A table's physical name (its variable in resources.ts), required. */
    table: once("table", (e, name: TableName) => variable(e, TABLES[name].envVar, required())),
    /** A table's physical name, or undefined where the function was given none. */
    optionalTable: once("optionalTable", (e, name: TableName) =>
      variable(e, TABLES[name].envVar, optionalText),
    ),
    /** A queue's URL (its variable in resources.ts), required. */
    queueUrl: once("queueUrl", (e, name: QueueName) => variable(e, QUEUES[name].envVar, required())),
    /** INBOUND_MAIL_BUCKET: where SES stores received carrier mail. */
    inboundMailBucket: once("inboundMailBucket", (e) => variable(e, INBOUND_MAIL_BUCKET_ENV, required())),
    /** USER_POOL_ID: the Cognito user pool of tenant clients and users (not set locally). */
    userPoolId: once("userPoolId", (e) => variable(e, SETTINGS_ENV.userPoolId, required())),
    /** APP_BASE_URL without a trailing slash, or undefined (locally: the request's own origin). */
    appBaseUrl: once("appBaseUrl", appBaseUrlFrom),
    /** LOCAL_ONE_RECORD_ORIGINS: publisher origin -> local stand-in origin (local runner only). */
    localOneRecordOrigins: once("localOneRecordOrigins", localOneRecordOriginsFrom),
    /** RATE_LIMIT_PER_SECOND, _BURST, _PER_MINUTE, _PER_HOUR, _PER_DAY, _TIERS, _CALLER_TIERS. */
    rateLimitTiers: once("rateLimitTiers", rateLimitTiersFrom),
    /** JWT_ISSUER and JWT_AUDIENCE (required), JWT_MAX_LIFETIME_SECONDS, JWKS_JSON, JWKS_URI. */
    tokenVerifier: once("tokenVerifier", tokenVerifierFrom),
    /** SCHEDULE_GROUP_NAME, SCHEDULER_ROLE_ARN, SCHEDULER_DLQ_ARN, DUE_CHECKS_QUEUE_ARN and _URL. */
    checkScheduler: once("checkScheduler", checkSchedulerFrom),
    /** SCHEDULE_GROUP_NAME, SCHEDULER_ROLE_ARN, SCHEDULER_DLQ_ARN, DELIVERY_QUEUE_ARN (or _URL). */
    retryScheduler: once("retryScheduler", retrySchedulerFrom),
    /** SENDER_ADDRESS (default notifications@example.com), SES_CONFIGURATION_SET. */
    emailSender: once("emailSender", emailSenderFrom),
    /** STATUS_REQUEST_WINDOW_SECONDS: repeated sendsme for one AWB within it ask once (default 900). */
    statusRequestWindowSeconds: once("statusRequestWindowSeconds", (e) =>
      variable(
        e,
        SETTINGS_ENV.statusRequestWindowSeconds,
        withDefault(wholeNumber, DEFAULT_STATUS_REQUEST_WINDOW_SECONDS),
      ),
    ),
    /** MAX_RULES_PER_FORWARDER (default 500), MAX_WEBHOOKS_PER_FORWARDER (default 50). */
    subscriptionLimits: once(
      "subscriptionLimits",
      (e): SubscriptionLimits => ({
        rules: variable(
          e,
          SETTINGS_ENV.maxRulesPerForwarder,
          withDefault(wholeNumber, DEFAULT_MAX_RULES_PER_FORWARDER),
        ),
        webhooks: variable(
          e,
          SETTINGS_ENV.maxWebhooksPerForwarder,
          withDefault(wholeNumber, DEFAULT_MAX_WEBHOOKS_PER_FORWARDER),
        ),
      }),
    ),
    /** SHARE_LINKS_PER_AWB (default 20), SHARE_LINKS_PER_FORWARDER_PER_DAY (default 200). */
    shareLinkLimits: once(
      "shareLinkLimits",
      (e): ShareLinkLimits => ({
        activePerAwb: variable(
          e,
          SETTINGS_ENV.shareLinksPerAwb,
          withDefault(wholeNumber, DEFAULT_SHARE_LINKS_PER_AWB),
        ),
        perDay: variable(
          e,
          SETTINGS_ENV.shareLinksPerForwarderPerDay,
          withDefault(wholeNumber, DEFAULT_SHARE_LINKS_PER_FORWARDER_PER_DAY),
        ),
      }),
    ),
    /** IDEMPOTENCY_TABLE, APP_BASE_URL, and the knobs DELIVERY_RETRY_SCALE and DELIVERY_TIMEOUT_MS. */
    deliverJob: once("deliverJob", deliverJobFrom),
    /**
     * Whether each DynamoDB call reports its consumed capacity as metrics: not where metrics are off
     * (POWERTOOLS_METRICS_DISABLED=true, locally and in tests) nor with CAPACITY_METRICS=off.
     */
    capacityMetrics: once(
      "capacityMetrics",
      (e) =>
        variable(e, "POWERTOOLS_METRICS_DISABLED", optionalText) !== "true" &&
        variable(e, SETTINGS_ENV.capacityMetrics, optionalText) !== "off",
    ),
    /** Physical table name -> logical id, for the tables this function was given. */
    tableIds: once(
      "tableIds",
      (e) =>
        new Map(
          Object.values(TABLES).flatMap((table) => {
            const name = variable(e, table.envVar, optionalText);
            return name ? [[name, table.id] as const] : [];
          }),
        ),
    ),
    /** Path-style S3 addresses where an S3 endpoint is set (the local stand-in has no bucket hosts). */
    s3ForcePathStyle: once(
      "s3ForcePathStyle",
      (e) => variable(e, "AWS_ENDPOINT_URL_S3", optionalText) !== undefined,
    ),
  };
}

export type Config = ReturnType<typeof configFrom>;

/** This process's configuration, read when first asked for. */
export const config: Config = /* @__PURE__ */ configFrom(() => process.env);
