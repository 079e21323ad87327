/**
 * PUT /ffw/service/routemap/webhook/{id}: replace one of the caller's webhooks; a changed Url (or a
 * webhook still unverified) is challenged again in this request. Secrets masked in the answer.
 */
import { nowIso } from "../../adapters/clock.ts";
import { WebhookUpdateSchema } from "../../core/notifications/index.ts";
import { updateWebhook } from "../../core/use-cases/update-webhook.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions, verifier } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { webhookResult } from "./notification-schemas.ts";

export const handler = httpHandler(
  "update-webhook",
  { body: WebhookUpdateSchema },
  async ({ identity, params, body }) => {
    const { forwarderId } = subscriber(identity);
    const id = idFromPath(params.id);
    const webhook = await mappedNotification(() =>
      updateWebhook(
        { subscriptions: subscriptions(), verifier: verifier() },
        { forwarderId, id, request: body, now: nowIso() },
      ),
    );
    return webhookResult(webhook);
  },
);
