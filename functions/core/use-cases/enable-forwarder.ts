/** Switches a forwarder on again: its enabled clients get tokens again. Idempotent. */
import type { ForwarderTenant } from "../tenants/tenants.ts";
import { asForwarder, forwarderRef, setTenantEnabled, type TenantDeps } from "./shared/tenants.ts";

export async function enableForwarder(
  deps: TenantDeps,
  input: { forwarderId: string; now: string },
): Promise<ForwarderTenant> {
  const ref = forwarderRef(input.forwarderId);
  return asForwarder(await setTenantEnabled(deps, { ref, enabled: true, now: input.now }));
}
