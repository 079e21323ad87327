import { dynamoCarrierRepository } from "../../adapters/carrier-repository.ts";
import { nowIso } from "../../adapters/clock.ts";
import { carrierToApi } from "../../core/carriers.ts";
import { httpHandler } from "./kit.ts";
import { badRequest } from "./problem.ts";
import { CarrierSettingsSchema } from "./schemas.ts";

const carriers = dynamoCarrierRepository();

export const handler = httpHandler(
  "put-carrier",
  { body: CarrierSettingsSchema },
  async ({ body, params }) => {
    const prefix = params.prefix ?? "";
    if (!/^\d{3}$/.test(prefix))
      throw badRequest("The carrier prefix must be 3 digits.", [
        { field: "prefix", message: "must be 3 digits" },
      ]);
    const carrier = {
      airlinePrefix: prefix,
      name: body.Name,
      qualityProgram: body.QualityProgram,
      xtd: body.Xtd,
      updatedAt: nowIso(),
    };
    await carriers.put(carrier);
    return { status: 200, body: carrierToApi(carrier) };
  },
);
