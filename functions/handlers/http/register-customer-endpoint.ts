/**
 * POST /support/customer-endpoints: register a forwarder's Url-channel endpoint. The answer's Id (a new
 * GUID) is that forwarder's NotifyTo; HeaderValue is shown in full only here.
 */
import { randomUUID } from "node:crypto";
import { nowIso } from "../../adapters/clock.ts";
import {
  type CustomerEndpointDeps,
  registerCustomerEndpoint,
} from "../../core/use-cases/register-customer-endpoint.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { CUSTOMER_ENDPOINT_ROUTES } from "../../http/routes/customer-endpoints.ts";
import { customerEndpointBody } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions, webhookVerifier } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = CUSTOMER_ENDPOINT_ROUTES["register-customer-endpoint"];

export const make = (deps: () => CustomerEndpointDeps, pipeline?: Pipeline) =>
  httpRoute("register-customer-endpoint", { body: api.body.schema }, pipeline).handle(async ({ body }) => {
    const endpoint = await registerCustomerEndpoint(deps(), {
      request: body,
      id: randomUUID(),
      now: nowIso(),
    });
    return { status: 200, body: customerEndpointBody(endpoint, true) };
  });

export const handler = make(
  () => ({ subscriptions: subscriptions(), targets: webhookVerifier() }),
  httpPipeline,
);
