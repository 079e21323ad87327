/**
 * Retry policy of notification deliveries (DESIGN.md section 5): about 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, then give up (parked, replayable). Pure: attempt number, status, header, clock and random
 * number all come in as values.
 */

/** Waits after failed attempt 1..6; attempt 7 is the last one. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** ±10 % jitter: spreads retries of many targets that failed together. */
const JITTER_FRACTION = 0.1;
/** Retry-After is honoured between these bounds (a receiver cannot park us for days, nor make us spin). */
export const MIN_RETRY_AFTER_SECONDS = 1;
export const MAX_RETRY_AFTER_SECONDS = 36_000;
/** SQS DelaySeconds maximum; longer waits go through EventBridge Scheduler. */
export const MAX_SQS_DELAY_SECONDS = 900;

/** The injected random number, kept within [0, 1]. */
const unit = (random: number) => Math.min(Math.max(random, 0), 1);

/**
 * Delay before the next attempt after failed attempt `attempt` (1-based), or "give-up" after the last.
 * `random` in [0, 1) (injected) moves the delay within ±10 %.
 */
export function retryDelaySeconds(attempt: number, random: number): number | "give-up" {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError("attempt is 1-based");
  const base = RETRY_SCHEDULE_SECONDS[attempt - 1];
  if (base === undefined) return "give-up";
  return Math.max(1, Math.round(base * (1 - JITTER_FRACTION + 2 * JITTER_FRACTION * unit(random))));
}

/**
 * A receiver's Retry-After as the least we wait: clamped to the bounds, then spread by the same
 * jitter width as the schedule (20 %) but upwards only, so targets told the same wait do not return
 * together and none comes back earlier than it was asked to.
 */
export function retryAfterFloorSeconds(retryAfterSeconds: number, random: number): number {
  const clamped = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(MIN_RETRY_AFTER_SECONDS, retryAfterSeconds));
  return Math.ceil(clamped * (1 + 2 * JITTER_FRACTION * unit(random)));
}

/**
 * Retry-After as delta-seconds or an HTTP-date (relative to `now`), or null if absent/unreadable.
 * Not yet clamped.
 */
export function parseRetryAfter(header: string | null | undefined, now: string): number | null {
  const text = header?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text);
  // HTTP-date only (IMF-fixdate and its obsolete forms all contain a weekday name or GMT).
  if (!/GMT$|^[A-Za-z]{3},/.test(text)) return null;
  const at = Date.parse(text);
  const nowMs = Date.parse(now);
  if (Number.isNaN(at) || Number.isNaN(nowMs)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** What one attempt's outcome was: an HTTP status, or no answer. */
export type AttemptOutcome = number | "timeout" | "network-error";

export type OutcomeClass = "delivered" | "retry" | "gone" | "rejected";

/**
 * 2xx delivered (DESIGN names 200/204; any 2xx counts); 410 gone; 408, 425, 429, 5xx, timeouts and
 * network errors are worth retrying. Decision: every other status (3xx — redirects are not followed,
 * as a redirect could point anywhere — and other 4xx) is the receiver refusing this request, which a
 * retry would not change: parked at once, replayable by hand.
 */
export function classifyOutcome(outcome: AttemptOutcome): OutcomeClass {
  if (outcome === "timeout" || outcome === "network-error") return "retry";
  if (outcome >= 200 && outcome <= 299) return "delivered";
  if (outcome === 410) return "gone";
  if (outcome === 408 || outcome === 425 || outcome === 429 || (outcome >= 500 && outcome <= 599))
    return "retry";
  return "rejected";
}

export type NextAttempt =
  | { action: "delivered" }
  | { action: "retry"; delaySeconds: number }
  | { action: "park"; reason: "rejected" | "retries-exhausted" }
  /** 410 Gone: disable the webhook and park this delivery (for a Url-channel rule: park only). */
  | { action: "disable-webhook" };

/**
 * What follows an attempt. The wait is the scheduled backoff for that attempt (with jitter); a
 * Retry-After only ever lengthens it (a floor, see retryAfterFloorSeconds), so `Retry-After: 0` on a
 * 429 cannot burn the remaining attempts in seconds.
 */
export function nextAttemptDelay(input: {
  /** The attempt that just finished, 1-based. */
  attempt: number;
  status: AttemptOutcome;
  retryAfterHeader?: string | null;
  /** UTC ISO time of the answer (for an HTTP-date Retry-After). */
  now: string;
  random: number;
  /**
   * Multiplies the schedule (1 in production; the local runner and tests shrink it). A receiver's
   * Retry-After is never scaled: it asked for that wait.
   */
  scheduleScale?: number;
}): NextAttempt {
  switch (classifyOutcome(input.status)) {
    case "delivered":
      return { action: "delivered" };
    case "gone":
      return { action: "disable-webhook" };
    case "rejected":
      return { action: "park", reason: "rejected" };
    case "retry":
      break;
  }
  const scheduled = retryDelaySeconds(input.attempt, input.random);
  if (scheduled === "give-up") return { action: "park", reason: "retries-exhausted" };
  const backoff = scheduled * (input.scheduleScale ?? 1);
  const retryAfter = parseRetryAfter(input.retryAfterHeader, input.now);
  if (retryAfter === null) return { action: "retry", delaySeconds: backoff };
  return {
    action: "retry",
    delaySeconds: Math.max(backoff, retryAfterFloorSeconds(retryAfter, input.random)),
  };
}

/**
 * Seconds from `now` until the next attempt a logged retry planned (0 when already due): what a
 * redelivered job re-queues for. An entry logged without its due time (older records) falls back to
 * the scheduled backoff of that attempt.
 */
export function plannedRetrySeconds(
  entry: { attempt: number; at: string; nextAttemptAt?: string },
  now: string,
  scheduleScale: number,
): number {
  const due =
    entry.nextAttemptAt !== undefined
      ? Date.parse(entry.nextAttemptAt)
      : Date.parse(entry.at) +
        (RETRY_SCHEDULE_SECONDS[entry.attempt - 1] ?? RETRY_SCHEDULE_SECONDS[0]) * scheduleScale * 1000;
  return Math.max(0, Math.ceil((due - Date.parse(now)) / 1000));
}

export type DelayPlan =
  | { via: "sqs"; delaySeconds: number }
  /** Beyond SQS's 15 minutes: a one-time schedule that re-queues the job. */
  | { via: "scheduler"; delaySeconds: number };

export function splitDelay(delaySeconds: number): DelayPlan {
  const seconds = Math.max(0, Math.ceil(delaySeconds));
  return seconds <= MAX_SQS_DELAY_SECONDS
    ? { via: "sqs", delaySeconds: seconds }
    : { via: "scheduler", delaySeconds: seconds };
}
