/**
 * Switches a forwarder off: none of its clients gets a token (tokens already issued run out within
 * the hour). Idempotent.
 */
import type { ForwarderTenant } from "../tenants/tenants.ts";
import { asForwarder, forwarderRef, setTenantEnabled, type TenantDeps } from "./shared/tenants.ts";

export async function disableForwarder(
  deps: TenantDeps,
  input: { forwarderId: string; now: string },
): Promise<ForwarderTenant> {
  const ref = forwarderRef(input.forwarderId);
  return asForwarder(await setTenantEnabled(deps, { ref, enabled: false, now: input.now }));
}
