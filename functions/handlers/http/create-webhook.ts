/**
 * POST /ffw/service/routemap/webhook: register a webhook (enabled as asked) and run the URL challenge
 * once as an ownership proof (functions/adapters/webhook-verifier.ts). 200 either way: secrets in full
 * (this response only), `Verified` and `LastVerification`, header x-webhook-verification.
 */
import { nowIso } from "../../adapters/clock.ts";
import { createWebhook } from "../../core/use-cases/create-webhook.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { subscriber } from "../../http/request-mapping.ts";
import { WEBHOOK_ROUTES } from "../../http/routes/webhooks.ts";
import { webhookResult } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptionLimits, subscriptions, webhookVerifier } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = WEBHOOK_ROUTES["create-webhook"];

export const make = (deps: () => DepsOf<typeof createWebhook>, pipeline?: Pipeline) =>
  httpRoute("create-webhook", { body: api.body.schema }, pipeline).handle(async ({ identity, body }) => {
    const owner = subscriber(identity);
    const webhook = await createWebhook(deps(), { owner, request: body, now: nowIso() });
    return webhookResult(webhook, { revealSecrets: true });
  });

export const handler = make(
  () => ({
    subscriptions: subscriptions(),
    verifier: webhookVerifier(),
    limits: subscriptionLimits(),
  }),
  httpPipeline,
);
