/**
 * Deletes one of the carrier's clients: out of the registry, then its record. Rotation: create a new
 * client, switch over, then delete the old one. Another tenant's client is 404.
 */
import { type ClientView, carrierRef, deleteTenantClient, type TenantClientDeps } from "./shared/tenants.ts";

export async function deleteCarrierClient(
  deps: TenantClientDeps,
  input: { prefix: string; clientId: string },
): Promise<ClientView> {
  return deleteTenantClient(deps, { ref: carrierRef(input.prefix), clientId: input.clientId });
}
