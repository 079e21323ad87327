/**
 * GET /ffw/service/routemap/webhook?CurrentPage=&PageSize=: the caller's webhooks, secrets masked, each
 * with Verified, LastVerification and LastDelivery.
 */
import { listWebhooks } from "../../core/use-cases/list-webhooks.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { WEBHOOK_ROUTES } from "../../http/routes/webhooks.ts";
import { webhookBody } from "../../http/schemas/notifications.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { deliveries, httpPipeline, subscriptions } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = WEBHOOK_ROUTES["list-webhooks"];

export const make = (deps: () => DepsOf<typeof listWebhooks>, pipeline?: Pipeline) =>
  httpRoute("list-webhooks", { query: api.query }, pipeline).handle(async ({ identity, query }) => {
    const webhooks = await listWebhooks(deps(), identity.forwarderId, query);
    const body = pagedBody(webhooks, query, (view) => webhookBody(view.webhook, false, view));
    return { status: 200, body };
  });

export const handler = make(
  () => ({ subscriptions: subscriptions(), deliveries: deliveries() }),
  httpPipeline,
);
