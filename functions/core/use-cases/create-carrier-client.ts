/**
 * A new machine client of the carrier (OAuth 2.0 client credentials), its secret shown once. The carrier
 * needs its settings (404 otherwise); its tenant profile is created, enabled, with the first client.
 */
import {
  type CarrierTenantDeps,
  type CreatedClient,
  carrierRef,
  createTenantClient,
  type TenantClientDeps,
} from "./shared/tenants.ts";

export async function createCarrierClient(
  deps: TenantClientDeps & CarrierTenantDeps,
  input: { prefix: string; name: string | null; now: string },
): Promise<CreatedClient> {
  return createTenantClient(deps, { ref: carrierRef(input.prefix), name: input.name, now: input.now });
}
