/**
 * PUT /ffw/service/routemap/webhook/{id}: replace one of the caller's webhooks (a GET body echoed back
 * works); a changed Url needs the secrets again and, like a webhook still unverified, is challenged
 * again in this request. Secrets masked in the answer.
 */
import { nowIso } from "../../adapters/clock.ts";
import { WebhookUpdateSchema } from "../../core/notifications/index.ts";
import { updateWebhook } from "../../core/use-cases/update-webhook.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { webhookResult } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions, webhookVerifier } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof updateWebhook>, pipeline?: Pipeline) =>
  httpRoute("update-webhook", { body: WebhookUpdateSchema, params: { id: idFromPath } }, pipeline).handle(
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
