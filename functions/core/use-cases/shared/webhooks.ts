/**
 * What the webhook use cases share. A webhook receives events only once its receiver has echoed a
 * challenge (isWebhookActive), so every write that leaves it unverified (creation, a changed Url, an
 * update of a failed one, switching on one that a receiver's 410 switched off) runs the challenge at
 * once and stores the outcome; the forwarder sees the result in the same response.
 */

import { SubscriptionNotFoundError, UnusableReferenceError } from "../../errors.ts";
import {
  markWebhookVerificationFailed,
  markWebhookVerified,
  type Webhook,
} from "../../notifications/index.ts";
import type { SubscriptionRepository, TargetChecker, WebhookVerifier } from "../../ports/notifications.ts";
import type { SubscriptionLimits } from "./subscription-limits.ts";

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
