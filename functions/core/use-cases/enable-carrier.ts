/** Switches a carrier tenant on again: its enabled clients get tokens. Idempotent; 404 without settings. */
import {
  type CarrierTenantDeps,
  type CarrierView,
  carrierRef,
  carrierView,
  setTenantEnabled,
} from "./shared/tenants.ts";

export async function enableCarrier(
  deps: CarrierTenantDeps,
  input: { prefix: string; now: string },
): Promise<CarrierView> {
  const tenant = await setTenantEnabled(deps, {
    ref: carrierRef(input.prefix),
    enabled: true,
    now: input.now,
  });
  return carrierView(deps, tenant);
}
