/** GET /support/carriers/{prefix}: a carrier's participation (404 when support never stored one). */
import { carrierToApi } from "../../core/carriers.ts";
import { type GetCarrierDeps, getCarrier } from "../../core/use-cases/get-carrier.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carriers, httpPipeline } from "../../wiring.ts";

export const make = (deps: () => GetCarrierDeps, pipeline?: Pipeline) =>
  httpRoute("get-carrier", { params: { prefix: prefixFromPath } }, pipeline).handle(async ({ params }) => ({
    status: 200,
    body: carrierToApi(await getCarrier(deps(), params.prefix)),
  }));

export const handler = make(() => ({ carriers: carriers() }), httpPipeline);
