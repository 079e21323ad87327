/** The caller's webhooks, paged. */
import type { Webhook } from "../notifications/index.ts";
import type { Page, PageRequest } from "../ports/notifications.ts";
import type { WebhookDeps } from "./shared/webhooks.ts";

export function listWebhooks(
  deps: Pick<WebhookDeps, "subscriptions">,
  forwarderId: string,
  page: PageRequest,
): Promise<Page<Webhook>> {
  return deps.subscriptions.listWebhooks(forwarderId, page);
}
