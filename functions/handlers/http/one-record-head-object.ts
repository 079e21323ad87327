/** HEAD /onerecord/logistics-objects/{id}: a logistics object headheaders only. */
import { nowIso } from "../../adapters/clock.ts";
import { getLogisticsObject, type ReadOneRecordDeps } from "../../core/use-cases/read-one-record.ts";
import { answer, oneRecordLinks } from "../../http/one-record.ts";
import { objectIdFromPath, objectQuery } from "../../http/one-record-params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ONE_RECORD_ROUTES } from "../../http/routes/one-record.ts";
import { httpPipeline, routeMaps } from "../../wiring.ts";

const api = ONE_RECORD_ROUTES["one-record-head-object"];

export const make = (deps: () => ReadOneRecordDeps, pipeline?: Pipeline) =>
  httpRoute(
    "one-record-head-object",
    { params: { id: objectIdFromPath }, query: api.query },
    pipeline,
  ).handle(async ({ identity, params, query, baseUrl }) =>
    answer(
      await getLogisticsObject(deps(), {
        id: params.id,
        caller: identity,
        links: oneRecordLinks(baseUrl),
        now: nowIso(),
        ...objectQuery(query),
      }),
      false,
    ),
  );

export const handler = make(() => ({ routeMaps: routeMaps() }), httpPipeline);
