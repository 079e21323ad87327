/**
 * Adapters of the notification handlers, created on first use (once per Lambda container), so a
 * handler only needs the environment of what it touches (e.g. only replay reads DELIVERY_QUEUE_URL).
 */

import { sqsDeliveryJobQueue } from "../../adapters/delivery-job-queue.ts";
import { dynamoDeliveryRepository } from "../../adapters/delivery-repository.ts";
import { sqsProActiveSweepQueue } from "../../adapters/proactive-sweep-queue.ts";
import { dynamoSubscriptionRepository } from "../../adapters/subscription-repository.ts";
import { createWebhookVerifier } from "../../adapters/webhook-verifier.ts";
import type { ProActiveSweepQueue } from "../../core/ports/checks.ts";
import type {
  DeliveryJobQueue,
  DeliveryRepository,
  SubscriptionRepository,
  WebhookVerifier,
} from "../../core/ports/notifications.ts";
import {
  type SubscriptionLimits,
  subscriptionLimitsFrom,
} from "../../core/use-cases/shared/subscription-limits.ts";
import { logger } from "./kit.ts";

let subscriptionStore: SubscriptionRepository | undefined;
let deliveryStore: DeliveryRepository | undefined;
let verifierInstance: WebhookVerifier | undefined;
let queueInstance: DeliveryJobQueue | undefined;

export const subscriptions = () => {
  subscriptionStore ??= dynamoSubscriptionRepository();
  return subscriptionStore;
};
export const deliveries = () => {
  deliveryStore ??= dynamoDeliveryRepository();
  return deliveryStore;
};
export const verifier = () => {
  verifierInstance ??= createWebhookVerifier();
  return verifierInstance;
};
export const deliveryQueue = () => {
  queueInstance ??= sqsDeliveryJobQueue();
  return queueInstance;
};
let sweepQueue: ProActiveSweepQueue | undefined;
/**
 * Sweep requests of saved ProActive rules (DueChecks queue). A request that cannot be queued is
 * logged as an error, not answered with a 5xx: the rule is already stored, and a client retrying a
 * failed POST would create a duplicate rule. What is lost is only the sweep (alerts for milestones
 * already overdue); new misses still reach the rule through their own checks.
 */
export const proActiveSweeps = (): ProActiveSweepQueue => {
  if (!sweepQueue) {
    const queue = sqsProActiveSweepQueue();
    sweepQueue = {
      request: (sweep) =>
        queue.request(sweep).catch((error: unknown) => {
          logger.error("ProActive sweep not queued: overdue milestones get no proactive check", {
            ruleId: sweep.ruleId,
            forwarderId: sweep.forwarderId,
            error: error instanceof Error ? error : String(error),
          });
        }),
    };
  }
  return sweepQueue;
};

/** MAX_RULES_PER_FORWARDER (default 500), MAX_WEBHOOKS_PER_FORWARDER (default 50). */
export const limits = (): SubscriptionLimits => subscriptionLimitsFrom(process.env);
