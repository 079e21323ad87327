/** GET /ffw/service/routemap/webhook?CurrentPage=&PageSize=: the caller's webhooks, secrets masked. */
import { listWebhooks } from "../../core/use-cases/list-webhooks.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { webhookBody } from "../../http/schemas/notifications.ts";
import { PageRequestSchema, pagedBody } from "../../http/schemas/paging.ts";
import { subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof listWebhooks>) =>
  httpRoute("list-webhooks", { query: PageRequestSchema }).handle(async ({ identity, query }) => {
    const webhooks = await listWebhooks(deps(), identity.forwarderId, query);
    return { status: 200, body: pagedBody(webhooks, query, (webhook) => webhookBody(webhook)) };
  });

export const handler = make(() => ({ subscriptions: subscriptions() }));
