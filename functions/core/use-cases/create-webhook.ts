/** Creates a webhook for the caller: within its limit, a callable Url, challenged at once. */
import {
  type SubscriberIdentity,
  type Webhook,
  type WebhookRequest,
  webhookFromRequest,
} from "../notifications/index.ts";
import { ensureBelowLimit } from "./shared/subscription-limits.ts";
import { ensureTargetAllowed, verified, type WebhookDeps } from "./shared/webhooks.ts";

export async function createWebhook(
  deps: WebhookDeps,
  input: { owner: SubscriberIdentity; request: WebhookRequest; now: string },
): Promise<Webhook> {
  const { owner, request, now } = input;
  await ensureBelowLimit(deps.subscriptions, deps.limits, owner.forwarderId, "webhook");
  await ensureTargetAllowed(deps.verifier, request.Url);
  const id = await deps.subscriptions.nextId("webhook");
  const webhook = await verified(deps.verifier, webhookFromRequest(request, { id, owner, now }), now);
  await deps.subscriptions.putWebhook(webhook);
  return webhook;
}
