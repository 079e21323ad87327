/** A carrier's participation in the trigger programs (spec "What the service does", 6). */
export interface CarrierSettings {
  airlinePrefix: string;
  name: string;
  /** On the quality-program participating carriers list. */
  qualityProgram: boolean;
  /** On the XTD participating carriers list. */
  xtd: boolean;
  updatedAt: string;
}

/** Spec-style casing for the support API. */
export function carrierToApi(carrier: CarrierSettings) {
  return {
    AirlinePrefix: carrier.airlinePrefix,
    Name: carrier.name,
    QualityProgram: carrier.qualityProgram,
    Xtd: carrier.xtd,
  };
}
