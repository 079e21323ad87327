/** GET /ffw/service/routemap/eventconfignotifier/{id}/deliveries: the rule's deliveries and attempt log, paged. */
import { listRuleDeliveries } from "../../core/use-cases/list-rule-deliveries.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { deliveryBody } from "../../http/schemas/notifications.ts";
import { PageRequestSchema, pagedBody } from "../../http/schemas/paging.ts";
import { deliveries, httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof listRuleDeliveries>, pipeline?: Pipeline) =>
  httpRoute(
    "list-rule-deliveries",
    { params: { id: idFromPath }, query: PageRequestSchema },
    pipeline,
  ).handle(async ({ identity, params, query }) => {
    const { forwarderId } = identity;
    const records = await listRuleDeliveries(deps(), { forwarderId, id: params.id, page: query });
    return { status: 200, body: pagedBody(records, query, deliveryBody) };
  });

export const handler = make(
  () => ({ subscriptions: subscriptions(), deliveries: deliveries() }),
  httpPipeline,
);
