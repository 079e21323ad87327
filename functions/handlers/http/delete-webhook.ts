/**
 * DELETE /ffw/service/routemap/webhook/{id}: removes the webhook and its match-index items; 200 with
 * the deleted webhook, secrets masked.
 */
import { deleteWebhook } from "../../core/use-cases/delete-webhook.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { webhookResult } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof deleteWebhook>, pipeline?: Pipeline) =>
  httpRoute("delete-webhook", { params: { id: idFromPath } }, pipeline).handle(async ({ identity, params }) =>
    webhookResult(await deleteWebhook(deps(), identity.forwarderId, params.id)),
  );

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
