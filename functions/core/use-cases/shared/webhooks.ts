/**
 * What the webhook use cases share. The URL challenge is an ownership proof shown as `Verified`, not a
 * gate (an enabled webhook receives events either way): every write that leaves a webhook's proof
 * pending (creation, a changed Url, switching on one that a receiver's 410 switched off) runs the
 * challenge at once and stores the outcome; the forwarder sees it in the same response.
 */

import { SubscriptionNotFoundError, UnusableReferenceError } from "../../errors.ts";
import {
  markWebhookVerificationFailed,
  markWebhookVerified,
  type Webhook,
} from "../../notifications/index.ts";
import type {
  DeliveryRecord,
  SubscriptionRepository,
  TargetChecker,
  WebhookVerifier,
} from "../../ports/notifications.ts";
import type { SubscriptionLimits } from "./subscription-limits.ts";

/** A webhook as its owner reads it (GET, list): with its newest delivery, the last delivery outcome. */
export interface WebhookView {
  webhook: Webhook;
  lastDelivery: DeliveryRecord | null;
}

export interface WebhookDeps {
  subscriptions: SubscriptionRepository;
  verifier: WebhookVerifier;
  limits: SubscriptionLimits;
}

/** A Url the service may call (scheme, address class), else 422 naming Url: webhooks and customer endpoints. */
export async function ensureTargetAllowed(checker: TargetChecker, url: string): Promise<void> {
  const verdict = await checker.checkTarget(url);
  if (!verdict.allowed) throw new UnusableReferenceError("Url", `cannot be called: ${verdict.reason}`);
}

export async function verified(verifier: WebhookVerifier, webhook: Webhook, now: string): Promise<Webhook> {
  const outcome = await verifier.verify(webhook);
  return outcome.ok
    ? markWebhookVerified(webhook, now)
    : markWebhookVerificationFailed(webhook, outcome.reason, now);
}

/** The caller's webhook `id`; another forwarder's webhook is as unknown as a missing one. */
export async function findOwnedWebhook(
  subscriptions: SubscriptionRepository,
  forwarderId: string,
  id: number,
): Promise<Webhook> {
  const webhook = await subscriptions.getWebhook(forwarderId, id);
  if (!webhook) throw new SubscriptionNotFoundError("webhook", String(id));
  return webhook;
}
