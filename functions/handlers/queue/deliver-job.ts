/**
 * Delivery-jobs queue: one attempt per job (functions/core/use-cases/deliver-job.ts), with Powertools
 * partial batch failures and idempotency keyed on delivery id + attempt, so a redelivered SQS message
 * (a crash mid-batch, a visibility timeout) never sends twice and a failed one is retried alone.
 * A job still failing on its last receive (maxReceiveCount) parks its delivery visibly instead of
 * leaving it "in progress" behind a dead-lettered message; only if that fails too does it go to the
 * dead-letter queue.
 *
 * Local/test knobs (never set in the stack): DELIVERY_RETRY_SCALE multiplies the retry schedule
 * (e.g. 0.001: 5 s, 5 min, 30 min -> 1 s, 1 s, 2 s); DELIVERY_TIMEOUT_MS overrides the 10 s
 * per-attempt timeout; DELIVERY_SIMULATE_CRASH=once makes the first invocation throw after its first
 * record, as a crashed Lambda would.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { requiredEnv } from "../../adapters/aws-clients.ts";
import { nowIso, wallClockSeconds } from "../../adapters/clock.ts";
import { sqsDeliveryJobQueue } from "../../adapters/delivery-job-queue.ts";
import { dynamoDeliveryRepository } from "../../adapters/delivery-repository.ts";
import { schedulerDeliveryRetryScheduler } from "../../adapters/delivery-retry-scheduler.ts";
import { sesEmailSender } from "../../adapters/email-sender.ts";
import { createHttpSender } from "../../adapters/http-sender.ts";
import { dynamoSubscriptionRepository } from "../../adapters/subscription-repository.ts";
import { QUEUES, TABLES } from "../../contracts/resources.ts";
import type { DeliveryJob } from "../../core/ports/notifications.ts";
import { type DeliverJobDeps, deliverJob, parkUnfinishedJob } from "../../core/use-cases/deliver-job.ts";

const logger = new Logger({ serviceName: "route-map-tracker" });

/** A positive number from the environment, or undefined. */
const positive = (text: string | undefined) => (Number(text) > 0 ? Number(text) : undefined);

const receiveCount = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount) || 1;

/** SQS moves this message to the dead-letter queue if it fails once more. */
function isLastReceive(record: SQSRecord): boolean {
  return receiveCount(record) >= QUEUES.deliveryJobs.maxReceiveCount;
}

export function createDeliverHandler(deps: () => DeliverJobDeps, env: NodeJS.ProcessEnv = process.env) {
  const timeoutMs = positive(env.DELIVERY_TIMEOUT_MS);
  const settings = {
    retryScale: positive(env.DELIVERY_RETRY_SCALE) ?? 1,
    ...(timeoutMs ? { timeoutMs } : {}),
  };
  const processor = new BatchProcessor(EventType.SQS);
  const config = new IdempotencyConfig({
    eventKeyJmesPath: "[deliveryId, attempt]",
    expiresAfterSeconds: 86_400,
  });
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: requiredEnv(TABLES.idempotency.envVar),
  });
  const deliverOnce = makeIdempotent(
    async (job: DeliveryJob) => {
      const result = await deliverJob(deps(), {
        ...settings,
        job,
        now: nowIso(),
        sentAtSeconds: wallClockSeconds(),
        random: Math.random(),
      });
      logger.info("delivery attempt", { ...result });
      return result;
    },
    { persistenceStore, config, keyPrefix: "deliver" },
  );
  const deliverRecord = async (record: SQSRecord) => {
    const job = JSON.parse(record.body) as DeliveryJob;
    try {
      return await deliverOnce(job);
    } catch (error) {
      // In progress elsewhere: that invocation finishes the attempt, this copy must not park it.
      if (!isLastReceive(record) || error instanceof IdempotencyAlreadyInProgressError) throw error;
      const tries = receiveCount(record);
      const result = await parkUnfinishedJob(deps(), { job, now: nowIso(), tries });
      logger.error("delivery job failed on its last receive; delivery parked", { ...result, error });
      return result;
    }
  };
  let crashArmed = env.DELIVERY_SIMULATE_CRASH === "once";

  return async (event: SQSEvent, context: Context) => {
    config.registerLambdaContext(context);
    if (crashArmed) {
      crashArmed = false;
      await processPartialResponse({ Records: event.Records.slice(0, 1) }, deliverRecord, processor, {
        context,
      });
      throw new Error("simulated crash after the first record (DELIVERY_SIMULATE_CRASH)");
    }
    return processPartialResponse(event, deliverRecord, processor, { context });
  };
}

let deps: DeliverJobDeps | undefined;
/** The AWS adapters, created on first use (warm containers reuse them). */
export function productionDeps(): DeliverJobDeps {
  deps ??= {
    subscriptions: dynamoSubscriptionRepository(),
    deliveries: dynamoDeliveryRepository(),
    queue: sqsDeliveryJobQueue(),
    retryScheduler: schedulerDeliveryRetryScheduler(),
    http: createHttpSender(),
    email: sesEmailSender(),
  };
  return deps;
}

export const handler = createDeliverHandler(productionDeps);
