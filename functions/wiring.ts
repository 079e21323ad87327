/**
 * The one composition root: every AWS adapter a handler may need, created on first use and then kept
 * for the container's life (warm invocations reuse clients and caches). Handlers export
 * `make(deps)` and wire `handler = make(() => ({ ...these }))`; tests pass memory adapters to `make`.
 * Each entry is a pure memoised factory and functions/adapters/package.json declares the adapters
 * free of import side effects, so a bundle keeps only the adapters its handler calls (the authorizer
 * carries the token verifier, not the AWS SDK). Settings come from functions/adapters/config.ts, read
 * when an entry is first created: nothing here reads the environment at import.
 */
import { jitteredBackoff } from "./adapters/backoff.ts";
import { cachedCarrierDirectory, dynamoCarrierRepository } from "./adapters/carrier-repository.ts";
import { eventBridgeCheckScheduler } from "./adapters/check-scheduler.ts";
import { cognitoClientRegistry } from "./adapters/cognito-client-registry.ts";
import { cognitoUserDirectory } from "./adapters/cognito-user-directory.ts";
import { config } from "./adapters/config.ts";
import { sqsDeliveryJobQueue } from "./adapters/delivery-job-queue.ts";
import { dynamoDeliveryRepository } from "./adapters/delivery-repository.ts";
import { schedulerDeliveryRetryScheduler } from "./adapters/delivery-retry-scheduler.ts";
import { dynamoEmailConfirmationRepository } from "./adapters/email-confirmation-repository.ts";
import { sesEmailSender } from "./adapters/email-sender.ts";
import { dynamoEmailSuppressionList } from "./adapters/email-suppression-list.ts";
import { dynamoForwarderUserRepository } from "./adapters/forwarder-user-repository.ts";
import { createHttpSender } from "./adapters/http-sender.ts";
import { dynamoInboundMailLog } from "./adapters/inbound-mail-log.ts";
import { dynamoInboundSenderDirectory } from "./adapters/inbound-sender-directory.ts";
import { localClientRegistry } from "./adapters/local-client-registry.ts";
import { localUserDirectory } from "./adapters/local-user-directory.ts";
import { logger } from "./adapters/logger.ts";
import { dynamoOneRecordSubscriptionStore } from "./adapters/one-record-subscription-store.ts";
import { oneRecordPublisher } from "./adapters/onerecord-publisher.ts";
import { predictionObserver } from "./adapters/prediction-observer.ts";
import {
  dynamoLaneStatsStore,
  dynamoPredictionStore,
  dynamoStationSettings,
} from "./adapters/prediction-store.ts";
import { sqsProActiveSweepQueue } from "./adapters/proactive-sweep-queue.ts";
import { dynamoRateLimitCounter } from "./adapters/rate-limit-counter.ts";
import { dynamoRawMessageStore } from "./adapters/raw-message-store.ts";
import { s3ReceivedMailStore } from "./adapters/received-mail-store.ts";
import { dynamoRouteMapRepository } from "./adapters/route-map-repository.ts";
import { dynamoRouteMapSearch } from "./adapters/route-map-search.ts";
import { dynamoShareLinkRepository } from "./adapters/share-link-repository.ts";
import {
  dynamoCarrierRequestInbox,
  dynamoStatusRequestWindow,
  dynamoUsageLedger,
} from "./adapters/status-request-store.ts";
import { dynamoSubscriptionRepository } from "./adapters/subscription-repository.ts";
import { dynamoTenantRepository } from "./adapters/tenant-repository.ts";
import { createTokenVerifier } from "./adapters/token-verifier.ts";
import { createWebhookVerifier } from "./adapters/webhook-verifier.ts";
import type { RateLimitCounter } from "./core/ports/rate-limits.ts";
import type { ClientRegistry, ForwarderUserDirectory } from "./core/ports/tenants.ts";
import { InProcessWindowCounter, RateLimiter } from "./core/rate-limit.ts";
import type { Pipeline } from "./http/pipeline.ts";

/** Creates the value on the first call and returns the same one afterwards. */
function once<T>(create: () => T): () => T {
  let value: T | undefined;
  let created = false;
  return () => {
    if (!created) {
      value = create();
      created = true;
    }
    return value as T;
  };
}

export const routeMaps = /* @__PURE__ */ once(() => dynamoRouteMapRepository());
/** The search side of the byReader index, page by page. */
export const routeMapSearch = /* @__PURE__ */ once(() => dynamoRouteMapSearch());
/** Carrier settings as support stores them (read and write). */
export const carriers = /* @__PURE__ */ once(() => dynamoCarrierRepository());
/** Carrier settings cached per container for a minute: read on every carrier message. */
export const carrierDirectory = /* @__PURE__ */ once(() => cachedCarrierDirectory(carriers()));
/** Status requests: the collapse window, the carriers' pull queues, the XTD usage ledger. */
export const statusRequestWindow = /* @__PURE__ */ once(() => dynamoStatusRequestWindow());
export const carrierInbox = /* @__PURE__ */ once(() => dynamoCarrierRequestInbox());
export const usageLedger = /* @__PURE__ */ once(() => dynamoUsageLedger());
/** What a sendsme needs to ask the carrier (functions/core/use-cases/shared/status-requests.ts). */
export const statusRequestDeps = /* @__PURE__ */ once(() => ({
  window: statusRequestWindow(),
  deliveries: deliveries(),
  queue: deliveryQueue(),
  usage: usageLedger(),
  // STATUS_REQUEST_WINDOW_SECONDS (default 900): repeated sendsme for one AWB within it ask once.
  windowSeconds: config.statusRequestWindowSeconds(),
}));
/** Cargo-IMP by e-mail: which carrier a sender mails for, the inbound logs, the received mails (S3). */
export const inboundSenders = /* @__PURE__ */ once(() => dynamoInboundSenderDirectory());
export const inboundMailLog = /* @__PURE__ */ once(() => dynamoInboundMailLog());
export const receivedMails = /* @__PURE__ */ once(() => s3ReceivedMailStore());
/** The raw body of every receipt that changed a route map, for support (30 days). */
export const rawMessages = /* @__PURE__ */ once(() => dynamoRawMessageStore());
/** Predictions: lane statistics, kept and scored predictions, stations' minimum connection times. */
export const laneStats = /* @__PURE__ */ once(() => dynamoLaneStatsStore());
export const predictionStore = /* @__PURE__ */ once(() => dynamoPredictionStore());
export const stationSettings = /* @__PURE__ */ once(() => dynamoStationSettings());
/** Told of every route-map change ingest stores (failures logged and counted, never refusing it). */
export const routeMapChangeObserver = /* @__PURE__ */ once(() =>
  predictionObserver({ laneStats: laneStats(), predictions: predictionStore() }),
);
export const subscriptions = /* @__PURE__ */ once(() => dynamoSubscriptionRepository());
export const oneRecordSubscriptions = /* @__PURE__ */ once(() => dynamoOneRecordSubscriptionStore());
export const emailConfirmations = /* @__PURE__ */ once(() => dynamoEmailConfirmationRepository());
/** Route-map share links, in the Deliveries table. */
export const shareLinks = /* @__PURE__ */ once(() => dynamoShareLinkRepository());
/** Addresses SES reported bouncing for good or complaining (never mailed again). */
export const emailSuppressions = /* @__PURE__ */ once(() => dynamoEmailSuppressionList());
export const deliveries = /* @__PURE__ */ once(() => dynamoDeliveryRepository());
export const deliveryQueue = /* @__PURE__ */ once(() => sqsDeliveryJobQueue());
export const deliveryRetries = /* @__PURE__ */ once(() => schedulerDeliveryRetryScheduler());
export const httpSender = /* @__PURE__ */ once(() => createHttpSender());
export const emailSender = /* @__PURE__ */ once(() => sesEmailSender());
export const webhookVerifier = /* @__PURE__ */ once(() => createWebhookVerifier(httpSender()));
/** GETs on carriers' ONE Record servers, through the same SSRF guard. */
export const oneRecordPublishers = /* @__PURE__ */ once(() =>
  oneRecordPublisher(httpSender(), config.localOneRecordOrigins()),
);
export const checkScheduler = /* @__PURE__ */ once(() => eventBridgeCheckScheduler());
export const proActiveSweeps = /* @__PURE__ */ once(() => sqsProActiveSweepQueue());
/** Tenants (forwarders, carriers, support) and their machine clients. */
export const tenants = /* @__PURE__ */ once(() => dynamoTenantRepository());
/**
 * Where machine clients are registered: the Cognito user pool in AWS; in the local runner
 * (DEPLOYMENT_MODE=local) generated ids with scrypt-hashed secrets kept on the tenant table.
 */
export const clientRegistry = /* @__PURE__ */ once(
  (): ClientRegistry =>
    config.deploymentMode() === "local" ? localClientRegistry() : cognitoClientRegistry(),
);
/** Which forwarder each person signing in to the web app is linked to (tenant table). */
export const forwarderUsers = /* @__PURE__ */ once(() => dynamoForwarderUserRepository());
/** Where those people sign in: Cognito users in AWS; locally generated ids (dev sign-in, no mail). */
export const forwarderUserDirectory = /* @__PURE__ */ once(
  (): ForwarderUserDirectory =>
    config.deploymentMode() === "local" ? localUserDirectory() : cognitoUserDirectory(),
);
export const tokenVerifier = /* @__PURE__ */ once(() => createTokenVerifier(config.tokenVerifier()));
/**
 * The rate-limit windows' counter: the RateLimits table every route is granted (shared across
 * containers, exact); in-process where no table is configured (handler unit tests).
 */
export const rateLimitCounter = /* @__PURE__ */ once(
  (): RateLimitCounter =>
    config.optionalTable("rateLimits") ? dynamoRateLimitCounter() : new InProcessWindowCounter(),
);
/**
 * What the HTTP pipeline's middleware needs (every authenticated route's `handler = make(deps,
 * httpPipeline)`): the deployment's rate-limit tiers, this container's per-second buckets (shared by the
 * routes of the bundle) and the windows' counter. Created on the first request: a malformed
 * RATE_LIMIT_* fails that request, naming the variable, and the next one reads it again.
 */
export const httpPipeline: Pipeline = /* @__PURE__ */ once(() => {
  const tiers = config.rateLimitTiers();
  return { rateLimit: { tiers, limiter: new RateLimiter(tiers.defaults), counter: rateLimitCounter() } };
});
export const conflictBackoff = () => jitteredBackoff;

/**
 * Sweep requests of saved ProActive rules, best effort: a request that cannot be queued is logged as
 * an error, not answered with a 5xx. The rule is already stored, and a client retrying a failed POST
 * would create a duplicate rule; what is lost is only the sweep (alerts for milestones already
 * overdue), while new misses still reach the rule through their own checks.
 */
export const bestEffortProActiveSweeps = /* @__PURE__ */ once(() => {
  const queue = proActiveSweeps();
  return {
    request: (sweep: Parameters<typeof queue.request>[0]) =>
      queue.request(sweep).catch((error: unknown) => {
        logger.error("ProActive sweep not queued: overdue milestones get no proactive check", {
          ruleId: sweep.ruleId,
          forwarderId: sweep.forwarderId,
          error: error instanceof Error ? error : String(error),
        });
      }),
  };
});
/** MAX_RULES_PER_FORWARDER (default 500), MAX_WEBHOOKS_PER_FORWARDER (default 50). */
export const subscriptionLimits = /* @__PURE__ */ once(() => config.subscriptionLimits());
