/** One of the caller's webhooks (else SubscriptionNotFoundError), with its newest delivery. */
import type { DeliveryRepository } from "../ports/notifications.ts";
import { findOwnedWebhook, type WebhookDeps, type WebhookView } from "./shared/webhooks.ts";

export async function getWebhook(
  deps: Pick<WebhookDeps, "subscriptions"> & { deliveries: DeliveryRepository },
  forwarderId: string,
  id: number,
): Promise<WebhookView> {
  const webhook = await findOwnedWebhook(deps.subscriptions, forwarderId, id);
  return { webhook, lastDelivery: await deps.deliveries.latestForSubscription("webhook", webhook.id) };
}
