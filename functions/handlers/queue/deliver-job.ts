/**
 * Delivery-jobs queue: one attempt per job (functions/core/use-cases/deliver-job.ts), with Powertools
 * partial batch failures and idempotency keyed on delivery id + attempt, so a redelivered SQS message
 * (a crash mid-batch, a visibility timeout) never sends twice and a failed one is retried alone.
 * A job still failing on its last receive (maxReceiveCount) parks its delivery visibly instead of
 * leaving it "in progress" behind a dead-lettered message; only if that fails too does it go to the
 * dead-letter queue.
 *
 * One slow target never holds up another: the records of a batch are sent
 * concurrently (Powertools processes them in parallel), each attempt's deadline is capped by the time
 * the invocation has left (so a batch never outlives its Lambda), several batches run at once (the
 * event source's maximum concurrency; the local runner runs as many pollers, hence one batch processor
 * per invocation) and a target that timed out gets its retries on the slow lane (DeliverySlowJobs).
 *
 * Its settings come through `make(deps, options)`, read on the first invocation (the handler line
 * passes functions/adapters/config.ts's: IDEMPOTENCY_TABLE, APP_BASE_URL, and the local/test knobs,
 * never set in the stack: DELIVERY_RETRY_SCALE multiplies the retry schedule, e.g. 0.001: 5 s, 5 min,
 * 30 min -> 1 s, 1 s, 2 s; DELIVERY_TIMEOUT_MS overrides the 10 s per-attempt timeout).
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { dynamoDb } from "../../adapters/aws-clients.ts";
import { nowIso, wallClockSeconds } from "../../adapters/clock.ts";
import { config, type DeliverJobSettings } from "../../adapters/config.ts";
import { logger } from "../../adapters/logger.ts";
import { deliveryPoints, emfMetrics, type MetricsRecorder } from "../../adapters/metrics.ts";
import { newShareLinkId, randomToken } from "../../adapters/random-token.ts";
import { traced } from "../../adapters/tracer.ts";
import { QUEUES } from "../../contracts/resources.ts";
import type { DeliveryJob } from "../../core/ports/notifications.ts";
import { type DeliverJobDeps, deliverJob, parkUnfinishedJob } from "../../core/use-cases/deliver-job.ts";
import {
  carrierInbox,
  carriers,
  deliveries,
  deliveryQueue,
  deliveryRetries,
  emailConfirmations,
  emailSender,
  emailSuppressions,
  httpSender,
  oneRecordSubscriptions,
  routeMaps,
  shareLinks,
  subscriptions,
} from "../../wiring.ts";

export interface DeliverJobOptions extends DeliverJobSettings {
  /** Multiplies the retry schedule (1 = as designed). */
  retryScale?: number;
  /** Per-attempt timeout; the use case's 10 s when absent. */
  timeoutMs?: number;
  /** Where Deliveries and DeliveryLatency go (EMF by default). */
  metrics?: MetricsRecorder;
}

/** What an attempt leaves unspent: the invocation's settling (log, queue, idempotency record). */
const SETTLE_MARGIN_MS = 5_000;
/** The sender's own per-attempt deadline (DESIGN.md section 5). */
const ATTEMPT_DEADLINE_MS = 10_000;

/** When what the job delivers came about: the event's recording, or the status request's creation. */
const recordedOf = (job: DeliveryJob) =>
  job.kind === "status-request" ? { recordedAt: job.request.requestedAt } : job.event;

const receiveCount = (record: SQSRecord) => Number(record.attributes?.ApproximateReceiveCount) || 1;

/** SQS moves this message to the dead-letter queue if it fails once more. */
function isLastReceive(record: SQSRecord): boolean {
  return receiveCount(record) >= QUEUES.deliveryJobs.maxReceiveCount;
}

export const make = (deps: () => DeliverJobDeps, options: () => DeliverJobOptions) => {
  /** The handler's parts, built on the first invocation (no setting is read at import). */
  const build = () => {
    const {
      idempotencyTable,
      appBaseUrl,
      retryScale = 1,
      timeoutMs = ATTEMPT_DEADLINE_MS,
      metrics = emfMetrics,
    } = options();
    const idempotency = new IdempotencyConfig({
      eventKeyJmesPath: "[deliveryId, attempt]",
      expiresAfterSeconds: 86_400,
    });
    // The service's own (traced) DynamoDB client: the idempotency records' reads and writes show in X-Ray too.
    const persistenceStore = new DynamoDBPersistenceLayer({
      tableName: idempotencyTable,
      awsSdkV3Client: dynamoDb(),
    });
    const deliverOnce = makeIdempotent(
      async (job: DeliveryJob, attemptMs: number) => {
        const now = nowIso();
        const result = await deliverJob(deps(), {
          ...(appBaseUrl ? { appBaseUrl } : {}),
          retryScale,
          timeoutMs: attemptMs,
          job,
          now,
          sentAtSeconds: wallClockSeconds(),
          random: Math.random(),
        });
        logger.info("delivery attempt", { ...result });
        // Inside the idempotent call: a redelivered job whose attempt was made is not counted again.
        metrics(deliveryPoints(result, recordedOf(job), nowIso()));
        return result;
      },
      { persistenceStore, config: idempotency, keyPrefix: "deliver", dataIndexArgument: 0 },
    );
    return { idempotency, deliverOnce, timeoutMs, metrics };
  };
  let built: ReturnType<typeof build> | undefined;
  const parts = () => {
    built ??= build();
    return built;
  };

  const deliverRecord = async (record: SQSRecord, context: Context) => {
    const { deliverOnce, timeoutMs, metrics } = parts();
    const job = JSON.parse(record.body) as DeliveryJob;
    const left = context.getRemainingTimeInMillis() - SETTLE_MARGIN_MS;
    try {
      return await deliverOnce(job, Math.max(1_000, Math.min(timeoutMs, left)));
    } catch (error) {
      // In progress elsewhere: that invocation finishes the attempt, this copy must not park it.
      if (!isLastReceive(record) || error instanceof IdempotencyAlreadyInProgressError) throw error;
      const tries = receiveCount(record);
      const result = await parkUnfinishedJob(deps(), { job, now: nowIso(), tries });
      metrics(deliveryPoints(result, recordedOf(job), nowIso(), true));
      logger.error("delivery job failed on its last receive; delivery parked", { ...result, error });
      return result;
    }
  };

  return async (event: SQSEvent, context: Context) => {
    parts().idempotency.registerLambdaContext(context);
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, (record: SQSRecord) => deliverRecord(record, context), processor, {
      context,
      processInParallel: true,
    });
  };
};

export const handler = traced(
  make(
    () => ({
      subscriptions: subscriptions(),
      deliveries: deliveries(),
      queue: deliveryQueue(),
      retryScheduler: deliveryRetries(),
      http: httpSender(),
      email: emailSender(),
      confirmations: emailConfirmations(),
      suppressions: emailSuppressions(),
      // Read per status request (not the minute-cached directory): a channel support just set applies.
      carriers: carriers(),
      carrierInbox: carrierInbox(),
      // The e-mail's timeline and, per rule, its share link.
      routeMaps: routeMaps(),
      shareLinks: shareLinks(),
      // ONE Record notifications: the subscription as it stands now (the route map is read above).
      oneRecordSubscriptions: oneRecordSubscriptions(),
      newShareLink: () => ({ id: newShareLinkId(), token: randomToken() }),
    }),
    config.deliverJob,
  ),
);
