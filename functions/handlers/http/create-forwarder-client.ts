/**
 * POST /support/forwarders/{id}/clients: a new machine client (OAuth 2.0 client credentials) for the forwarder: 201
 * { ClientId, ClientSecret }, the secret shown only here.
 */
import { nowIso } from "../../adapters/clock.ts";
import { createForwarderClient } from "../../core/use-cases/create-forwarder-client.ts";
import type { TenantClientDeps } from "../../core/use-cases/shared/tenants.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ClientRequestSchema, createdClientBody } from "../../http/schemas/tenants.ts";
import { clientRegistry, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantClientDeps, pipeline?: Pipeline) =>
  httpRoute(
    "create-forwarder-client",
    {
      body: ClientRequestSchema,
      params: { id: forwarderIdFromPath },
    },
    pipeline,
  ).handle(async ({ body, params }) => {
    const input = { forwarderId: params.id, name: body.Name, now: nowIso() };
    return { status: 201, body: createdClientBody(await createForwarderClient(deps(), input)) };
  });

export const handler = make(() => ({ tenants: tenants(), clients: clientRegistry() }), httpPipeline);
