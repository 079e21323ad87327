/** DELETE /support/forwarders/{id}/clients/{clientId}: the client is deregistered and deleted (200 with it). */
import { deleteForwarderClient } from "../../core/use-cases/delete-forwarder-client.ts";
import type { TenantClientDeps } from "../../core/use-cases/shared/tenants.ts";
import { clientIdFromPath, forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { clientRegistry, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantClientDeps, pipeline?: Pipeline) =>
  httpRoute(
    "delete-forwarder-client",
    {
      params: { id: forwarderIdFromPath, clientId: clientIdFromPath },
    },
    pipeline,
  ).handle(async ({ params }) => {
    const input = { forwarderId: params.id, clientId: params.clientId };
    return { status: 200, body: clientBody(await deleteForwarderClient(deps(), input)) };
  });

export const handler = make(() => ({ tenants: tenants(), clients: clientRegistry() }), httpPipeline);
