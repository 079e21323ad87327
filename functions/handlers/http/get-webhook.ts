/**
 * GET /ffw/service/routemap/webhook/{id}: one of the caller's webhooks, secrets masked, with Verified,
 * LastVerification and LastDelivery (else 404).
 */
import { getWebhook } from "../../core/use-cases/get-webhook.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { webhookResult } from "../../http/schemas/notifications.ts";
import { deliveries, httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof getWebhook>, pipeline?: Pipeline) =>
  httpRoute("get-webhook", { params: { id: idFromPath } }, pipeline).handle(async ({ identity, params }) => {
    const { webhook, lastDelivery } = await getWebhook(deps(), identity.forwarderId, params.id);
    return webhookResult(webhook, { lastDelivery });
  });

export const handler = make(
  () => ({ subscriptions: subscriptions(), deliveries: deliveries() }),
  httpPipeline,
);
