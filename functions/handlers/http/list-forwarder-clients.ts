/** GET /support/forwarders/{id}/clients: its machine clients, oldest first, without secrets. */
import { listForwarderClients } from "../../core/use-cases/list-forwarder-clients.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps, pipeline?: Pipeline) =>
  httpRoute("list-forwarder-clients", { params: { id: forwarderIdFromPath } }, pipeline).handle(
    async ({ params }) => ({
      status: 200,
      body: { Items: (await listForwarderClients(deps(), params.id)).map(clientBody) },
    }),
  );

export const handler = make(() => ({ tenants: tenants() }), httpPipeline);
