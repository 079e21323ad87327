/**
 * POST /support/customer-endpoints: register a forwarder's Url-channel endpoint. The answer's Id (a new
 * GUID) is that forwarder's NotifyTo; HeaderValue is shown in full only here.
 */
import { randomUUID } from "node:crypto";
import { nowIso } from "../../adapters/clock.ts";
import { CustomerEndpointRequestSchema } from "../../core/notifications/index.ts";
import { registerCustomerEndpoint } from "../../core/use-cases/register-customer-endpoint.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions, verifier } from "./notification-deps.ts";
import { mappedNotification } from "./notification-problems.ts";
import { customerEndpointBody } from "./notification-schemas.ts";

export const handler = httpHandler(
  "register-customer-endpoint",
  { body: CustomerEndpointRequestSchema },
  async ({ body }) => {
    const endpoint = await mappedNotification(() =>
      registerCustomerEndpoint(
        { subscriptions: subscriptions(), targets: verifier() },
        { request: body, id: randomUUID(), now: nowIso() },
      ),
    );
    return { status: 200, body: customerEndpointBody(endpoint, true) };
  },
);
