/**
 * Offboards a carrier's access: each of its clients leaves the registry, then its tenant records are
 * deleted. Its settings (PUT /support/carriers/{prefix}) stay: participation is not access. 404 without
 * settings.
 */
import { type CarrierTenantDeps, carrierRef, deleteTenant, type TenantClientDeps } from "./shared/tenants.ts";

export async function deleteCarrier(
  deps: TenantClientDeps & CarrierTenantDeps,
  prefix: string,
): Promise<{ deletedClients: string[] }> {
  return { deletedClients: await deleteTenant(deps, carrierRef(prefix)) };
}
