import { dynamoCarrierRepository } from "../../adapters/carrier-repository.ts";
import { carrierToApi } from "../../core/carriers.ts";
import { httpHandler } from "./kit.ts";
import { badRequest, notFound } from "./problem.ts";

const carriers = dynamoCarrierRepository();

export const handler = httpHandler("get-carrier", {}, async ({ params }) => {
  const prefix = params.prefix ?? "";
  if (!/^\d{3}$/.test(prefix))
    throw badRequest("The carrier prefix must be 3 digits.", [
      { field: "prefix", message: "must be 3 digits" },
    ]);
  const carrier = await carriers.get(prefix);
  if (!carrier) throw notFound(`No settings for carrier ${prefix}.`);
  return { status: 200, body: carrierToApi(carrier) };
});
