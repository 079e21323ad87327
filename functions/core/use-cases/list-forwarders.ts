/** The onboarded forwarders, in ForwarderIdentifier order, a page at a time (opaque cursor). */
import type { TenantPage } from "../ports/tenants.ts";
import type { ForwarderTenant } from "../tenants/tenants.ts";
import type { TenantDeps } from "./shared/tenants.ts";

export async function listForwarders(
  deps: TenantDeps,
  page: { limit: number; cursor: string | null },
): Promise<TenantPage<ForwarderTenant>> {
  const listed = await deps.tenants.listTenants("forwarder", page);
  return {
    items: listed.items.filter((tenant): tenant is ForwarderTenant => tenant.kind === "forwarder"),
    next: listed.next,
  };
}
