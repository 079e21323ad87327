/** The carrier's clients, oldest first, without secrets. */
import { type CarrierTenantDeps, type ClientView, carrierRef, listTenantClients } from "./shared/tenants.ts";

export async function listCarrierClients(deps: CarrierTenantDeps, prefix: string): Promise<ClientView[]> {
  return listTenantClients(deps, carrierRef(prefix));
}
