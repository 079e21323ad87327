/**
 * One delivery attempt of one job (DESIGN.md section 5). The channel that carries the job
 * (notifications/channels/registry.ts: e-mail, customer endpoint, webhook, carrier status request)
 * reads its target as it stands now and sends; this use case runs the attempt around it: the attempt
 * log, what comes next (done, retry via SQS delay or a one-time schedule, park, switch off on 410),
 * the lanes, and parking what cannot be sent.
 *
 * Order of one attempt, so that a crash between any two steps loses nothing:
 *   1. send;
 *   2. what a redelivered job could not work out from the log (a 410 switches the webhook off);
 *   3. log the attempt: the commit point, the answer is now known;
 *   4. queue the next attempt of a retry;
 *   5. (the handler) Powertools stores its idempotency record for delivery id + attempt.
 * A crash before 3 sends again when SQS redelivers the job: unavoidable, the answer was never
 * recorded, and receivers de-duplicate on `webhook-id`/IdMessage. A crash after 3 re-POSTs nothing:
 * the redelivered job finds its attempt logged and only re-queues the next attempt if the log ends in
 * this attempt's retry. The next attempt's identity is deterministic (delivery id + attempt; its
 * schedule name derives from them), so a second copy of it is absorbed by the deliverer's idempotency
 * and the attempt log.
 */
import type { AttemptSettings, SendResult } from "../notifications/channels/channel.ts";
import { type ChannelDeps, prepareDelivery } from "../notifications/channels/registry.ts";
import { TIMEOUT_DETAIL } from "../notifications/channels/results.ts";
import { nextAttemptDelay, plannedRetrySeconds, splitDelay } from "../notifications/index.ts";
import type {
  DeliveryAttempt,
  DeliveryJob,
  DeliveryJobQueue,
  DeliveryLane,
  DeliveryRepository,
  DeliveryRetryScheduler,
  DeliveryStatus,
} from "../ports/notifications.ts";
import { newDeliveryRecord } from "./shared/deliveries.ts";

/** The attempt log, the queue and the retry schedules; the channels' own ports besides. */
export type DeliverJobDeps = ChannelDeps & {
  deliveries: DeliveryRepository;
  queue: DeliveryJobQueue;
  retryScheduler: DeliveryRetryScheduler;
};

export interface DeliverJobInput extends AttemptSettings {
  job: DeliveryJob;
  /** In [0, 1): retry jitter. */
  random: number;
  /**
   * Multiplies the retry schedule (5 s, 5 min, 30 min, ...): 1 in production; the local runner and
   * tests shrink it. A receiver's own Retry-After is never scaled: it asked for that wait.
   */
  retryScale?: number;
}

export type DeliverJobOutcome =
  | "delivered"
  | "retry"
  | "parked"
  | "disabled"
  /** The subscription was deleted, disabled or changed meanwhile: parked with the reason, nothing sent. */
  | "skipped"
  /** The e-mail address bounced or complained before (SES feedback): parked, nothing sent. */
  | "suppressed"
  /** This attempt was already made (a redelivered job): not sent again. */
  | "duplicate";

export interface DeliverJobResult {
  deliveryId: string;
  attempt: number;
  outcome: DeliverJobOutcome;
  status: number | null;
  detail: string;
  /** Seconds until the next attempt, for outcome "retry". */
  nextAttemptInSeconds?: number;
}

/** Attempt log entries keep this much of a response or error. */
const DETAIL_LIMIT = 1000;
const truncate = (text: string, limit = DETAIL_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
/** `text` cut so that `note` (what happened next) still fits after it. */
const withNote = (text: string, note: string) => `${truncate(text, DETAIL_LIMIT - note.length)}${note}`;

/**
 * Queues attempt n+1: an SQS delay up to 15 minutes, a one-time schedule beyond. A target that timed
 * out gets it on the slow lane (a schedule puts it back on the main queue: hours later, the target may
 * well have recovered).
 */
async function queueNextAttempt(
  deps: DeliverJobDeps,
  job: DeliveryJob,
  delaySeconds: number,
  now: string,
  lane: DeliveryLane,
) {
  const next: DeliveryJob = { ...job, attempt: job.attempt + 1 };
  const plan = splitDelay(delaySeconds);
  if (plan.via === "sqs") await deps.queue.enqueue([next], plan.delaySeconds, lane);
  else
    await deps.retryScheduler.scheduleRetry(
      next,
      new Date(Date.parse(now) + plan.delaySeconds * 1000).toISOString(),
    );
}

/** The lane of the next attempt, from what this one logged: a timeout goes to the slow lane. */
const laneAfter = (detail: string): DeliveryLane => (detail.startsWith(TIMEOUT_DETAIL) ? "slow" : "main");

export async function deliverJob(deps: DeliverJobDeps, input: DeliverJobInput): Promise<DeliverJobResult> {
  const { job, now } = input;
  const base = { deliveryId: job.deliveryId, attempt: job.attempt };
  const existing = await deps.deliveries.get(job.deliveryId);
  if (existing?.attempts.some((attempt) => attempt.attempt === job.attempt)) {
    // Answered before (step 3 happened): never sent again. Only step 4 may be missing.
    const last = existing.attempts.at(-1);
    if (existing.status === "retrying" && last?.attempt === job.attempt && last.outcome === "retry") {
      const seconds = plannedRetrySeconds(last, now, input.retryScale ?? 1);
      await queueNextAttempt(deps, job, seconds, now, laneAfter(last.detail));
      return {
        ...base,
        outcome: "duplicate",
        status: null,
        detail: `attempt already made; attempt ${job.attempt + 1} queued (again) in ${seconds} s`,
        nextAttemptInSeconds: seconds,
      };
    }
    return { ...base, outcome: "duplicate", status: null, detail: "attempt already made" };
  }
  // A job always has its record (the matcher creates it first); a missing one is recreated, not lost.
  if (!existing) await deps.deliveries.create(newDeliveryRecord({ ...job, attempt: 1 }, now));

  const log = async (
    outcome: DeliveryAttempt["outcome"],
    status: DeliveryStatus,
    result: Pick<SendResult, "status" | "latencyMs" | "detail" | "emailMessageId">,
    nextAttemptAt?: string,
  ) =>
    deps.deliveries.recordAttempt(
      job.deliveryId,
      {
        attempt: job.attempt,
        at: now,
        status: result.status,
        latencyMs: result.latencyMs,
        outcome,
        detail: truncate(result.detail),
        ...(nextAttemptAt === undefined ? {} : { nextAttemptAt }),
        ...(result.emailMessageId === undefined ? {} : { emailMessageId: result.emailMessageId }),
      },
      status,
    );

  const prepared = await prepareDelivery(job, deps, input);
  if (!prepared.ok && prepared.suppressed) {
    // Not retried (the address will not recover by waiting), not lost: visible in the log.
    const detail = `suppressed: ${prepared.reason}; not sent`;
    await log("suppressed", "parked", { status: null, latencyMs: 0, detail });
    return { ...base, outcome: "suppressed", status: null, detail };
  }
  if (!prepared.ok) {
    const detail = `skipped: ${prepared.reason}`;
    await log("parked", "parked", { status: null, latencyMs: 0, detail });
    return { ...base, outcome: "skipped", status: null, detail };
  }
  const result = await prepared.send();
  const next =
    result.outcome === null
      ? ({ action: "park", reason: "rejected" } as const)
      : nextAttemptDelay({
          attempt: job.attempt,
          status: result.outcome,
          retryAfterHeader: result.retryAfter,
          now,
          random: input.random,
          scheduleScale: input.retryScale ?? 1,
        });

  switch (next.action) {
    case "delivered":
      await log("delivered", "delivered", result);
      return { ...base, outcome: "delivered", status: result.status, detail: truncate(result.detail) };
    case "retry": {
      const seconds = splitDelay(next.delaySeconds).delaySeconds;
      const detail = withNote(result.detail, ` (attempt ${job.attempt + 1} in ${seconds} s)`);
      const nextAttemptAt = new Date(Date.parse(now) + seconds * 1000).toISOString();
      await log("retry", "retrying", { ...result, detail }, nextAttemptAt);
      await queueNextAttempt(deps, result.retryJob ?? job, seconds, now, laneAfter(result.detail));
      return { ...base, outcome: "retry", status: result.status, detail, nextAttemptInSeconds: seconds };
    }
    case "park":
    case "disable-webhook": {
      // 410 Gone: the channel switches its target off (step 2, before the log: a redelivered job would
      // see the attempt logged and not get here again); a channel with nothing to switch off parks.
      const switchOff = next.action === "disable-webhook" ? prepared.switchOff : undefined;
      const note = switchOff
        ? await switchOff(now)
        : ` (parked: ${next.action === "park" ? next.reason : "gone"})`;
      const detail = withNote(result.detail, note);
      await log(switchOff ? "disabled" : "parked", "parked", { ...result, detail });
      return { ...base, outcome: switchOff ? "disabled" : "parked", status: result.status, detail };
    }
  }
}

/**
 * The job failed on every receive SQS allows it (the store, queue or scheduler kept refusing). Left
 * alone it would sink into the dead-letter queue with its delivery still "in progress", which replay
 * refuses for ever; instead the delivery is parked, visibly and replayable. A delivery that has moved
 * on meanwhile (settled, or a later attempt logged) is left as it is. If this fails too, the caller
 * lets the job go to the dead-letter queue (alarmed).
 */
export async function parkUnfinishedJob(
  deps: Pick<DeliverJobDeps, "deliveries">,
  /** `tries`: how often the job was received; the cause stays in the service's own logs. */
  input: { job: DeliveryJob; now: string; tries: number },
): Promise<DeliverJobResult> {
  const { job, now } = input;
  const base = { deliveryId: job.deliveryId, attempt: job.attempt, status: null };
  const existing = await deps.deliveries.get(job.deliveryId);
  if (!existing) await deps.deliveries.create(newDeliveryRecord({ ...job, attempt: 1 }, now));
  const settled = existing?.status === "delivered" || existing?.status === "parked";
  const overtaken = existing?.attempts.some((attempt) => attempt.attempt > job.attempt) ?? false;
  if (settled || overtaken) {
    return { ...base, outcome: "duplicate", detail: `delivery already ${existing?.status}; left as it is` };
  }
  // The forwarder reads this: it says what happened, not which internal part failed.
  const detail = `parked: the service could not complete attempt ${job.attempt} in ${input.tries} tries; replay to try again`;
  await deps.deliveries.recordAttempt(
    job.deliveryId,
    { attempt: job.attempt, at: now, status: null, latencyMs: 0, outcome: "parked", detail },
    "parked",
  );
  return { ...base, outcome: "parked", detail };
}
