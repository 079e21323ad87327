/** GET /ffw/service/routemap/eta/accuracy: scored predictions beside the plan (own shipments; support all). */
import { nowIso } from "../../adapters/clock.ts";
import type { PredictionStore } from "../../core/ports/predictions.ts";
import { getEtaAccuracy } from "../../core/use-cases/route-map-eta.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { PREDICTION_ROUTES } from "../../http/routes/predictions.ts";
import { httpPipeline, predictionStore } from "../../wiring.ts";

const api = PREDICTION_ROUTES["get-eta-accuracy"];

export const make = (deps: () => { predictions: Pick<PredictionStore, "scored"> }, pipeline?: Pipeline) =>
  httpRoute("get-eta-accuracy", { query: api.query }, pipeline).handle(async ({ identity, query }) => ({
    status: 200,
    body: await getEtaAccuracy(deps(), { reader: identity, lane: query.lane, now: nowIso() }),
  }));

export const handler = make(() => ({ predictions: predictionStore() }), httpPipeline);
