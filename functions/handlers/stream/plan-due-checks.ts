/**
 * RouteMaps stream, filtered to RMP outbox inserts (lib/event-functions.ts): after every plan and
 * replan, (re)schedule the route map's due checks from its current state. Driven by the outbox, not
 * the ingest request, so scheduling is at least once (a failed record is retried by the stream, and
 * partial batch failures resume at it); upserts by name make repeats harmless.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { eventBridgeCheckScheduler } from "../../adapters/check-scheduler.ts";
import { nowIso } from "../../adapters/clock.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import type { AwbId } from "../../core/carrier-messages/types.ts";
import { type PlanDueChecksDeps, planDueChecks } from "../../core/use-cases/plan-due-checks.ts";

const logger = new Logger({ serviceName: "route-map-tracker" });

/** The AWB of an RMP outbox item (stream image: event.M.awb.M.prefix.S ...), else null. */
export function rmpAwbOf(record: DynamoDBRecord): AwbId | null {
  const event = record.dynamodb?.NewImage?.event?.M;
  const awb = event?.awb?.M;
  const prefix = awb?.prefix?.S;
  const serial = awb?.serial?.S;
  if (event?.name?.S !== "RMP" || !prefix || !serial) return null;
  return { prefix, serial };
}

export function createScheduleChecksHandler(deps: () => PlanDueChecksDeps, now: () => string = nowIso) {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const planRecord = async (record: DynamoDBRecord) => {
    const awb = rmpAwbOf(record);
    if (!awb) {
      // Retrying cannot fix it, and a failed stream record holds back its shard.
      logger.warn("record is not an RMP outbox item: skipped", { keys: record.dynamodb?.Keys });
      return;
    }
    const result = await planDueChecks(deps(), { awb, now: now() });
    logger.info("due checks planned", { awb: `${awb.prefix}${awb.serial}`, ...result });
  };
  return (event: DynamoDBStreamEvent, context: Context) =>
    processPartialResponse(event, planRecord, processor, { context });
}

let deps: PlanDueChecksDeps | undefined;
export const handler = createScheduleChecksHandler(() => {
  deps ??= { routeMaps: dynamoRouteMapRepository(), checks: eventBridgeCheckScheduler() };
  return deps;
});
