/**
 * Creates a webhook for the caller: a callable Url, stored within its limit (a conditional counter, so
 * concurrent creations cannot exceed it), then challenged once as an ownership proof (not a gate: the
 * webhook is enabled as asked whatever the outcome).
 */
import {
  type SubscriberIdentity,
  type Webhook,
  type WebhookRequest,
  webhookFromRequest,
} from "../notifications/index.ts";
import { insertWebhookWithinLimit } from "./shared/subscription-limits.ts";
import { ensureTargetAllowed, verified, type WebhookDeps } from "./shared/webhooks.ts";

export async function createWebhook(
  deps: WebhookDeps,
  input: { owner: SubscriberIdentity; request: WebhookRequest; now: string },
): Promise<Webhook> {
  const { owner, request, now } = input;
  // Built before any write; the repository gives it its id when it stores it within the limit.
  const draft = webhookFromRequest(request, { id: 0, owner, now });
  await ensureTargetAllowed(deps.verifier, request.Url);
  const webhook = await insertWebhookWithinLimit(deps.subscriptions, deps.limits, draft);
  const checked = await verified(deps.verifier, webhook, now);
  await deps.subscriptions.putWebhook(checked);
  return checked;
}
