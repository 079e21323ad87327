/**
 * Per-forwarder limits on rules and webhooks: they bound every list read (one partition) and the
 * candidates one event can reach. Configurable per deployment; defaults 500 rules, 50 webhooks.
 */

import { SubscriptionLimitError } from "../../errors.ts";
import type { SubscriptionRepository } from "../../ports/notifications.ts";

export interface SubscriptionLimits {
  rules: number;
  webhooks: number;
}

const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { rules: 500, webhooks: 50 };

/** From MAX_RULES_PER_FORWARDER / MAX_WEBHOOKS_PER_FORWARDER (positive integers), else the defaults. */
export function subscriptionLimitsFrom(env: Record<string, string | undefined>): SubscriptionLimits {
  const positive = (text: string | undefined, fallback: number) => {
    const value = Number(text);
    return text && Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    rules: positive(env.MAX_RULES_PER_FORWARDER, DEFAULT_SUBSCRIPTION_LIMITS.rules),
    webhooks: positive(env.MAX_WEBHOOKS_PER_FORWARDER, DEFAULT_SUBSCRIPTION_LIMITS.webhooks),
  };
}

/**
 * Refuses a creation that would exceed the limit. Approximate under concurrent creations by one
 * forwarder (two may both see limit - 1); exact counting would serialise every create on a counter.
 */
export async function ensureBelowLimit(
  subscriptions: SubscriptionRepository,
  limits: SubscriptionLimits,
  forwarderId: string,
  kind: "rule" | "webhook",
): Promise<void> {
  const limit = kind === "rule" ? limits.rules : limits.webhooks;
  if ((await subscriptions.countSubscriptions(forwarderId, kind)) >= limit) {
    throw new SubscriptionLimitError(kind, limit);
  }
}
