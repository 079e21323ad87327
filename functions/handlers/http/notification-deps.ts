/**
 * Adapters of the notification handlers, created on first use (once per Lambda container), so a
 * handler only needs the environment of what it touches (e.g. only replay reads DELIVERY_QUEUE_URL).
 */

import { eventBridgeCheckScheduler } from "../../adapters/check-scheduler.ts";
import { sqsDeliveryJobQueue } from "../../adapters/delivery-job-queue.ts";
import { dynamoDeliveryRepository } from "../../adapters/delivery-repository.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import { dynamoSubscriptionRepository } from "../../adapters/subscription-repository.ts";
import { createWebhookVerifier } from "../../adapters/webhook-verifier.ts";
import type { NotificationRule } from "../../core/notifications/index.ts";
import type {
  DeliveryJobQueue,
  DeliveryRepository,
  SubscriptionRepository,
} from "../../core/use-cases/notification-ports.ts";
import { scheduleProActiveForRule } from "../../core/use-cases/schedule-proactive-for-rule.ts";
import { type SubscriptionLimits, subscriptionLimitsFrom } from "../../core/use-cases/subscription-limits.ts";
import type { WebhookVerifier } from "../../core/use-cases/webhook-subscriptions.ts";

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
let sweep: ((rule: NotificationRule, now: string) => Promise<void>) | undefined;
/** Proactive checks for a saved ProActive rule's already-overdue milestones. */
export const proActiveSweep = () => {
  if (!sweep) {
    const deps = { routeMaps: dynamoRouteMapRepository(), checks: eventBridgeCheckScheduler() };
    sweep = async (rule, now) => {
      await scheduleProActiveForRule(deps, { rule, now });
    };
  }
  return sweep;
};

/** MAX_RULES_PER_FORWARDER (default 500), MAX_WEBHOOKS_PER_FORWARDER (default 50). */
export const limits = (): SubscriptionLimits => subscriptionLimitsFrom(process.env);
