/** Replaces one of the caller's webhooks. */
import { applyWebhookUpdate, type Webhook, type WebhookRequest } from "../notifications/index.ts";
import { ensureTargetAllowed, findOwnedWebhook, verified, type WebhookDeps } from "./shared/webhooks.ts";

/**
 * PUT: absent or echoed (masked) Token/Psk keep the stored ones, but a new Url needs them again (400
 * otherwise, before anything is sent to it); a new Url, or a webhook switched on again after a 410, is
 * challenged again.
 */
export async function updateWebhook(
  deps: Omit<WebhookDeps, "limits">,
  input: { forwarderId: string; id: number; request: WebhookRequest; now: string },
): Promise<Webhook> {
  const current = await findOwnedWebhook(deps.subscriptions, input.forwarderId, input.id);
  if (input.request.Url !== current.url) await ensureTargetAllowed(deps.verifier, input.request.Url);
  let updated = applyWebhookUpdate(current, input.request, input.now);
  // Only a new Url (or one back from a 410) is challenged: an unverified webhook still receives events,
  // and POST .../verify re-runs the proof on demand.
  if (updated.verification.status === "pending") updated = await verified(deps.verifier, updated, input.now);
  await deps.subscriptions.putWebhook(updated);
  return updated;
}
