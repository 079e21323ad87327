/** Support's carrier settings: the PUT body, the answer, and the planning offsets within them. */
import * as v from "valibot";
import { plainObject } from "./plain-object.ts";

export const PrefixSchema = v.pipe(v.string(), v.regex(/^\d{3}$/, "must be 3 digits"));

const OffsetMinutes = v.pipe(
  v.number(),
  v.integer("must be whole minutes"),
  v.minValue(0, "must be 0 or more minutes"),
  v.maxValue(7 * 24 * 60, "at most 10080 minutes (7 days)"),
);

/** Planning offsets in minutes (DESIGN.md section 4); an absent one keeps the default. */
export const PlanningOffsetsSchema = plainObject(
  v.pipe(
    v.object({
      FwbBeforeFirstStd: v.optional(OffsetMinutes),
      LatBeforeFirstStd: v.optional(OffsetMinutes),
      RcsBeforeFirstStd: v.optional(OffsetMinutes),
      DepAfterStd: v.optional(OffsetMinutes),
      ArrAfterSta: v.optional(OffsetMinutes),
      ArrAfterStaRoadFeeder: v.optional(OffsetMinutes),
      RcfAfterSta: v.optional(OffsetMinutes),
      RcfAfterStaRoadFeeder: v.optional(OffsetMinutes),
      NfdAfterLastSta: v.optional(OffsetMinutes),
      AwdAfterLastSta: v.optional(OffsetMinutes),
      DlvAfterLastSta: v.optional(OffsetMinutes),
    }),
    v.description(
      "Minutes before the first STD (Fwb/Lat/Rcs) or after STD/STA; defaults 365, 360, 120, 60, 60, 40, 300, 45, 360, 480, 4320.",
    ),
  ),
);

function compiles(pattern: string): boolean {
  try {
    new RegExp(`^(?:${pattern})$`);
    return true;
  } catch {
    return false;
  }
}

export const RoadFeederRuleSchema = v.pipe(
  v.object({
    CarrierCode: v.optional(
      v.nullable(
        v.pipe(v.string(), v.regex(/^(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])$/, "must be a 2-character airline code")),
      ),
    ),
    Pattern: v.pipe(
      v.string(),
      v.minLength(1, "must not be empty"),
      v.maxLength(40, "at most 40 characters"),
      v.check(compiles, "must be a valid regular expression"),
    ),
  }),
  v.description(
    'A flight number (whole, e.g. "9\\d{3}") that is a road-feeder truck; CarrierCode null = any.',
  ),
);

export const CarrierPlanningSchema = plainObject(
  v.object({
    Offsets: v.optional(PlanningOffsetsSchema),
    RoadFeederFlightNumbers: v.optional(
      v.pipe(v.array(RoadFeederRuleSchema), v.maxLength(20, "at most 20 rules")),
    ),
  }),
);

export const CarrierSettingsSchema = v.object({
  Name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "must not be empty"),
    v.maxLength(100, "at most 100 characters"),
  ),
  QualityProgram: v.boolean(),
  Xtd: v.boolean(),
  /** Optional per-carrier planning configuration. */
  Planning: v.optional(CarrierPlanningSchema),
});
export type CarrierSettings = v.InferOutput<typeof CarrierSettingsSchema>;

export const CarrierSchema = v.object({
  AirlinePrefix: PrefixSchema,
  Name: v.string(),
  QualityProgram: v.boolean(),
  Xtd: v.boolean(),
  Planning: v.optional(CarrierPlanningSchema),
});
