/** GET /ffw/service/routemap/webhook/{id}/deliveries: the caller's webhook's deliveries and attempt log, paged. */
import { listWebhookDeliveries } from "../../core/use-cases/list-webhook-deliveries.ts";
import { httpHandler } from "./kit.ts";
import { deliveries, subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, pageFromQuery, subscriber } from "./notification-problems.ts";
import { deliveryBody, pagedBody } from "./notification-schemas.ts";

export const handler = httpHandler("list-webhook-deliveries", {}, async ({ identity, params, query }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const page = pageFromQuery(query);
  const records = await mappedNotification(() =>
    listWebhookDeliveries(
      { subscriptions: subscriptions(), deliveries: deliveries() },
      { forwarderId, id, page },
    ),
  );
  return { status: 200, body: pagedBody(records, page, deliveryBody) };
});
