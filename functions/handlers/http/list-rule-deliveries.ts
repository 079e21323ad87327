/** GET /ffw/service/routemap/eventconfignotifier/{id}/deliveries: the caller's rule's deliveries and attempt log, paged. */
import { listRuleDeliveries } from "../../core/use-cases/list-rule-deliveries.ts";
import { httpHandler } from "./kit.ts";
import { deliveries, subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, pageFromQuery, subscriber } from "./notification-problems.ts";
import { deliveryBody, pagedBody } from "./notification-schemas.ts";

export const handler = httpHandler("list-rule-deliveries", {}, async ({ identity, params, query }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const page = pageFromQuery(query);
  const records = await mappedNotification(() =>
    listRuleDeliveries(
      { subscriptions: subscriptions(), deliveries: deliveries() },
      { forwarderId, id, page },
    ),
  );
  return { status: 200, body: pagedBody(records, page, deliveryBody) };
});
