/** One onboarded forwarder (404 TenantNotFoundError otherwise). */
import type { ForwarderTenant } from "../tenants/tenants.ts";
import { asForwarder, forwarderRef, requireTenant, type TenantDeps } from "./shared/tenants.ts";

export async function getForwarder(deps: TenantDeps, forwarderId: string): Promise<ForwarderTenant> {
  return asForwarder(await requireTenant(deps, forwarderRef(forwarderId)));
}
