/** GET /ffw/service/routemap/webhook/{id}/deliveries: the caller's webhook's deliveries and attempt log, paged. */
import { listSubscriptionDeliveries } from "../../core/use-cases/subscription-deliveries.ts";
import { httpHandler } from "./kit.ts";
import { deliveries, subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, pageFromQuery, subscriber } from "./notification-problems.ts";
import { deliveryBody, pagedBody } from "./notification-schemas.ts";

export const handler = httpHandler("list-webhook-deliveries", {}, async ({ identity, params, query }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const page = pageFromQuery(query);
  const records = await mappedNotification(() =>
    listSubscriptionDeliveries(
      { subscriptions: subscriptions(), deliveries: deliveries() },
      { subscription: { forwarderId, kind: "webhook", id }, page },
    ),
  );
  return { status: 200, body: pagedBody(records, page, deliveryBody) };
});
