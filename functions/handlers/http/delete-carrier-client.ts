/** DELETE /support/carriers/{prefix}/clients/{clientId}: the client is deregistered and deleted (200 with it). */
import { deleteCarrierClient } from "../../core/use-cases/delete-carrier-client.ts";
import type { TenantClientDeps } from "../../core/use-cases/shared/tenants.ts";
import { clientIdFromPath, prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { clientRegistry, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantClientDeps, pipeline?: Pipeline) =>
  httpRoute(
    "delete-carrier-client",
    {
      params: { prefix: prefixFromPath, clientId: clientIdFromPath },
    },
    pipeline,
  ).handle(async ({ params }) => {
    const input = { prefix: params.prefix, clientId: params.clientId };
    return { status: 200, body: clientBody(await deleteCarrierClient(deps(), input)) };
  });

export const handler = make(() => ({ tenants: tenants(), clients: clientRegistry() }), httpPipeline);
