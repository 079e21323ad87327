/**
 * Long-polls an fauxqs queue and invokes a handler with real SQSEvent batches, as the Lambda SQS
 * event-source mapping does with ReportBatchItemFailures: successes are deleted, failed messages stay
 * and come back after their visibility timeout, and the queue's redrive policy parks them on the DLQ.
 */
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "./emulators.ts";
import { type LambdaHandler, lambdaContext } from "./lambda.ts";
import type { Poller } from "./stream-poller.ts";

export interface QueuePollerOptions {
  endpoint: string;
  queueUrl: string;
  functionName: string;
  handler: () => Promise<LambdaHandler>;
  batchSize: number;
  /**
   * Batches in flight at once (Lambda's maximum concurrency): as many receive loops, so a batch that
   * waits on a slow target never keeps the next batch from being received and handled. Default 1.
   */
  concurrency?: number;
  /** Seconds before a failed message is visible again (locally shorter than in AWS to keep tests fast). */
  retryVisibilitySeconds?: number;
  onError?: (error: unknown) => void;
}

export async function startQueuePoller(options: QueuePollerOptions): Promise<Poller> {
  const sqs = new SQSClient({
    endpoint: options.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: options.queueUrl, AttributeNames: ["QueueArn"] }),
  );
  const queueArn = attributes.Attributes?.QueueArn ?? options.queueUrl;
  let running = true;
  const abort = new AbortController();

  const receiveLoop = async () => {
    while (running) {
      try {
        const received = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: Math.min(10, options.batchSize),
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ["All"],
            MessageAttributeNames: ["All"],
          }),
          { abortSignal: abort.signal },
        );
        const messages = received.Messages ?? [];
        if (messages.length === 0) continue;
        const records: SQSRecord[] = messages.map((message) => ({
          messageId: message.MessageId ?? "",
          receiptHandle: message.ReceiptHandle ?? "",
          body: message.Body ?? "",
          attributes: (message.Attributes ?? {}) as unknown as SQSRecord["attributes"],
          messageAttributes: Object.fromEntries(
            Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
              name,
              { dataType: value.DataType ?? "String", stringValue: value.StringValue },
            ]),
          ) as SQSRecord["messageAttributes"],
          md5OfBody: message.MD5OfBody ?? "",
          eventSource: "aws:sqs",
          eventSourceARN: queueArn,
          awsRegion: LOCAL_REGION,
        }));
        const event: SQSEvent = { Records: records };
        let failedIds: Set<string>;
        try {
          const handler = await options.handler();
          const response = (await handler(event, lambdaContext(options.functionName))) as
            | SQSBatchResponse
            | undefined;
          failedIds = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
        } catch (error) {
          // A crash fails the whole batch: every message stays and is received again.
          options.onError?.(error);
          failedIds = new Set(records.map((record) => record.messageId));
        }
        const succeeded = records.filter((record) => !failedIds.has(record.messageId));
        if (succeeded.length > 0) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: succeeded.map((record, index) => ({
                Id: String(index),
                ReceiptHandle: record.receiptHandle,
              })),
            }),
          );
        }
        const failed = records.filter((record) => failedIds.has(record.messageId));
        if (failed.length > 0 && options.retryVisibilitySeconds !== undefined) {
          await sqs.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: failed.map((record, index) => ({
                Id: String(index),
                ReceiptHandle: record.receiptHandle,
                VisibilityTimeout: options.retryVisibilitySeconds,
              })),
            }),
          );
        }
      } catch (error) {
        if (running) {
          options.onError?.(error);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    }
  };
  const loop = Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, receiveLoop));

  return {
    async stop() {
      running = false;
      abort.abort();
      await loop;
      sqs.destroy();
    },
  };
}
