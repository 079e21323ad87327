/** GET /support/customer-endpoints?CurrentPage=&PageSize=: registered endpoints, header values masked. */
import { listCustomerEndpoints } from "../../core/use-cases/list-customer-endpoints.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { CUSTOMER_ENDPOINT_ROUTES } from "../../http/routes/customer-endpoints.ts";
import { customerEndpointBody } from "../../http/schemas/notifications.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = CUSTOMER_ENDPOINT_ROUTES["list-customer-endpoints"];

export const make = (deps: () => DepsOf<typeof listCustomerEndpoints>, pipeline?: Pipeline) =>
  httpRoute("list-customer-endpoints", { query: api.query }, pipeline).handle(async ({ query }) => {
    const endpoints = await listCustomerEndpoints(deps(), query);
    return { status: 200, body: pagedBody(endpoints, query, (endpoint) => customerEndpointBody(endpoint)) };
  });

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
