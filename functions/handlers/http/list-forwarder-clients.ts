/** GET /support/forwarders/{id}/clients: its machine clients, oldest first, without secrets. */
import { listForwarderClients } from "../../core/use-cases/list-forwarder-clients.ts";
import type { TenantDeps } from "../../core/use-cases/shared/tenants.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute } from "../../http/pipeline.ts";
import { clientBody } from "../../http/schemas/tenants.ts";
import { tenants } from "../../wiring.ts";

export const make = (deps: () => TenantDeps) =>
  httpRoute("list-forwarder-clients", { params: { id: forwarderIdFromPath } }).handle(async ({ params }) => ({
    status: 200,
    body: { Items: (await listForwarderClients(deps(), params.id)).map(clientBody) },
  }));

export const handler = make(() => ({ tenants: tenants() }));
