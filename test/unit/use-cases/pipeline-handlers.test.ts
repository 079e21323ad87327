/**
 * The match-event stream handler with in-memory ports: outbox records are unmarshalled, a poison
 * record is skipped (it would block its shard forever), a failing record is reported by its
 * SequenceNumber so the stream resumes there. The deliver queue handler with in-memory ports: a job
 * failing on its last receive parks its delivery instead of dead-lettering it "in progress".
 */

import { IdempotencyAlreadyInProgressError } from "@aws-lambda-powertools/idempotency";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { Context, DynamoDBRecord, SQSRecord } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxEventOf } from "../../../functions/adapters/outbox-stream.ts";
import {
  OUTBOX_ATTRIBUTES,
  OUTBOX_KIND,
  OUTBOX_SORT_KEY_PREFIX,
} from "../../../functions/contracts/outbox.ts";
import { QUEUES } from "../../../functions/contracts/resources.ts";
import type { DomainEvent } from "../../../functions/core/events.ts";
import type { DeliveryJob } from "../../../functions/core/ports/notifications.ts";
import type { DeliverJobDeps } from "../../../functions/core/use-cases/deliver-job.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import { make as makeMatchEvent } from "../../../functions/handlers/stream/match-event.ts";
import {
  answer,
  emailRule,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingEmail,
  RecordingQueue,
  RecordingScheduler,
  ScriptedPoster,
  webhook,
} from "../../adapters/pipeline/fakes.ts";
import { makeEvent, OWNER } from "../notifications/helpers.ts";

const context = {
  functionName: "match-event",
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
  sk: `${OUTBOX_SORT_KEY_PREFIX}${event.eventId}`,
  [OUTBOX_ATTRIBUTES.kind]: OUTBOX_KIND,
  [OUTBOX_ATTRIBUTES.event]: event,
  [OUTBOX_ATTRIBUTES.expiresAt]: 1_900_000_000,
});

describe("match-event handler", () => {
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
    const handler = makeMatchEvent(() => ({ subscriptions, deliveries, queue }), {
      now: () => "2026-03-14T12:42:00.000Z",
    });

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

describe("deliver handler: a job failing on its last receive", () => {
  type DeliverModule = typeof import("../../../functions/handlers/queue/deliver-job.ts");
  let makeDeliverJob: DeliverModule["make"];
  const saved = { ...process.env };

  beforeAll(async () => {
    // Idempotency switched off: these tests need no table (the handler is given a name it never uses).
    Object.assign(process.env, {
      POWERTOOLS_IDEMPOTENCY_DISABLED: "true",
      POWERTOOLS_LOG_LEVEL: "SILENT",
    });
    ({ make: makeDeliverJob } = await import("../../../functions/handlers/queue/deliver-job.ts"));
  });
  afterAll(() => {
    process.env = saved;
  });

  const settings = () => ({ idempotencyTable: "unused", retryScale: 1 });
  const HOOK_URL = "https://hooks.forwarder.example/routemap";

  /** A webhook whose receiver answers 503 and a queue that refuses the retry: deliverJob throws. */
  async function failingSetup() {
    const subscriptions = new FakeSubscriptions();
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
    const deliveries = new FakeDeliveries();
    const queue = new RecordingQueue();
    await matchEvent(
      { subscriptions, deliveries, queue },
      { event: makeEvent(), now: "2026-03-14T12:42:00.000Z" },
    );
    const [job] = queue.jobs;
    if (!job) throw new Error("no job matched");
    queue.sent.length = 0;
    queue.failNext = Number.POSITIVE_INFINITY;
    const http = new ScriptedPoster().script(HOOK_URL, answer(503));
    const deps: DeliverJobDeps = {
      subscriptions,
      deliveries,
      queue,
      retryScheduler: new RecordingScheduler(),
      http,
      email: new RecordingEmail(),
    };
    return { deps, deliveries, job, http };
  }

  const sqsRecord = (job: DeliveryJob, receiveCount: number): SQSRecord =>
    ({
      messageId: `m-${receiveCount}`,
      receiptHandle: "r",
      body: JSON.stringify(job),
      attributes: { ApproximateReceiveCount: String(receiveCount) },
      messageAttributes: {},
      md5OfBody: "",
      eventSource: "aws:sqs",
      eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:DeliveryJobs",
      awsRegion: "us-east-1",
    }) as unknown as SQSRecord;

  it("fails the record on earlier receives, so SQS tries again", async () => {
    const { deps, deliveries, job } = await failingSetup();
    const handler = makeDeliverJob(() => deps, settings);
    const last = QUEUES.deliveryJobs.maxReceiveCount;
    await expect(handler({ Records: [sqsRecord(job, last - 1)] }, context)).rejects.toThrow(
      /All records failed/,
    );
    expect((await deliveries.get(job.deliveryId))?.status).toBe("retrying");
  });

  it("on the last receive parks the delivery with the reason and reports success", async () => {
    const { deps, deliveries, job, http } = await failingSetup();
    const handler = makeDeliverJob(() => deps, settings);
    const last = QUEUES.deliveryJobs.maxReceiveCount;
    await expect(handler({ Records: [sqsRecord(job, last - 1)] }, context)).rejects.toThrow();

    const response = await handler({ Records: [sqsRecord(job, last)] }, context);

    expect(response).toEqual({ batchItemFailures: [] });
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("parked");
    expect(record?.attempts.at(-1)).toMatchObject({ attempt: 1, outcome: "parked" });
    expect(record?.attempts.at(-1)?.detail).toBe(
      `parked: the service could not complete attempt 1 in ${last} tries; replay to try again`,
    );
    // The receiver's answer was logged on the first receive; nothing was sent again.
    expect(http.requests).toHaveLength(1);
  });

  it("a copy that finds the same attempt in progress elsewhere is not parked: that invocation finishes it", async () => {
    const { deps, deliveries, job } = await failingSetup();
    deps.deliveries.get = async () => {
      throw new IdempotencyAlreadyInProgressError("attempt in progress");
    };
    const handler = makeDeliverJob(() => deps, settings);
    const last = QUEUES.deliveryJobs.maxReceiveCount;
    await expect(handler({ Records: [sqsRecord(job, last)] }, context)).rejects.toThrow(/All records failed/);
    expect(deliveries.records.get(job.deliveryId)?.status).toBe("pending");
  });

  it("when parking fails too, the record fails and the message goes on to the dead-letter queue", async () => {
    const { deps, deliveries, job } = await failingSetup();
    deliveries.recordAttempt = async () => {
      throw new Error("DynamoDB throttled");
    };
    const handler = makeDeliverJob(() => deps, settings);
    const last = QUEUES.deliveryJobs.maxReceiveCount;
    await expect(handler({ Records: [sqsRecord(job, last)] }, context)).rejects.toThrow(/All records failed/);
  });
});
