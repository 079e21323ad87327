/**
 * GET /ffw/service/routemap/customer-endpoints?CurrentPage=&PageSize=: the caller's own customer
 * endpoints (header values masked), to pick the GUID of a Url rule's NotifyTo.
 */
import { listOwnCustomerEndpoints } from "../../core/use-cases/list-own-customer-endpoints.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { NOTIFICATION_ROUTES } from "../../http/routes/notifications.ts";
import { customerEndpointBody } from "../../http/schemas/notifications.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = NOTIFICATION_ROUTES["list-own-customer-endpoints"];

export const make = (deps: () => DepsOf<typeof listOwnCustomerEndpoints>, pipeline?: Pipeline) =>
  httpRoute("list-own-customer-endpoints", { query: api.query }, pipeline).handle(
    async ({ identity, query }) => {
      const endpoints = await listOwnCustomerEndpoints(deps(), {
        forwarderId: identity.forwarderId,
        page: query,
      });
      return { status: 200, body: pagedBody(endpoints, query, (endpoint) => customerEndpointBody(endpoint)) };
    },
  );

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
