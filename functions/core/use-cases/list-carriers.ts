/**
 * The carriers onboarded as tenants (by their settings or first client), in prefix order, each with its
 * settings and whether it is enabled; a page at a time (opaque cursor).
 */
import type { TenantPage } from "../ports/tenants.ts";
import { type CarrierTenantDeps, type CarrierView, carrierView } from "./shared/tenants.ts";

export async function listCarriers(
  deps: CarrierTenantDeps,
  page: { limit: number; cursor: string | null },
): Promise<TenantPage<CarrierView>> {
  const listed = await deps.tenants.listTenants("carrier", page);
  const views = await Promise.all(listed.items.map((tenant) => carrierView(deps, tenant)));
  return { items: views, next: listed.next };
}
