/** GET /support/carriers/{prefix}/clients: its machine clients, oldest first, without secrets. */
import { listCarrierClients } from "../../core/use-cases/list-carrier-clients.ts";
import type { CarrierTenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { carriers, tenants } from "../../wiring.ts";

export const make = (deps: () => CarrierTenantDeps) =>
  httpRoute("list-carrier-clients", { params: { prefix: prefixFromPath } }).handle(async ({ params }) => ({
    status: 200,
    body: { Items: (await listCarrierClients(deps(), params.prefix)).map(clientBody) },
  }));

export const handler = make(() => ({ tenants: tenants(), carriers: carriers() }));
