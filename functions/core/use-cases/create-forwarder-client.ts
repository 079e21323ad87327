/**
 * A new machine client of the forwarder (OAuth 2.0 client credentials), its secret shown once. 404 for a
 * forwarder never onboarded; allowed for a disabled one (no token until it is enabled).
 */
import {
  type CreatedClient,
  createTenantClient,
  forwarderRef,
  type TenantClientDeps,
} from "./shared/tenants.ts";

export async function createForwarderClient(
  deps: TenantClientDeps,
  input: { forwarderId: string; name: string | null; now: string },
): Promise<CreatedClient> {
  return createTenantClient(deps, { ref: forwarderRef(input.forwarderId), name: input.name, now: input.now });
}
