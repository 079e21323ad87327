/** Support stores a participating carrier's settings (whole record, stamped with `now`). */
import type { CarrierSettings } from "../carriers.ts";
import type { CarrierRepository } from "../ports/carriers.ts";

export interface PutCarrierDeps {
  carriers: Pick<CarrierRepository, "put">;
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
  return carrier;
}
