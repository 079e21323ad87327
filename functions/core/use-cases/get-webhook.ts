/** One of the caller's webhooks (else SubscriptionNotFoundError). */
import type { Webhook } from "../notifications/index.ts";
import { findOwnedWebhook, type WebhookDeps } from "./shared/webhooks.ts";

export function getWebhook(
  deps: Pick<WebhookDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<Webhook> {
  return findOwnedWebhook(deps.subscriptions, forwarderId, id);
}
