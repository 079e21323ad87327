/** GET /onerecord/action-requests/{id}/deliveries: the subscription's notifications' deliveries, paged. */
import { listOneRecordDeliveries } from "../../core/use-cases/one-record-subscriptions.ts";
import { oneRecordLinks } from "../../http/one-record.ts";
import { oneRecordError } from "../../http/one-record-subscriptions.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ONE_RECORD_SUBSCRIPTION_ROUTES } from "../../http/routes/one-record-subscriptions.ts";
import { deliveryBody } from "../../http/schemas/notifications.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { deliveries, httpPipeline, oneRecordSubscriptions } from "../../wiring.ts";

const api = ONE_RECORD_SUBSCRIPTION_ROUTES["one-record-action-request-deliveries"];

export const make = (deps: () => DepsOf<typeof listOneRecordDeliveries>, pipeline?: Pipeline) =>
  httpRoute(
    "one-record-action-request-deliveries",
    { params: { id: idFromPath }, query: api.query },
    pipeline,
  ).handle(async ({ identity, params, query, baseUrl }) => {
    const records = await listOneRecordDeliveries(deps(), { id: params.id, caller: identity, page: query });
    if (records === null)
      return oneRecordError(oneRecordLinks(baseUrl), 404, `No action request ${params.id}.`);
    return { status: 200, body: pagedBody(records, query, deliveryBody) };
  });

export const handler = make(
  () => ({ oneRecordSubscriptions: oneRecordSubscriptions(), deliveries: deliveries() }),
  httpPipeline,
);
