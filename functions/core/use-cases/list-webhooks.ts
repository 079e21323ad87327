/**
 * The caller's webhooks, paged, each with its newest delivery (two reads per webhook, bounded by
 * MAX_WEBHOOKS_PER_FORWARDER and the page size).
 */
import type { DeliveryRepository, Page, PageRequest } from "../ports/notifications.ts";
import type { WebhookDeps, WebhookView } from "./shared/webhooks.ts";

export async function listWebhooks(
  deps: Pick<WebhookDeps, "subscriptions"> & { deliveries: DeliveryRepository },
  forwarderId: string,
  page: PageRequest,
): Promise<Page<WebhookView>> {
  const webhooks = await deps.subscriptions.listWebhooks(forwarderId, page);
  const items = await Promise.all(
    webhooks.items.map(async (webhook) => ({
      webhook,
      lastDelivery: await deps.deliveries.latestForSubscription("webhook", webhook.id),
    })),
  );
  return { items, total: webhooks.total };
}
