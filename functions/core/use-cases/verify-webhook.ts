/** Challenges one of the caller's webhooks again. */
import type { Webhook } from "../notifications/index.ts";
import { findOwnedWebhook, verified, type WebhookDeps } from "./shared/webhooks.ts";

/** POST .../verify: runs the challenge again whatever the current state, and stores the outcome. */
export async function verifyWebhook(
  deps: Omit<WebhookDeps, "limits">,
  input: { forwarderId: string; id: number; now: string },
): Promise<Webhook> {
  const current = await findOwnedWebhook(deps.subscriptions, input.forwarderId, input.id);
  const updated = await verified(deps.verifier, current, input.now);
  await deps.subscriptions.putWebhook(updated);
  return updated;
}
