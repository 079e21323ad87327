/** POST /onerecord/notifications: fetch and apply what a carrier's ONE Record server announces. */
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { emfMetrics, ingestErrorPoints, ingestPoints, type MetricsRecorder } from "../../adapters/metrics.ts";
import {
  type ReceiveOneRecordNotificationDeps,
  receiveOneRecordNotification,
} from "../../core/use-cases/receive-onerecord-notification.ts";
import { countingErrors } from "../../http/error-metrics.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { oneRecordNotificationBody } from "../../http/schemas/onerecord.ts";
import {
  carrierDirectory,
  carriers,
  conflictBackoff,
  httpPipeline,
  oneRecordPublishers,
  rawMessages,
  routeMapChangeObserver,
  routeMaps,
} from "../../wiring.ts";

export const make = (
  deps: () => ReceiveOneRecordNotificationDeps,
  metrics: MetricsRecorder = emfMetrics,
  pipeline?: Pipeline,
) =>
  countingErrors(
    httpRoute("receive-onerecord-notification", { rawBody: true }, pipeline).handle(
      async ({ identity, rawBody, timeLeftMs }) => {
        const outcome = await receiveOneRecordNotification(deps(), {
          carrierPrefix: identity.carrierPrefix,
          body: rawBody,
          now: nowIso(),
          timeLeftMs,
        });
        const { eventType, fetched, applied } = outcome;
        const changed = applied.filter((a) => a.changed).length;
        const carrier = identity.carrierPrefix;
        logger.info("one record notification", { carrier, eventType, fetched: fetched.length, changed });
        metrics(ingestPoints(applied));
        return { status: 200, body: oneRecordNotificationBody(outcome) };
      },
    ),
    (errorClass, answer) => metrics(ingestErrorPoints(errorClass, answer.body)),
  );

const deps = () => ({
  routeMaps: routeMaps(),
  carriers: carrierDirectory(),
  backoff: conflictBackoff(),
  rawMessages: rawMessages(),
  changeObserver: routeMapChangeObserver(),
});
export const handler = make(
  () => ({
    ...deps(),
    carrierSettings: carriers(),
    publisher: oneRecordPublishers(),
  }),
  emfMetrics,
  httpPipeline,
);
