/** GET /onerecord/logistics-objects/{id}/logistics-events: the object's events as an api:Collection. */
import { nowIso } from "../../adapters/clock.ts";
import { listLogisticsEvents, type ReadOneRecordDeps } from "../../core/use-cases/read-one-record.ts";
import { answer, oneRecordLinks } from "../../http/one-record.ts";
import { eventFilter, objectIdFromPath } from "../../http/one-record-params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ONE_RECORD_ROUTES } from "../../http/routes/one-record.ts";
import { httpPipeline, routeMaps } from "../../wiring.ts";

const api = ONE_RECORD_ROUTES["one-record-list-events"];

export const make = (deps: () => ReadOneRecordDeps, pipeline?: Pipeline) =>
  httpRoute(
    "one-record-list-events",
    { params: { id: objectIdFromPath }, query: api.query },
    pipeline,
  ).handle(async ({ identity, params, query, baseUrl }) =>
    answer(
      await listLogisticsEvents(deps(), {
        id: params.id,
        caller: identity,
        links: oneRecordLinks(baseUrl),
        now: nowIso(),
        filter: eventFilter(query),
      }),
    ),
  );

export const handler = make(() => ({ routeMaps: routeMaps() }), httpPipeline);
