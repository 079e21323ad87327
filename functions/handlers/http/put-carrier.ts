import { dynamoCarrierRepository } from "../../adapters/carrier-repository.ts";
import { nowIso } from "../../adapters/clock.ts";
import { type CarrierPlanningSettings, carrierToApi } from "../../core/carriers.ts";
import type { PlanningOffsets } from "../../core/route-map/planning-config.ts";
import { putCarrier } from "../../core/use-cases/put-carrier.ts";
import { httpHandler } from "./kit.ts";
import { badRequest } from "./problem.ts";
import { type CarrierSettings as CarrierSettingsBody, CarrierSettingsSchema } from "./schemas.ts";

const carriers = dynamoCarrierRepository();

/** API casing (FwbBeforeFirstStd) to the planner's (fwbBeforeFirstStd); absent offsets keep defaults. */
function planningOf(planning: CarrierSettingsBody["Planning"]): CarrierPlanningSettings | null {
  if (!planning) return null;
  const offsets: Partial<PlanningOffsets> = {};
  for (const [name, minutes] of Object.entries(planning.Offsets ?? {})) {
    if (minutes !== undefined)
      offsets[`${name[0]?.toLowerCase()}${name.slice(1)}` as keyof PlanningOffsets] = minutes;
  }
  return {
    offsets,
    roadFeederFlightNumbers: (planning.RoadFeederFlightNumbers ?? []).map((rule) => ({
      carrierCode: rule.CarrierCode ?? null,
      pattern: rule.Pattern,
    })),
  };
}

export const handler = httpHandler(
  "put-carrier",
  { body: CarrierSettingsSchema },
  async ({ body, params }) => {
    const prefix = params.prefix ?? "";
    if (!/^\d{3}$/.test(prefix))
      throw badRequest("The carrier prefix must be 3 digits.", [
        { field: "prefix", message: "must be 3 digits" },
      ]);
    const carrier = await putCarrier(
      { carriers },
      {
        prefix,
        settings: {
          name: body.Name,
          qualityProgram: body.QualityProgram,
          xtd: body.Xtd,
          planning: planningOf(body.Planning),
        },
        now: nowIso(),
      },
    );
    return { status: 200, body: carrierToApi(carrier) };
  },
);
