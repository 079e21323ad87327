/** GET /onerecord/logistics-objects/{id}/logistics-events/{eventId}: one LogisticsEvent. */
import { nowIso } from "../../adapters/clock.ts";
import { getLogisticsEvent, type ReadOneRecordDeps } from "../../core/use-cases/read-one-record.ts";
import { answer, oneRecordLinks } from "../../http/one-record.ts";
import { eventIdFromPath, objectIdFromPath } from "../../http/one-record-params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, routeMaps } from "../../wiring.ts";

export const make = (deps: () => ReadOneRecordDeps, pipeline?: Pipeline) =>
  httpRoute(
    "one-record-get-event",
    { params: { id: objectIdFromPath, eventId: eventIdFromPath } },
    pipeline,
  ).handle(async ({ identity, params, baseUrl }) =>
    answer(
      await getLogisticsEvent(deps(), {
        id: params.id,
        eventId: params.eventId,
        caller: identity,
        links: oneRecordLinks(baseUrl),
        now: nowIso(),
      }),
    ),
  );

export const handler = make(() => ({ routeMaps: routeMaps() }), httpPipeline);
