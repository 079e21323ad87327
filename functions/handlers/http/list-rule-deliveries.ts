/** GET /ffw/service/routemap/eventconfignotifier/{id}/deliveries: the rule's deliveries and attempt log, paged. */
import { listRuleDeliveries } from "../../core/use-cases/list-rule-deliveries.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { NOTIFICATION_ROUTES } from "../../http/routes/notifications.ts";
import { deliveryBody } from "../../http/schemas/notifications.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { deliveries, httpPipeline, subscriptions } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = NOTIFICATION_ROUTES["list-rule-deliveries"];

export const make = (deps: () => DepsOf<typeof listRuleDeliveries>, pipeline?: Pipeline) =>
  httpRoute("list-rule-deliveries", { params: { id: idFromPath }, query: api.query }, pipeline).handle(
    async ({ identity, params, query }) => {
      const { forwarderId } = identity;
      const records = await listRuleDeliveries(deps(), { forwarderId, id: params.id, page: query });
      return { status: 200, body: pagedBody(records, query, deliveryBody) };
    },
  );

export const handler = make(
  () => ({ subscriptions: subscriptions(), deliveries: deliveries() }),
  httpPipeline,
);
