/**
 * PUT /ffw/service/routemap/webhook/{id}: replace one of the caller's webhooks (a GET body echoed back
 * works); a changed Url needs the secrets again and, like a webhook still unverified, is challenged
 * again in this request. Secrets masked in the answer.
 */
import { nowIso } from "../../adapters/clock.ts";
import { updateWebhook } from "../../core/use-cases/update-webhook.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { WEBHOOK_ROUTES } from "../../http/routes/webhooks.ts";
import { webhookResult } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions, webhookVerifier } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = WEBHOOK_ROUTES["update-webhook"];

export const make = (deps: () => DepsOf<typeof updateWebhook>, pipeline?: Pipeline) =>
  httpRoute("update-webhook", { body: api.body.schema, params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params, body }) => {
      const { forwarderId } = identity;
      return webhookResult(
        await updateWebhook(deps(), { forwarderId, id: params.id, request: body, now: nowIso() }),
      );
    },
  );

export const handler = make(
  () => ({ subscriptions: subscriptions(), verifier: webhookVerifier() }),
  httpPipeline,
);
