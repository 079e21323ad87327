/** POST /carrier/messages: a carrier reports Cargo-IMP, XFSU or JSON messages for its own AWBs. */
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import {
  type IngestCarrierMessageDeps,
  ingestCarrierMessage,
} from "../../core/use-cases/ingest-carrier-message.ts";
import { httpRoute } from "../../http/pipeline.ts";
import { appliedBody } from "../../http/problems.ts";
import { carrierDirectory, conflictBackoff, routeMaps } from "../../wiring.ts";

// No body schema: the parsers read the raw body themselves so that every error names its line. A body
// stored only in part is answered (and logged) by the problem-responses middleware.
export const make = (deps: () => IngestCarrierMessageDeps) =>
  httpRoute("ingest-carrier-message", { rawBody: true }).handle(
    async ({ identity, rawBody, contentType, timeLeftMs }) => {
      const carrier = identity.carrierPrefix;
      const applied = await ingestCarrierMessage(deps(), {
        carrierPrefix: carrier,
        contentType,
        body: rawBody,
        now: nowIso(),
        // Answer before the Lambda deadline with what was stored (409 + Retry-After for the rest).
        timeLeftMs,
      });
      const changed = applied.filter((a) => a.changed).length;
      logger.info("carrier messages applied", { carrier, messages: applied.length, changed });
      return { status: 200, body: { Applied: appliedBody(applied) } };
    },
  );

export const handler = make(() => ({
  routeMaps: routeMaps(),
  carriers: carrierDirectory(),
  backoff: conflictBackoff(),
}));
