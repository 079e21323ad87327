/** POST /ffw/service/routemap/webhook/{id}/verify: run the URL challenge again and store the outcome. */
import { nowIso } from "../../adapters/clock.ts";
import { verifyWebhook } from "../../core/use-cases/verify-webhook.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions, verifier } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { webhookResult } from "./notification-schemas.ts";

export const handler = httpHandler("verify-webhook", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const webhook = await mappedNotification(() =>
    verifyWebhook(
      { subscriptions: subscriptions(), verifier: verifier() },
      { forwarderId, id, now: nowIso() },
    ),
  );
  return webhookResult(webhook);
});
