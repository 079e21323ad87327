/**
 * A stream record and a queue message travel through DynamoDB Local and fauxqs to their handlers via
 * the local pollers (not direct calls), with Lambda's filter and partial-batch-failure semantics.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { DynamoDBStreamEvent, SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createQueues,
  createTables,
  type DynamoDbLocal,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type SqsEmulator,
  startDynamoDbLocal,
  startSqs,
} from "../../bin/local/emulators.ts";
import { startQueuePoller } from "../../bin/local/queue-poller.ts";
import { startStreamPoller } from "../../bin/local/stream-poller.ts";
import { OUTBOX_INSERT_FILTER } from "../../functions/contracts/event-functions.ts";
import { OUTBOX_KIND } from "../../functions/contracts/outbox.ts";
import { deadLetterEnvVar, QUEUES, TABLES } from "../../functions/contracts/resources.ts";

let dynamo: DynamoDbLocal;
let sqsEmulator: SqsEmulator;
let tables: Record<string, string>;
let queues: Record<string, string>;

beforeAll(async () => {
  [dynamo, sqsEmulator] = await Promise.all([startDynamoDbLocal(await freePort()), startSqs(0)]);
  [tables, queues] = await Promise.all([createTables(dynamo.endpoint), createQueues(sqsEmulator.endpoint)]);
});

afterAll(async () => {
  await Promise.all([dynamo?.stop(), sqsEmulator?.stop()]);
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("stream poller", () => {
  it("delivers outbox inserts only, and retries a batch item the handler reports as failed", async () => {
    const deliveries: DynamoDBStreamEvent[] = [];
    let failFirst = true;
    const poller = await startStreamPoller({
      endpoint: dynamo.endpoint,
      tableName: tables[TABLES.routeMaps.envVar] ?? "",
      functionName: "test-stream",
      batchSize: 10,
      filter: OUTBOX_INSERT_FILTER,
      idleMs: 50,
      handler: async () => async (event: DynamoDBStreamEvent) => {
        deliveries.push(event);
        if (failFirst) {
          failFirst = false;
          return {
            batchItemFailures: [{ itemIdentifier: event.Records[0]?.dynamodb?.SequenceNumber ?? "" }],
          };
        }
        return { batchItemFailures: [] };
      },
    });
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: dynamo.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
    );
    const tableName = tables[TABLES.routeMaps.envVar];
    // A route-map write must not wake the matcher; an outbox insert must.
    await client.send(
      new PutCommand({ TableName: tableName, Item: { pk: "AWB#02012345675", sk: "CURRENT", version: 1 } }),
    );
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { pk: "AWB#02012345675", sk: "EVT#e1", kind: OUTBOX_KIND, event: { name: "DEP" } },
      }),
    );
    await waitFor(() => deliveries.length >= 2);
    await poller.stop();
    client.destroy();

    const delivered = deliveries.flatMap((event) => event.Records);
    expect(delivered.every((record) => record.dynamodb?.NewImage?.kind?.S === OUTBOX_KIND)).toBe(true);
    expect(
      delivered.every((record) => record.eventName === "INSERT" && record.eventSource === "aws:dynamodb"),
    ).toBe(true);
    // Failed once, delivered again: the same sequence number twice.
    const sequences = delivered.map((record) => record.dynamodb?.SequenceNumber);
    expect(sequences).toHaveLength(2);
    expect(sequences[0]).toBe(sequences[1]);
    expect(delivered[0]?.dynamodb?.Keys?.sk?.S).toBe("EVT#e1");
  });
});

describe("queue poller", () => {
  it("delivers SQS messages as SQSEvent, keeps failed ones for redelivery and deletes the rest", async () => {
    const queueUrl = queues[QUEUES.deliveryJobs.envVar] ?? "";
    const seen: string[] = [];
    let failed = false;
    const poller = await startQueuePoller({
      endpoint: sqsEmulator.endpoint,
      queueUrl,
      functionName: "test-queue",
      batchSize: 10,
      retryVisibilitySeconds: 0,
      handler: async () => async (event: SQSEvent) => {
        const failures: Array<{ itemIdentifier: string }> = [];
        for (const record of event.Records) {
          expect(record.eventSource).toBe("aws:sqs");
          seen.push(record.body);
          if (record.body === "job-b" && !failed) {
            failed = true;
            failures.push({ itemIdentifier: record.messageId });
          }
        }
        return { batchItemFailures: failures };
      },
    });
    const sqs = new SQSClient({
      endpoint: sqsEmulator.endpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: "job-a" }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: "job-b" }));
    await waitFor(() => seen.filter((body) => body === "job-b").length >= 2);
    await poller.stop();

    expect(seen.filter((body) => body === "job-a")).toHaveLength(1);
    expect(seen.filter((body) => body === "job-b")).toHaveLength(2);
    const attributes = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    expect(attributes.Attributes?.ApproximateNumberOfMessages).toBe("0");
    expect(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible).toBe("0");
    expect(queues[deadLetterEnvVar(QUEUES.deliveryJobs)]).toMatch(/dlq/i);
    sqs.destroy();
  });
});
