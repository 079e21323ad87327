/**
 * DELETE /support/carriers/{prefix}: offboard the carrier's access: its clients are deregistered and
 * deleted with its tenant profile (200 with DeletedClients). Its settings stay (404 without them).
 */
import { deleteCarrier } from "../../core/use-cases/delete-carrier.ts";
import type { CarrierTenantDeps, TenantClientDeps } from "../../core/use-cases/shared/tenants.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carriers, clientRegistry, httpPipeline, tenants } from "../../wiring.ts";

export const make = (deps: () => TenantClientDeps & CarrierTenantDeps, pipeline?: Pipeline) =>
  httpRoute("delete-carrier", { params: { prefix: prefixFromPath } }, pipeline).handle(async ({ params }) => {
    const { deletedClients } = await deleteCarrier(deps(), params.prefix);
    return { status: 200, body: { AirlinePrefix: params.prefix, DeletedClients: deletedClients } };
  });

export const handler = make(
  () => ({ tenants: tenants(), clients: clientRegistry(), carriers: carriers() }),
  httpPipeline,
);
