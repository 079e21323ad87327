/** POST /ffw/service/routemap/webhook/{id}/verify: run the URL challenge again and store the outcome. */
import { nowIso } from "../../adapters/clock.ts";
import { verifyWebhook } from "../../core/use-cases/verify-webhook.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { webhookResult } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions, webhookVerifier } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof verifyWebhook>, pipeline?: Pipeline) =>
  httpRoute("verify-webhook", { params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params }) => {
      const { forwarderId } = identity;
      return webhookResult(await verifyWebhook(deps(), { forwarderId, id: params.id, now: nowIso() }));
    },
  );

export const handler = make(
  () => ({ subscriptions: subscriptions(), verifier: webhookVerifier() }),
  httpPipeline,
);
