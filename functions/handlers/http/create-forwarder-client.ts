/**
 * POST /support/forwarders/{id}/clients: a new machine client (OAuth 2.0 client credentials) for the forwarder: 201
 * { ClientId, ClientSecret }, the secret shown only here.
 */
import { nowIso } from "../../adapters/clock.ts";
import { createForwarderClient } from "../../core/use-cases/create-forwarder-client.ts";
import type { TenantClientDeps } from "../../core/use-cases/shared/tenants.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_FORWARDER_ROUTES } from "../../http/routes/support-forwarders.ts";
import { createdClientBody } from "../../http/schemas/tenants.ts";
import { clientRegistry, httpPipeline, tenants } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_FORWARDER_ROUTES["create-forwarder-client"];

export const make = (deps: () => TenantClientDeps, pipeline?: Pipeline) =>
  httpRoute(
    "create-forwarder-client",
    {
      body: api.body.schema,
      params: { id: forwarderIdFromPath },
    },
    pipeline,
  ).handle(async ({ body, params }) => {
    const input = { forwarderId: params.id, name: body.Name, now: nowIso() };
    return { status: 201, body: createdClientBody(await createForwarderClient(deps(), input)) };
  });

export const handler = make(() => ({ tenants: tenants(), clients: clientRegistry() }), httpPipeline);
