/** GET /ffw/service/routemap/webhook/{id}: one of the caller's webhooks, secrets masked (else 404). */
import { getWebhook } from "../../core/use-cases/get-webhook.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { webhookResult } from "./notification-schemas.ts";

export const handler = httpHandler("get-webhook", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const webhook = await mappedNotification(() =>
    getWebhook({ subscriptions: subscriptions() }, forwarderId, id),
  );
  return webhookResult(webhook);
});
