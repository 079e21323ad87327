/**
 * DELETE /ffw/service/routemap/webhook/{id}: removes the webhook and its match-index items; 200 with
 * the deleted webhook, secrets masked.
 */
import { deleteWebhook } from "../../core/use-cases/delete-webhook.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { webhookResult } from "./notification-schemas.ts";

export const handler = httpHandler("delete-webhook", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const webhook = await mappedNotification(() =>
    deleteWebhook({ subscriptions: subscriptions() }, forwarderId, id),
  );
  return webhookResult(webhook);
});
