/** POST /carrier/messages: a carrier reports Cargo-IMP, XFSU or JSON messages for its own AWBs. */
import { jitteredBackoff } from "../../adapters/backoff.ts";
import { cachedCarrierDirectory, dynamoCarrierRepository } from "../../adapters/carrier-repository.ts";
import { nowIso } from "../../adapters/clock.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import { IngestInterruptedError } from "../../core/errors.ts";
import { ingestCarrierMessage } from "../../core/use-cases/ingest-carrier-message.ts";
import { httpHandler, logger } from "./kit.ts";
import { appliedBody, asCarrier, mapped } from "./route-map-problems.ts";

const deps = {
  routeMaps: dynamoRouteMapRepository(),
  carriers: cachedCarrierDirectory(dynamoCarrierRepository()),
  backoff: jitteredBackoff,
};

// No body schema: the parsers read the raw body themselves so that every error names its line.
export const handler = httpHandler(
  "ingest-carrier-message",
  { rawBody: true },
  async ({ identity, rawBody, contentType }) => {
    const carrier = asCarrier(identity);
    const applied = await mapped(async () => {
      try {
        return await ingestCarrierMessage(deps, {
          carrierPrefix: carrier.carrierPrefix,
          contentType,
          body: rawBody,
          now: nowIso(),
        });
      } catch (error) {
        // Answered with what was applied, so the kit does not log it: log the cause here.
        if (error instanceof IngestInterruptedError) {
          logger.error("carrier messages partly applied", {
            carrier: carrier.carrierPrefix,
            applied: error.applied.length,
            failedMessage: error.failedMessage,
            error: error.cause instanceof Error ? error.cause : String(error.cause),
          });
        }
        throw error;
      }
    });
    logger.info("carrier messages applied", {
      carrier: carrier.carrierPrefix,
      messages: applied.length,
      changed: applied.filter((a) => a.changed).length,
    });
    return { status: 200, body: { Applied: appliedBody(applied) } };
  },
);
