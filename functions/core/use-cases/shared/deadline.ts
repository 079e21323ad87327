/**
 * A request's time budget: the Lambda's remaining time, so a use case answers (2xx, or 409 with
 * Retry-After when it has to stop) before the function is cut off and API Gateway answers 5xx for it.
 * No step starts unless twice the slowest step of this request plus ANSWER_RESERVE_MS is left; a step
 * is one read or write (or one round of them), so a request that has to stop has changed nothing it
 * still counts on, and the same request again completes it.
 */
import type { AwbId } from "../../carrier-messages/types.ts";
import { DeadlineReachedError } from "../../errors.ts";

/** Time kept back for the answer, on top of room for the next step (twice the slowest one yet). */
export const ANSWER_RESERVE_MS = 1_500;

export interface Deadline {
  /** Throws DeadlineReachedError when the next step might not finish before the answer is due. */
  ensureTimeForStep(): void;
  /** Runs one step after checking the time for it, remembering how long the slowest took. */
  step<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * The budget of a request about one AWB; without `timeLeftMs` (tests, no Lambda context) there is
 * no deadline. `refusal` is the DeadlineReachedError's message, saying what was not done.
 */
export function deadlineOf(timeLeftMs: (() => number) | undefined, awb: AwbId, refusal?: string): Deadline {
  let slowestStep = 0;
  const ensureTimeForStep = () => {
    if (timeLeftMs !== undefined && timeLeftMs() < ANSWER_RESERVE_MS + 2 * slowestStep)
      throw new DeadlineReachedError(awb, refusal);
  };
  return {
    ensureTimeForStep,
    async step(work) {
      ensureTimeForStep();
      if (timeLeftMs === undefined) return work();
      const before = timeLeftMs();
      try {
        return await work();
      } finally {
        slowestStep = Math.max(slowestStep, before - timeLeftMs());
      }
    },
  };
}

/** No deadline: every step runs. */
export const NO_DEADLINE: Deadline = deadlineOf(undefined, { prefix: "000", serial: "00000000" });
