/**
 * Switches a carrier tenant off: none of its clients gets a token (tokens already issued run out
 * within the hour). Idempotent; 404 without carrier settings.
 */
import {
  type CarrierTenantDeps,
  type CarrierView,
  carrierRef,
  carrierView,
  setTenantEnabled,
} from "./shared/tenants.ts";

export async function disableCarrier(
  deps: CarrierTenantDeps,
  input: { prefix: string; now: string },
): Promise<CarrierView> {
  const tenant = await setTenantEnabled(deps, {
    ref: carrierRef(input.prefix),
    enabled: false,
    now: input.now,
  });
  return carrierView(deps, tenant);
}
