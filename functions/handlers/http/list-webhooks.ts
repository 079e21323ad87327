/** GET /ffw/service/routemap/webhook?CurrentPage=&PageSize=: the caller's webhooks, secrets masked. */
import { listWebhooks } from "../../core/use-cases/list-webhooks.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { pageFromQuery, subscriber } from "./notification-problems.ts";
import { pagedBody, webhookBody } from "./notification-schemas.ts";

export const handler = httpHandler("list-webhooks", {}, async ({ identity, query }) => {
  const { forwarderId } = subscriber(identity);
  const page = pageFromQuery(query);
  const webhooks = await listWebhooks({ subscriptions: subscriptions() }, forwarderId, page);
  return { status: 200, body: pagedBody(webhooks, page, (webhook) => webhookBody(webhook)) };
});
