/** Deletes one of the caller's webhooks. */
import { SubscriptionNotFoundError } from "../errors.ts";
import type { Webhook } from "../notifications/index.ts";
import { findOwnedWebhook, type WebhookDeps } from "./shared/webhooks.ts";

export async function deleteWebhook(
  deps: Pick<WebhookDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<Webhook> {
  const current = await findOwnedWebhook(deps.subscriptions, forwarderId, id);
  if (!(await deps.subscriptions.deleteWebhook(forwarderId, id))) {
    throw new SubscriptionNotFoundError("webhook", String(id));
  }
  return current;
}
