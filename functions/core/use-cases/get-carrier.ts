/** A participating carrier's settings (else CarrierNotFoundError). */
import type { CarrierSettings } from "../carriers.ts";
import { CarrierNotFoundError } from "../errors.ts";
import type { CarrierDirectory } from "../ports/carriers.ts";

export interface GetCarrierDeps {
  carriers: CarrierDirectory;
}

export async function getCarrier(deps: GetCarrierDeps, prefix: string): Promise<CarrierSettings> {
  const carrier = await deps.carriers.get(prefix);
  if (!carrier) throw new CarrierNotFoundError(prefix);
  return carrier;
}
