/**
 * Support stores a participating carrier's settings (whole record, stamped with `now`). The carrier is
 * then a tenant: its profile (enabled) is created with its first settings, so GET /support/carriers
 * lists it and its machine clients can be created.
 */
import type { CarrierSettings } from "../carriers.ts";
import type { CarrierRepository } from "../ports/carriers.ts";
import type { TenantRepository } from "../ports/tenants.ts";
import { ensureCarrierTenant } from "./shared/tenants.ts";

export interface PutCarrierDeps {
  carriers: CarrierRepository;
  tenants: TenantRepository;
}

export type CarrierSettingsInput = Omit<CarrierSettings, "airlinePrefix" | "updatedAt">;

export async function putCarrier(
  deps: PutCarrierDeps,
  input: { prefix: string; settings: CarrierSettingsInput; now: string },
): Promise<CarrierSettings> {
  const { prefix, settings, now } = input;
  const carrier: CarrierSettings = {
    airlinePrefix: prefix,
    name: settings.name,
    qualityProgram: settings.qualityProgram,
    xtd: settings.xtd,
    updatedAt: now,
    planning: settings.planning,
  };
  await deps.carriers.put(carrier);
  await ensureCarrierTenant(deps, prefix, now);
  return carrier;
}
