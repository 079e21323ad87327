/**
 * Per-carrier planning configuration: milestone offsets (DESIGN.md section 4, Planned times) and the
 * rule that recognises road-feeder (truck) legs by flight number (section 9, Road-feeder legs).
 */
import type { FlightLeg } from "../carrier-messages/types.ts";

/** Minutes relative to the schedule; "before" offsets are subtracted, "after" offsets added. */
export interface PlanningOffsets {
  fwbBeforeFirstStd: number;
  latBeforeFirstStd: number;
  rcsBeforeFirstStd: number;
  depAfterStd: number;
  arrAfterSta: number;
  arrAfterStaRoadFeeder: number;
  rcfAfterSta: number;
  rcfAfterStaRoadFeeder: number;
  nfdAfterLastSta: number;
  awdAfterLastSta: number;
  dlvAfterLastSta: number;
}

/**
 * A leg is a road feeder when the message flags it (JSON/XFSU `roadFeeder`) or, when the message is
 * silent, when its flight number matches one of these rules. `pattern` is a regular expression
 * matched against the whole flight number (implicitly anchored, e.g. "9\\d{3}" for LH 9000-9999
 * trucks); `carrierCode` restricts the rule to one two-character code, null = any code. No rule, no
 * road feeder: never guessed silently.
 */
export interface RoadFeederRule {
  carrierCode: string | null;
  pattern: string;
}

export interface CarrierPlanningConfig {
  offsets: PlanningOffsets;
  roadFeederFlightNumbers: RoadFeederRule[];
}

const DEFAULT_PLANNING_OFFSETS: PlanningOffsets = {
  fwbBeforeFirstStd: 6 * 60 + 5,
  latBeforeFirstStd: 6 * 60,
  rcsBeforeFirstStd: 2 * 60,
  depAfterStd: 60,
  arrAfterSta: 60,
  arrAfterStaRoadFeeder: 40,
  rcfAfterSta: 5 * 60,
  rcfAfterStaRoadFeeder: 45,
  nfdAfterLastSta: 6 * 60,
  awdAfterLastSta: 8 * 60,
  dlvAfterLastSta: 72 * 60,
};

export const DEFAULT_PLANNING_CONFIG: CarrierPlanningConfig = {
  offsets: DEFAULT_PLANNING_OFFSETS,
  roadFeederFlightNumbers: [],
};

/** The message's flag wins; otherwise the carrier's flight-number rules decide. */
export function isRoadFeederLeg(leg: FlightLeg, config: CarrierPlanningConfig): boolean {
  if (leg.roadFeeder !== null) return leg.roadFeeder;
  return config.roadFeederFlightNumbers.some(
    (rule) =>
      (rule.carrierCode === null || rule.carrierCode.toUpperCase() === leg.carrierCode.toUpperCase()) &&
      new RegExp(`^(?:${rule.pattern})$`).test(leg.flightNumber),
  );
}
