/** GET /ffw/service/routemap/webhook/{id}/deliveries: the caller's webhook's deliveries and attempt log, paged. */
import { listWebhookDeliveries } from "../../core/use-cases/list-webhook-deliveries.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { WEBHOOK_ROUTES } from "../../http/routes/webhooks.ts";
import { deliveryBody } from "../../http/schemas/notifications.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { deliveries, httpPipeline, subscriptions } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = WEBHOOK_ROUTES["list-webhook-deliveries"];

export const make = (deps: () => DepsOf<typeof listWebhookDeliveries>, pipeline?: Pipeline) =>
  httpRoute("list-webhook-deliveries", { params: { id: idFromPath }, query: api.query }, pipeline).handle(
    async ({ identity, params, query }) => {
      const { forwarderId } = identity;
      const records = await listWebhookDeliveries(deps(), { forwarderId, id: params.id, page: query });
      return { status: 200, body: pagedBody(records, query, deliveryBody) };
    },
  );

export const handler = make(
  () => ({ subscriptions: subscriptions(), deliveries: deliveries() }),
  httpPipeline,
);
