/**
 * POST /ffw/service/routemap/webhook: register a webhook and verify its Url at once (challenge echo,
 * functions/adapters/webhook-verifier.ts). 200 either way: secrets in full (this response only),
 * Enabled true only when verified, header x-webhook-verification with the outcome.
 */
import { nowIso } from "../../adapters/clock.ts";
import { WebhookRequestSchema } from "../../core/notifications/index.ts";
import { createWebhook } from "../../core/use-cases/create-webhook.ts";
import { httpHandler } from "./kit.ts";
import { limits, subscriptions, verifier } from "./notification-deps.ts";
import { mappedNotification, subscriber } from "./notification-problems.ts";
import { webhookResult } from "./notification-schemas.ts";

export const handler = httpHandler(
  "create-webhook",
  { body: WebhookRequestSchema },
  async ({ identity, body }) => {
    const owner = subscriber(identity);
    const webhook = await mappedNotification(() =>
      createWebhook(
        { subscriptions: subscriptions(), verifier: verifier(), limits: limits() },
        { owner, request: body, now: nowIso() },
      ),
    );
    return webhookResult(webhook, { revealSecrets: true });
  },
);
