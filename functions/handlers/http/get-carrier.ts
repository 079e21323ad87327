import { dynamoCarrierRepository } from "../../adapters/carrier-repository.ts";
import { carrierToApi } from "../../core/carriers.ts";
import { CarrierNotFoundError } from "../../core/errors.ts";
import { getCarrier } from "../../core/use-cases/get-carrier.ts";
import { httpHandler } from "./kit.ts";
import { badRequest, notFound } from "./problem.ts";

const carriers = dynamoCarrierRepository();

export const handler = httpHandler("get-carrier", {}, async ({ params }) => {
  const prefix = params.prefix ?? "";
  if (!/^\d{3}$/.test(prefix))
    throw badRequest("The carrier prefix must be 3 digits.", [
      { field: "prefix", message: "must be 3 digits" },
    ]);
  const carrier = await getCarrier({ carriers }, prefix).catch((error: unknown) => {
    throw error instanceof CarrierNotFoundError ? notFound(error.message) : error;
  });
  return { status: 200, body: carrierToApi(carrier) };
});
