/**
 * POST /support/carriers/{prefix}/clients: a new machine client (OAuth 2.0 client credentials) for the carrier: 201
 * { ClientId, ClientSecret }, the secret shown only here. The carrier needs its settings (404).
 */
import { nowIso } from "../../adapters/clock.ts";
import { createCarrierClient } from "../../core/use-cases/create-carrier-client.ts";
import type { CarrierTenantDeps, TenantClientDeps } from "../../core/use-cases/shared/tenants.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_CARRIER_ROUTES } from "../../http/routes/support-carriers.ts";
import { createdClientBody } from "../../http/schemas/tenants.ts";
import { carriers, clientRegistry, httpPipeline, tenants } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_CARRIER_ROUTES["create-carrier-client"];

export const make = (deps: () => TenantClientDeps & CarrierTenantDeps, pipeline?: Pipeline) =>
  httpRoute(
    "create-carrier-client",
    {
      body: api.body.schema,
      params: { prefix: prefixFromPath },
    },
    pipeline,
  ).handle(async ({ body, params }) => {
    const input = { prefix: params.prefix, name: body.Name, now: nowIso() };
    return { status: 201, body: createdClientBody(await createCarrierClient(deps(), input)) };
  });

export const handler = make(
  () => ({ tenants: tenants(), clients: clientRegistry(), carriers: carriers() }),
  httpPipeline,
);
