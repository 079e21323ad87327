/**
 * RouteMaps stream, filtered to RMP outbox inserts (functions/contracts/event-functions.ts): after
 * every plan and replan, (re)schedule the route map's due checks from its current state. Driven by
 * the outbox, not the ingest request, so scheduling is at least once (a failed record is retried by
 * the stream, and partial batch failures resume at it); upserts by name make repeats harmless.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { outboxEventOf } from "../../adapters/outbox-stream.ts";
import { traced } from "../../adapters/tracer.ts";
import type { AwbId } from "../../core/carrier-messages/types.ts";
import { type PlanDueChecksDeps, planDueChecks } from "../../core/use-cases/plan-due-checks.ts";
import { checkScheduler, routeMaps } from "../../wiring.ts";

/** The AWB of an RMP outbox event (a plan or replan), else null. */
export function rmpAwbOf(record: DynamoDBRecord): AwbId | null {
  const event = outboxEventOf(record);
  return event?.name === "RMP" ? event.awb : null;
}

export const make = (deps: () => PlanDueChecksDeps, { now = nowIso }: { now?: () => string } = {}) => {
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
};

export const handler = traced(make(() => ({ routeMaps: routeMaps(), checks: checkScheduler() })));
