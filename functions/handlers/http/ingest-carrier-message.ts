/** POST /carrier/messages: a carrier reports Cargo-IMP, XFSU or JSON messages for its own AWBs. */
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { emfMetrics, ingestErrorPoints, ingestPoints, type MetricsRecorder } from "../../adapters/metrics.ts";
import type { InboundMailLog } from "../../core/ports/inbound-mail.ts";
import {
  type IngestCarrierMessageDeps,
  ingestPostedCarrierMessage,
} from "../../core/use-cases/ingest-carrier-message.ts";
import { countingErrors } from "../../http/error-metrics.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { appliedBody } from "../../http/problems.ts";
import * as wired from "../../wiring.ts";

// No body schema: the parsers read the raw body, so every error names its line (partly stored: 409);
// a refused body is recorded in the carrier's inbound log for support.
export const make = (
  deps: () => IngestCarrierMessageDeps & { refusals?: InboundMailLog },
  metrics: MetricsRecorder = emfMetrics,
  pipeline?: Pipeline,
) =>
  countingErrors(
    httpRoute("ingest-carrier-message", { rawBody: true }, pipeline).handle(
      async ({ identity, rawBody, contentType, timeLeftMs, requestId }) => {
        const applied = await ingestPostedCarrierMessage(deps(), {
          requestId,
          carrierPrefix: identity.carrierPrefix,
          contentType,
          body: rawBody,
          now: nowIso(),
          // Answer before the Lambda deadline with what was stored (409 + Retry-After for the rest).
          timeLeftMs,
        });
        const changed = applied.filter((a) => a.changed).length;
        const messages = applied.length;
        logger.info("carrier messages applied", { carrier: identity.carrierPrefix, messages, changed });
        metrics(ingestPoints(applied));
        return { status: 200, body: { Applied: appliedBody(applied) } };
      },
    ),
    (errorClass, answer) => metrics(ingestErrorPoints(errorClass, answer.body)),
  );

const deps = () => ({
  routeMaps: wired.routeMaps(),
  carriers: wired.carrierDirectory(),
  backoff: wired.conflictBackoff(),
  rawMessages: wired.rawMessages(),
  changeObserver: wired.routeMapChangeObserver(),
  refusals: wired.inboundMailLog(),
});
export const handler = make(deps, emfMetrics, wired.httpPipeline);
