/**
 * SQS form of the delivery-job queue (env DELIVERY_QUEUE_URL; its slow lane DELIVERY_SLOW_QUEUE_URL): one message per (event, target), sent
 * with SendMessageBatch in chunks of 10 (the SQS maximum). The body is the job as JSON; it carries no
 * secrets (DeliveryTarget), so queue contents and DLQ inspection never expose a Token or Psk.
 */
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { MAX_SQS_DELAY_SECONDS } from "../core/notifications/index.ts";
import type { DeliveryJob, DeliveryJobQueue, DeliveryLane } from "../core/ports/notifications.ts";
import { sqs } from "./aws-clients.ts";
import { config } from "./config.ts";

const BATCH_LIMIT = 10;

export function sqsDeliveryJobQueue(
  mainUrl = config.queueUrl("deliveryJobs"),
  /** The slow lane (DELIVERY_SLOW_QUEUE_URL), read when first used: only deliver-job sends there. */
  slowUrl = () => config.queueUrl("deliverySlowJobs"),
): DeliveryJobQueue {
  return {
    async enqueue(jobs: readonly DeliveryJob[], delaySeconds?: number, lane: DeliveryLane = "main") {
      const queueUrl = lane === "slow" ? slowUrl() : mainUrl;
      const delay =
        delaySeconds === undefined
          ? undefined
          : Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
      for (let start = 0; start < jobs.length; start += BATCH_LIMIT) {
        const chunk = jobs.slice(start, start + BATCH_LIMIT);
        const result = await sqs().send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: chunk.map((job, index) => ({
              Id: String(index),
              MessageBody: JSON.stringify(job),
              ...(delay === undefined ? {} : { DelaySeconds: delay }),
              MessageAttributes: {
                DeliveryId: { DataType: "String", StringValue: job.deliveryId },
                Attempt: { DataType: "Number", StringValue: String(job.attempt) },
              },
            })),
          }),
        );
        // A partly failed batch must not look like success: the caller's retry re-sends the whole
        // chunk, and the deliverer's idempotency (delivery id + attempt) absorbs the duplicates.
        const failed = result.Failed ?? [];
        if (failed.length > 0) {
          const first = failed[0];
          throw new Error(
            `SQS refused ${failed.length} of ${chunk.length} delivery jobs (${first?.Code}: ${first?.Message})`,
          );
        }
      }
    },
  };
}
