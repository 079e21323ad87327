/**
 * Per-forwarder limits on rules and webhooks: they bound every list read (one partition) and the
 * candidates one event can reach. Configurable per deployment (MAX_RULES_PER_FORWARDER,
 * MAX_WEBHOOKS_PER_FORWARDER, read by functions/adapters/config.ts); defaults 500 rules, 50 webhooks.
 */

import { SubscriptionLimitError } from "../../errors.ts";
import type { NotificationRule, Webhook } from "../../notifications/index.ts";
import type { SubscriptionRepository } from "../../ports/notifications.ts";

export interface SubscriptionLimits {
  rules: number;
  webhooks: number;
}

/**
 * Stores a new rule under its new id within the forwarder's limit, else SubscriptionLimitError (409,
 * nothing written). The repository counts with a conditional counter, so concurrent creations cannot
 * pass the limit together.
 */
export async function insertRuleWithinLimit(
  subscriptions: SubscriptionRepository,
  limits: SubscriptionLimits,
  draft: Omit<NotificationRule, "id">,
): Promise<NotificationRule> {
  const rule = await subscriptions.insertRule(draft, limits.rules);
  if (!rule) throw new SubscriptionLimitError("rule", limits.rules);
  return rule;
}

/** insertRuleWithinLimit for webhooks. */
export async function insertWebhookWithinLimit(
  subscriptions: SubscriptionRepository,
  limits: SubscriptionLimits,
  draft: Omit<Webhook, "id">,
): Promise<Webhook> {
  const webhook = await subscriptions.insertWebhook(draft, limits.webhooks);
  if (!webhook) throw new SubscriptionLimitError("webhook", limits.webhooks);
  return webhook;
}
