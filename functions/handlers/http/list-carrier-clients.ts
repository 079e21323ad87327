/** GET /support/carriers/{prefix}/clients: its machine clients, oldest first, without secrets. */
import { listCarrierClients } from "../../core/use-cases/list-carrier-clients.ts";
import type { CarrierTenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { carriers, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => CarrierTenantDeps, pipeline?: Pipeline) =>
  httpRoute("list-carrier-clients", { params: { prefix: prefixFromPath } }, pipeline).handle(
    async ({ params }) => ({
      status: 200,
      body: { Items: (await listCarrierClients(deps(), params.prefix)).map(clientBody) },
    }),
  );

export const handler = make(() => ({ tenants: tenants(), carriers: carriers() }), httpPipeline);
