/** The forwarder's clients, oldest first, without secrets. */
import { type ClientView, forwarderRef, listTenantClients, type TenantDeps } from "./shared/tenants.ts";

export async function listForwarderClients(deps: TenantDeps, forwarderId: string): Promise<ClientView[]> {
  return listTenantClients(deps, forwarderRef(forwarderId));
}
