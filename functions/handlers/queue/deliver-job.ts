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
 * per-attempt timeout. Options given to `make` take precedence over them.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { requiredEnv } from "../../adapters/aws-clients.ts";
import { nowIso, wallClockSeconds } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { QUEUES, TABLES } from "../../contracts/resources.ts";
import type { DeliveryJob } from "../../core/ports/notifications.ts";
import { type DeliverJobDeps, deliverJob, parkUnfinishedJob } from "../../core/use-cases/deliver-job.ts";
import {
  deliveries,
  deliveryQueue,
  deliveryRetries,
  emailSender,
  httpSender,
  subscriptions,
} from "../../wiring.ts";

export interface DeliverJobOptions {
  /** Multiplies the retry schedule (1 = as designed). */
  retryScale?: number;
  /** Per-attempt timeout; the use case's 10 s when absent. */
  timeoutMs?: number;
}

/** A positive number from the environment, or undefined. */
const positive = (text: string | undefined) => (Number(text) > 0 ? Number(text) : undefined);

/** The local/test knobs of the environment. */
function optionsFromEnv(env: NodeJS.ProcessEnv): DeliverJobOptions {
  const retryScale = positive(env.DELIVERY_RETRY_SCALE);
  const timeoutMs = positive(env.DELIVERY_TIMEOUT_MS);
  return { ...(retryScale ? { retryScale } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
}

const receiveCount = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount) || 1;

/** SQS moves this message to the dead-letter queue if it fails once more. */
function isLastReceive(record: SQSRecord): boolean {
  return receiveCount(record) >= QUEUES.deliveryJobs.maxReceiveCount;
}

export const make = (deps: () => DeliverJobDeps, options: DeliverJobOptions = {}) => {
  const { retryScale = 1, timeoutMs } = { ...optionsFromEnv(process.env), ...options };
  const settings = { retryScale, ...(timeoutMs ? { timeoutMs } : {}) };
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

  return async (event: SQSEvent, context: Context) => {
    config.registerLambdaContext(context);
    return processPartialResponse(event, deliverRecord, processor, { context });
  };
};

export const handler = make(() => ({
  subscriptions: subscriptions(),
  deliveries: deliveries(),
  queue: deliveryQueue(),
  retryScheduler: deliveryRetries(),
  http: httpSender(),
  email: emailSender(),
}));
