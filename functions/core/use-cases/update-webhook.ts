/** Replaces one of the caller's webhooks. */
import { applyWebhookUpdate, type Webhook, type WebhookRequest } from "../notifications/index.ts";
import { ensureTargetAllowed, findOwnedWebhook, verified, type WebhookDeps } from "./shared/webhooks.ts";

/**
 * PUT: absent Token/Psk keep the stored ones; a webhook left unverified (a new Url, or switched on
 * again after a 410) is challenged again.
 */
export async function updateWebhook(
  deps: Omit<WebhookDeps, "limits">,
  input: { forwarderId: string; id: number; request: WebhookRequest; now: string },
): Promise<Webhook> {
  const current = await findOwnedWebhook(deps.subscriptions, input.forwarderId, input.id);
  if (input.request.Url !== current.url) await ensureTargetAllowed(deps.verifier, input.request.Url);
  let updated = applyWebhookUpdate(current, input.request, input.now);
  if (updated.verification.status !== "verified") updated = await verified(deps.verifier, updated, input.now);
  await deps.subscriptions.putWebhook(updated);
  return updated;
}
