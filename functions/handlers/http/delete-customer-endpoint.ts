/**
 * DELETE /support/customer-endpoints/{id}[?force=true]: 409 while enabled Url rules send to it; with
 * force those rules are switched off first. 200 with the deleted endpoint (masked) and DisabledRules.
 */
import { nowIso } from "../../adapters/clock.ts";
import {
  type DeleteCustomerEndpointDeps,
  deleteCustomerEndpoint,
} from "../../core/use-cases/delete-customer-endpoint.ts";
import { guidFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { CUSTOMER_ENDPOINT_ROUTES } from "../../http/routes/customer-endpoints.ts";
import { customerEndpointBody } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = CUSTOMER_ENDPOINT_ROUTES["delete-customer-endpoint"];

export const make = (deps: () => DeleteCustomerEndpointDeps, pipeline?: Pipeline) =>
  httpRoute("delete-customer-endpoint", { params: { id: guidFromPath }, query: api.query }, pipeline).handle(
    async ({ params, query }) => {
      const deleted = await deleteCustomerEndpoint(deps(), {
        id: params.id,
        force: query.force === "true",
        now: nowIso(),
      });
      return {
        status: 200,
        body: { ...customerEndpointBody(deleted.endpoint), DisabledRules: deleted.disabledRules },
      };
    },
  );

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
