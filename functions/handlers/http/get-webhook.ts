/** GET /ffw/service/routemap/webhook/{id}: one of the caller's webhooks, secrets masked (else 404). */
import { getWebhook } from "../../core/use-cases/get-webhook.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { webhookResult } from "../../http/schemas/notifications.ts";
import { subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof getWebhook>) =>
  httpRoute("get-webhook", { params: { id: idFromPath } }).handle(async ({ identity, params }) =>
    webhookResult(await getWebhook(deps(), identity.forwarderId, params.id)),
  );

export const handler = make(() => ({ subscriptions: subscriptions() }));
