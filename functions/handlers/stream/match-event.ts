/**
 * DynamoDB stream of the RouteMaps table, filtered to outbox inserts (lib/event-functions.ts): each
 * domain event becomes one delivery record and one SQS job per matching rule/webhook. Partial batch
 * failures name the failed record's SequenceNumber, so a retry resumes there and nothing is lost; the
 * use case is idempotent, so records after it that already succeeded are harmless to repeat.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { Logger } from "@aws-lambda-powertools/logger";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { nowIso } from "../../adapters/clock.ts";
import { sqsDeliveryJobQueue } from "../../adapters/delivery-job-queue.ts";
import { dynamoDeliveryRepository } from "../../adapters/delivery-repository.ts";
import { dynamoSubscriptionRepository } from "../../adapters/subscription-repository.ts";
import { OUTBOX_KIND } from "../../contracts/resources.ts";
import type { MatchableEvent } from "../../core/notifications/index.ts";
import { type MatchEventDeps, matchEvent } from "../../core/use-cases/match-event.ts";

const logger = new Logger({ serviceName: "route-map-tracker" });

/** The outbox event of a stream record, or null for anything else (a poison record is not retried). */
export function outboxEventOf(record: DynamoDBRecord): MatchableEvent | null {
  const image = record.dynamodb?.NewImage;
  if (!image) return null;
  // aws-lambda's and the SDK's AttributeValue types describe the same JSON.
  const item = unmarshall(image as Record<string, AttributeValue>);
  const event = item.event as Partial<MatchableEvent> | undefined;
  if (item.kind !== OUTBOX_KIND || typeof event?.eventId !== "string" || !event.awb || !event.audience)
    return null;
  return event as MatchableEvent;
}

export function createMatchEventsHandler(deps: () => MatchEventDeps, now: () => string = nowIso) {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const matchRecord = async (record: DynamoDBRecord) => {
    const event = outboxEventOf(record);
    if (!event) {
      // Retrying cannot fix a malformed item, and a failed stream record holds back its whole shard.
      logger.error("outbox record without a readable event: skipped", { keys: record.dynamodb?.Keys });
      return;
    }
    const result = await matchEvent(deps(), { event, now: now() });
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
}

let deps: MatchEventDeps | undefined;
export const handler = createMatchEventsHandler(() => {
  deps ??= {
    subscriptions: dynamoSubscriptionRepository(),
    deliveries: dynamoDeliveryRepository(),
    queue: sqsDeliveryJobQueue(),
  };
  return deps;
});
