/**
 * PUT /support/customer-endpoints/{id}: replace an endpoint's Url, HeaderName and HeaderValue (rotate
 * the header value); the GUID and forwarder stay. 200 with the endpoint, header value masked.
 */
import { nowIso } from "../../adapters/clock.ts";
import {
  type UpdateCustomerEndpointDeps,
  updateCustomerEndpoint,
} from "../../core/use-cases/update-customer-endpoint.ts";
import { guidFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { CUSTOMER_ENDPOINT_ROUTES } from "../../http/routes/customer-endpoints.ts";
import { customerEndpointBody } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions, webhookVerifier } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = CUSTOMER_ENDPOINT_ROUTES["update-customer-endpoint"];

export const make = (deps: () => UpdateCustomerEndpointDeps, pipeline?: Pipeline) =>
  httpRoute(
    "update-customer-endpoint",
    {
      body: api.body.schema,
      params: { id: guidFromPath },
    },
    pipeline,
  ).handle(async ({ params, body }) => {
    const endpoint = await updateCustomerEndpoint(deps(), { id: params.id, update: body, now: nowIso() });
    return { status: 200, body: customerEndpointBody(endpoint) };
  });

export const handler = make(
  () => ({ subscriptions: subscriptions(), targets: webhookVerifier() }),
  httpPipeline,
);
