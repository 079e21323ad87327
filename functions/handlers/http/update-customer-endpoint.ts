/**
 * PUT /support/customer-endpoints/{id}: replace an endpoint's Url, HeaderName and HeaderValue (rotate
 * the header value); the GUID and forwarder stay. 200 with the endpoint, header value masked.
 */
import { nowIso } from "../../adapters/clock.ts";
import { CustomerEndpointUpdateSchema } from "../../core/notifications/index.ts";
import {
  type UpdateCustomerEndpointDeps,
  updateCustomerEndpoint,
} from "../../core/use-cases/update-customer-endpoint.ts";
import { guidFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { customerEndpointBody } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions, webhookVerifier } from "../../wiring.ts";

export const make = (deps: () => UpdateCustomerEndpointDeps, pipeline?: Pipeline) =>
  httpRoute(
    "update-customer-endpoint",
    {
      body: CustomerEndpointUpdateSchema,
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
