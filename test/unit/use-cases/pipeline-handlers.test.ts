/**
 * The match-events stream handler with in-memory ports: outbox records are unmarshalled, a poison
 * record is skipped (it would block its shard forever), a failing record is reported by its
 * SequenceNumber so the stream resumes there.
 */
import { marshall } from "@aws-sdk/util-dynamodb";
import type { Context, DynamoDBRecord } from "aws-lambda";
import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../../../functions/core/events.ts";
import { createMatchEventsHandler, outboxEventOf } from "../../../functions/handlers/stream/match-events.ts";
import {
  emailRule,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingQueue,
} from "../../adapters/pipeline/fakes.ts";
import { makeEvent, OWNER } from "../notifications/helpers.ts";

const context = {
  functionName: "match-events",
  getRemainingTimeInMillis: () => 30_000,
} as unknown as Context;

function streamRecord(sequence: string, item: Record<string, unknown>): DynamoDBRecord {
  return {
    eventName: "INSERT",
    eventSource: "aws:dynamodb",
    dynamodb: {
      SequenceNumber: sequence,
      // util-dynamodb's AttributeValue and aws-lambda's describe the same JSON under different types.
      Keys: marshall({ pk: item.pk, sk: item.sk }) as never,
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
    },
  };
}

const outbox = (event: DomainEvent) => ({
  pk: `AWB#${event.awb.prefix}${event.awb.serial}`,
  sk: `EVT#${event.eventId}`,
  kind: "event",
  event,
  expiresAt: 1_900_000_000,
});

describe("match-events handler", () => {
  it("reads the DomainEvent of an outbox insert, and nothing from other items", () => {
    const event = makeEvent();
    expect(outboxEventOf(streamRecord("1", outbox(event)))).toEqual(event);
    expect(outboxEventOf(streamRecord("2", { pk: "AWB#1", sk: "CURRENT", version: 3 }))).toBeNull();
    expect(
      outboxEventOf(streamRecord("3", { pk: "AWB#1", sk: "EVT#x", kind: "event", event: { x: 1 } })),
    ).toBeNull();
  });

  it("reports only the failed record's SequenceNumber; a poison record is skipped, not retried", async () => {
    const subscriptions = new FakeSubscriptions();
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    const deliveries = new FakeDeliveries();
    const queue = new RecordingQueue();
    const failing = makeEvent({ eventId: "evt-fails" });
    const create = deliveries.create.bind(deliveries);
    deliveries.create = async (record) => {
      if (record.eventId === "evt-fails") throw new Error("DynamoDB throttled");
      return create(record);
    };
    const handler = createMatchEventsHandler(
      () => ({ subscriptions, deliveries, queue }),
      () => "2026-03-14T12:42:00.000Z",
    );

    const response = await handler(
      {
        Records: [
          streamRecord("100", outbox(makeEvent({ eventId: "evt-a" }))),
          streamRecord("101", outbox(failing)),
          streamRecord("102", { pk: "AWB#1", sk: "EVT#bad", kind: "event", event: "garbage" }),
          streamRecord("103", outbox(makeEvent({ eventId: "evt-b" }))),
        ],
      },
      context,
    );

    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: "101" }] });
    expect(queue.jobs.map((job) => job.deliveryId).sort()).toEqual(["evt-a:rule-1", "evt-b:rule-1"]);
  });
});
