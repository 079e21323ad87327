/**
 * DynamoDB stream of the RouteMaps table, filtered to outbox inserts (functions/contracts/
 * event-functions.ts): each domain event becomes one delivery record and one SQS job per matching
 * rule/webhook. Partial batch failures name the failed record's SequenceNumber, so a retry resumes
 * there and nothing is lost; the use case is idempotent, so records after it that already succeeded
 * are harmless to repeat.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { emfMetrics, type MetricsRecorder, matchPoints } from "../../adapters/metrics.ts";
import { outboxEventOf } from "../../adapters/outbox-stream.ts";
import { traced } from "../../adapters/tracer.ts";
import { type MatchEventDeps, matchEvent } from "../../core/use-cases/match-event.ts";
import { deliveries, deliveryQueue, oneRecordSubscriptions, subscriptions } from "../../wiring.ts";

export const make = (
  deps: () => MatchEventDeps,
  { now = nowIso, metrics = emfMetrics }: { now?: () => string; metrics?: MetricsRecorder } = {},
) => {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const matchRecord = async (record: DynamoDBRecord) => {
    const event = outboxEventOf(record);
    if (!event) {
      // Retrying cannot fix a malformed item, and a failed stream record holds back its whole shard.
      logger.error("outbox record without a readable event: skipped", { keys: record.dynamodb?.Keys });
      return;
    }
    const result = await matchEvent(deps(), { event, now: now() });
    metrics(matchPoints(result));
    logger.info("event matched", {
      eventId: event.eventId,
      event: event.name,
      targets: result.targets.length,
      enqueued: result.enqueued.length,
      alreadyHandled: result.alreadyHandled.length,
    });
  };
  return (event: DynamoDBStreamEvent, context: Context) =>
    processPartialResponse(event, matchRecord, processor, { context });
};

export const handler = traced(
  make(() => ({
    subscriptions: subscriptions(),
    oneRecordSubscriptions: oneRecordSubscriptions(),
    deliveries: deliveries(),
    queue: deliveryQueue(),
  })),
);
