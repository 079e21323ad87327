/** POST /onerecord/logistics-objects/{id}/logistics-events: a carrier's ONE Record client adds an event. */
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { emfMetrics, ingestErrorPoints, ingestPoints, type MetricsRecorder } from "../../adapters/metrics.ts";
import type { IngestCarrierMessageDeps } from "../../core/use-cases/ingest-carrier-message.ts";
import { postLogisticsEvent } from "../../core/use-cases/post-one-record-event.ts";
import { countingErrors } from "../../http/error-metrics.ts";
import { oneRecordLinks, postAnswer } from "../../http/one-record.ts";
import { objectIdFromPath } from "../../http/one-record-params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import * as wired from "../../wiring.ts";

// No body schema: the ONE Record reader reads the raw body, so every error names its line and path.
export const make = (
  deps: () => IngestCarrierMessageDeps,
  metrics: MetricsRecorder = emfMetrics,
  pipeline?: Pipeline,
) =>
  countingErrors(
    httpRoute("one-record-post-event", { params: { id: objectIdFromPath }, rawBody: true }, pipeline).handle(
      async ({ identity, params, rawBody, contentType, baseUrl, timeLeftMs }) => {
        const answer = await postLogisticsEvent(deps(), {
          id: params.id,
          carrierPrefix: identity.carrierPrefix,
          contentType,
          body: rawBody,
          links: oneRecordLinks(baseUrl),
          now: nowIso(),
          timeLeftMs,
        });
        if (answer.kind === "created" || answer.kind === "accepted") {
          const changed = answer.applied.filter((a) => a.changed).length;
          logger.info("one record event posted", { carrier: identity.carrierPrefix, changed });
          metrics(ingestPoints(answer.applied));
        }
        return postAnswer(answer);
      },
    ),
    (errorClass, answer) => metrics(ingestErrorPoints(errorClass, answer.body)),
  );

const deps = () => ({
  routeMaps: wired.routeMaps(),
  carriers: wired.carrierDirectory(),
  backoff: wired.conflictBackoff(),
  rawMessages: wired.rawMessages(),
});
export const handler = make(deps, emfMetrics, wired.httpPipeline);
