/**
 * Settings the CDK stack hands to the functions and the functions read: their environment variable
 * names and the defaults that apply when one is unset. Plain data, like resources.ts (which names the
 * tables' and queues' variables): no CDK, no AWS SDK, no valibot. The stack sets the defaults
 * explicitly, so what is deployed is visible in the template; the local runner (bin/local) sets the same
 * names. The functions read and validate them in one place, functions/adapters/config.ts.
 */

/** Environment variable names, by setting. Table and queue variables are in resources.ts. */
export const SETTINGS_ENV = {
  /** Leading path segment under which every route is also served (DESIGN.md section 1). */
  serviceName: "SERVICE_NAME",
  /** "production" as deployed; "local" only in the local runner (relaxes what only AWS provides). */
  deploymentMode: "DEPLOYMENT_MODE",
  /** Per-caller token bucket of every route (functions/core/rate-limit.ts): refill per second. */
  rateLimitPerSecond: "RATE_LIMIT_PER_SECOND",
  /** Per-caller token bucket of every route: bucket size. */
  rateLimitBurst: "RATE_LIMIT_BURST",
  /** Per-caller requests per calendar minute (UTC), counted across containers. */
  rateLimitPerMinute: "RATE_LIMIT_PER_MINUTE",
  /** Per-caller requests per clock hour (UTC), counted across containers. */
  rateLimitPerHour: "RATE_LIMIT_PER_HOUR",
  /** Per-caller requests per UTC day, counted across containers. */
  rateLimitPerDay: "RATE_LIMIT_PER_DAY",
  /** Named tiers, JSON (functions/contracts/rate-limit-tiers.ts); members left out take the above. */
  rateLimitTiers: "RATE_LIMIT_TIERS",
  /** Caller key (forwarder:<id>, carrier:<prefix>, support:<subject>) -> tier name, JSON. */
  rateLimitCallerTiers: "RATE_LIMIT_CALLER_TIERS",
  /** OIDC issuer of bearer tokens (the authorizer only). */
  jwtIssuer: "JWT_ISSUER",
  /** Expected token audience (`aud`), required: a token for another audience is refused (the authorizer only). */
  jwtAudience: "JWT_AUDIENCE",
  /** Longest token lifetime accepted, in seconds (exp - iat, and exp - now); the authorizer only. */
  jwtMaxLifetimeSeconds: "JWT_MAX_LIFETIME_SECONDS",
  /** EventBridge Scheduler group of the due-check and delivery-retry schedules. */
  scheduleGroupName: "SCHEDULE_GROUP_NAME",
  /** Role EventBridge Scheduler assumes to deliver a schedule to its queue. */
  schedulerRoleArn: "SCHEDULER_ROLE_ARN",
  /** Where EventBridge Scheduler parks what it could not deliver. */
  schedulerDlqArn: "SCHEDULER_DLQ_ARN",
  /** Verified SES identity that sends notification e-mail. */
  senderAddress: "SENDER_ADDRESS",
  /** Cognito user pool of tenant app clients and users (support onboarding, pre-token trigger); absent locally. */
  userPoolId: "USER_POOL_ID",
  /** SES configuration set notification e-mail is sent with. */
  sesConfigurationSet: "SES_CONFIGURATION_SET",
  /** Seconds within which repeated sendsme for one AWB ask the carrier once. */
  statusRequestWindowSeconds: "STATUS_REQUEST_WINDOW_SECONDS",
  /**
   * Public origin of the web app (`https://<distribution domain>`), where `/app/` is served: share links and
   * e-mail links point there. Unset locally: the runner serves the app on the API's own origin.
   */
  appBaseUrl: "APP_BASE_URL",
  /**
   * Local runner only: ONE Record publisher origins served by a stand-in on this machine,
   * `https://publisher.example=http://127.0.0.1:8080` (comma-separated), so a publisher's documents
   * can be served with their own IRIs. Refused when DEPLOYMENT_MODE is not "local".
   */
  localOneRecordOrigins: "LOCAL_ONE_RECORD_ORIGINS",
  /** Most notification rules one forwarder may have. */
  maxRulesPerForwarder: "MAX_RULES_PER_FORWARDER",
  /** Most webhooks one forwarder may have. */
  maxWebhooksPerForwarder: "MAX_WEBHOOKS_PER_FORWARDER",
  /** Most share links one forwarder may have active on one AWB (made with POST …/{awb}/share). */
  shareLinksPerAwb: "SHARE_LINKS_PER_AWB",
  /** Most share links one forwarder may make in a UTC day (POST …/{awb}/share). */
  shareLinksPerForwarderPerDay: "SHARE_LINKS_PER_FORWARDER_PER_DAY",
  /** The issuer's public keys as a JWKS document (the local dev issuer; no network needed). */
  jwksJson: "JWKS_JSON",
  /** Where the issuer's keys are fetched; default `<JWT_ISSUER>/.well-known/jwks.json`. */
  jwksUri: "JWKS_URI",
  /** "off" stops the per-call consumed-capacity metrics of DynamoDB (docs/cost.md). */
  capacityMetrics: "CAPACITY_METRICS",
  /** Local and test knob, never set by the stack: multiplies the delivery retry schedule (0.001: seconds). */
  deliveryRetryScale: "DELIVERY_RETRY_SCALE",
  /** Local and test knob, never set by the stack: the per-attempt delivery timeout in milliseconds. */
  deliveryTimeoutMs: "DELIVERY_TIMEOUT_MS",
} as const;

export type DeploymentMode = "production" | "local";

export const DEFAULT_SERVICE_NAME = "api.routemap";

/**
 * Per-caller rate limits of every route (docs/decisions.md): a token bucket of 50 requests per second
 * with bursts of 100 (per container), and fixed UTC windows counted across containers: 1,500 per
 * minute, 30,000 per hour, 300,000 per day.
 */
export const RATE_LIMIT_DEFAULTS = {
  ratePerSecond: 50,
  burst: 100,
  perMinute: 1_500,
  perHour: 30_000,
  perDay: 300_000,
} as const;

/** Audience of the service's tokens when the deployment names none (the local dev issuer's too). */
export const DEFAULT_JWT_AUDIENCE = "route-map-tracker";

/** Longest accepted token lifetime when the deployment names none: 24 hours. */
export const DEFAULT_JWT_MAX_LIFETIME_SECONDS = 24 * 3600;

/** Sender of notification e-mail when the deployment names none. */
export const DEFAULT_SENDER_ADDRESS = "notifications@example.com";

/** Repeated sendsme for one AWB within this many seconds collapse into one status request: 15 minutes. */
export const DEFAULT_STATUS_REQUEST_WINDOW_SECONDS = 900;

/** EventBridge Scheduler group when the deployment names none (the account's default group). */
export const DEFAULT_SCHEDULE_GROUP_NAME = "default";

/** Per-forwarder limits on rules and webhooks when the deployment names none. */
export const DEFAULT_MAX_RULES_PER_FORWARDER = 500;
export const DEFAULT_MAX_WEBHOOKS_PER_FORWARDER = 50;

/**
 * Share links a forwarder makes through the API (docs/decisions.md, Limits): at most 20 active on one
 * AWB and 200 made in a UTC day, when the deployment names no other. Links the service makes for
 * e-mail notifications do not count.
 */
export const DEFAULT_SHARE_LINKS_PER_AWB = 20;
export const DEFAULT_SHARE_LINKS_PER_FORWARDER_PER_DAY = 200;
