/**
 * Settings the CDK stack hands to the functions and the functions read: their environment variable
 * names and the defaults that apply when one is unset. Plain data, like resources.ts (which names the
 * tables' and queues' variables): no CDK, no AWS SDK, no valibot. The stack sets the defaults
 * explicitly, so what is deployed is visible in the template; the local runner (bin/local) sets the same
 * names.
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
  /** OIDC issuer of bearer tokens (the authorizer only). */
  jwtIssuer: "JWT_ISSUER",
  /** Expected token audience, when the deployment names one (the authorizer only). */
  jwtAudience: "JWT_AUDIENCE",
  /** EventBridge Scheduler group of the due-check and delivery-retry schedules. */
  scheduleGroupName: "SCHEDULE_GROUP_NAME",
  /** Role EventBridge Scheduler assumes to deliver a schedule to its queue. */
  schedulerRoleArn: "SCHEDULER_ROLE_ARN",
  /** Where EventBridge Scheduler parks what it could not deliver. */
  schedulerDlqArn: "SCHEDULER_DLQ_ARN",
  /** Verified SES identity that sends notification e-mail. */
  senderAddress: "SENDER_ADDRESS",
  /** SES configuration set notification e-mail is sent with. */
  sesConfigurationSet: "SES_CONFIGURATION_SET",
} as const;

export type DeploymentMode = "production" | "local";

export const DEFAULT_SERVICE_NAME = "api.routemap";

/** Per-caller rate limit of every route: 50 requests per second, bursts of 100 (docs/decisions.md). */
export const RATE_LIMIT_DEFAULTS = { ratePerSecond: 50, burst: 100 } as const;

/** Sender of notification e-mail when the deployment names none. */
export const DEFAULT_SENDER_ADDRESS = "notifications@example.com";
