/**
 * Due checks on EventBridge Scheduler (CheckScheduler port): one one-time `at()` schedule per check in
 * SCHEDULE_GROUP_NAME, target the due-checks queue (DUE_CHECKS_QUEUE_ARN) with SCHEDULER_ROLE_ARN and
 * the check as the message body, FlexibleTimeWindow OFF, ActionAfterCompletion DELETE (fired checks do
 * not count against the schedule quota), dead letters to SCHEDULER_DLQ_ARN. Names are derived from
 * AWB + milestone + check (+ minutes): CreateSchedule, and on ConflictException UpdateSchedule, so a
 * replan moves a check instead of adding one. Checks already due go straight to DUE_CHECKS_QUEUE_URL.
 * Throttling is retried here with jittered backoff (on top of the SDK's own retries), so a burst of
 * replans slows down rather than failing the stream batch. An exhausted service quota is not:
 * waiting cannot free schedules, so it fails at once with a logged SchedulerQuotaExceededError (the
 * caller's record fails; the stream's on-failure destination parks it). Outside the local runner a
 * schedule is never created without its dead-letter queue.
 */
import { createHash } from "node:crypto";
import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  ResourceNotFoundException,
  UpdateScheduleCommand,
} from "@aws-sdk/client-scheduler";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import * as v from "valibot";
import type { CheckScheduler, PlannedCheck, QueuedCheck } from "../core/ports/checks.ts";
import type { DueCheckInput } from "../core/route-map/due-checks.ts";
import { scheduler, sqs } from "./aws-clients.ts";
import { type CheckSchedulerConfig, config as deployment } from "./config.ts";
import { logger } from "./logger.ts";
import { countSchedulerError } from "./metrics.ts";

/** A check as written below (schedule Input, queue message body); the run-due-check handler parses with it. */
export const DueCheckInputSchema = v.object({
  awb: v.pipe(v.string(), v.regex(/^\d{11}$/)),
  milestoneKey: v.pipe(v.string(), v.minLength(1)),
  plannedUtc: v.pipe(v.string(), v.isoTimestamp()),
  check: v.picklist(["missing", "proactive"]),
  minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
}) satisfies v.GenericSchema<unknown, DueCheckInput>;

const MAX_NAME_LENGTH = 64;
/** Schedule calls in flight at once per invocation (a plan has ~10-30 milestones). */
const CONCURRENCY = 8;
const MAX_THROTTLE_RETRIES = 6;

/**
 * `chk-<awb11>-<milestone key>-<check>[-<minutes>]`, e.g. `chk-02012345675-FRA.DEP-missing`. Milestone
 * keys are `<station>:<NAME>`; ":" becomes "." (never part of a key). Anything else outside
 * [0-9a-zA-Z-_.], or a name over 64 characters, gets a hash of the exact identity instead.
 */
export function checkScheduleName(
  input: Pick<DueCheckInput, "awb" | "milestoneKey" | "check" | "minutes">,
): string {
  const minutes = input.check === "proactive" ? `-${input.minutes ?? 0}` : "";
  const plain = `chk-${input.awb}-${input.milestoneKey.replace(/:/g, ".")}-${input.check}${minutes}`;
  if (/^[0-9a-zA-Z_.-]+$/.test(plain) && plain.length <= MAX_NAME_LENGTH) return plain;
  const hash = createHash("sha256")
    .update(`${input.awb}\n${input.milestoneKey}\n${input.check}\n${input.minutes ?? ""}`)
    .digest("hex")
    .slice(0, 24);
  return `chk-${input.awb}-${input.check}${minutes}-${hash}`.slice(0, MAX_NAME_LENGTH);
}

/**
 * `at(yyyy-mm-ddThh:mm:ss)` in UTC, rounded up to the whole second (never fires early): the one-time
 * schedule expression of every schedule this service creates (checks here, delivery retries).
 */
export function atExpression(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO time: ${iso}`);
  return `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;
}

/**
 * EventBridge Scheduler refused a schedule because a service quota is exhausted (most likely "Number
 * of schedules"). Not retried: the quota has to be raised (docs/scheduler-quotas.md).
 */
export class SchedulerQuotaExceededError extends Error {
  override readonly name = "SchedulerQuotaExceededError";
  constructor(
    readonly scheduleName: string,
    cause: unknown,
  ) {
    super(
      `EventBridge Scheduler refused schedule ${scheduleName}: service quota exceeded ` +
        `(${cause instanceof Error ? cause.message : String(cause)}). Not retried; raise the quota ` +
        "(docs/scheduler-quotas.md)",
      { cause },
    );
  }
}

/** The adapter is configured so that a schedule could be created without a dead-letter queue. */
export class SchedulerConfigurationError extends Error {
  override readonly name = "SchedulerConfigurationError";
}

/**
 * Schedules outside the local runner must have a dead-letter queue: a failed invocation is otherwise
 * dropped without a trace. `local` is what lets the local runner (DEPLOYMENT_MODE=local) do without.
 */
export function ensureDeadLetter(deadLetterArn: string | null | undefined, local: boolean): void {
  if (deadLetterArn || local) return;
  throw new SchedulerConfigurationError(
    "SCHEDULER_DLQ_ARN is not set: refusing to create a schedule without a dead-letter queue " +
      "(only the local runner, DEPLOYMENT_MODE=local, may)",
  );
}

/** Wraps a ServiceQuotaExceededException from Scheduler into a logged SchedulerQuotaExceededError. */
export function failOnQuota(error: unknown, scheduleName: string | undefined): unknown {
  if (!(error instanceof Error) || error.name !== "ServiceQuotaExceededException") return error;
  const failure = new SchedulerQuotaExceededError(scheduleName ?? "(unnamed)", error);
  logger.error(failure.message, { scheduleName, error });
  return failure;
}

// Read and validated in functions/adapters/config.ts; named here too, where the adapter's users look.
export type { CheckSchedulerConfig } from "./config.ts";

function scheduleRequest(check: PlannedCheck, config: CheckSchedulerConfig): CreateScheduleCommandInput {
  ensureDeadLetter(config.deadLetterArn, config.local);
  const { input } = check;
  return {
    Name: checkScheduleName(input),
    GroupName: config.groupName,
    ScheduleExpression: atExpression(check.at),
    ScheduleExpressionTimezone: "UTC",
    FlexibleTimeWindow: { Mode: "OFF" },
    ActionAfterCompletion: "DELETE",
    Description: `${input.check} check of ${input.milestoneKey} planned ${input.plannedUtc}`.slice(0, 512),
    Target: {
      Arn: config.queueArn,
      RoleArn: config.roleArn,
      Input: JSON.stringify(input),
      ...(config.deadLetterArn ? { DeadLetterConfig: { Arn: config.deadLetterArn } } : {}),
    },
  };
}

/** Request-rate limits: they pass within seconds, so waiting helps (unlike a service quota). */
const isThrottle = (error: unknown) =>
  error instanceof Error &&
  (error.name === "ThrottlingException" || error.name === "TooManyRequestsException");

async function withThrottleRetry<T>(scheduleName: string | undefined, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isThrottle(error) || attempt > MAX_THROTTLE_RETRIES) throw failOnQuota(error, scheduleName);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5000, 100 * 2 ** attempt)));
    }
  }
}

/** Create, or update the schedule of that name; one that fired and deleted itself meanwhile is created. */
async function upsert(request: CreateScheduleCommandInput): Promise<void> {
  for (let round = 0; round < 3; round++) {
    try {
      await withThrottleRetry(request.Name, () => scheduler().send(new CreateScheduleCommand(request)));
      return;
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
    try {
      await withThrottleRetry(request.Name, () => scheduler().send(new UpdateScheduleCommand(request)));
      return;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
  throw new Error(`schedule ${request.Name} kept changing under create/update`);
}

export function eventBridgeCheckScheduler(
  config: () => CheckSchedulerConfig = deployment.checkScheduler,
): CheckScheduler {
  return {
    async schedule(checks: readonly PlannedCheck[]) {
      const settings = config();
      const queue = checks.map((check) => scheduleRequest(check, settings));
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift())
          await upsert(next).catch((error: unknown) => {
            // SchedulerErrors on the dashboard: a check that could not be (re)scheduled.
            countSchedulerError("UpsertSchedule");
            throw error;
          });
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    },

    async enqueue(checks: readonly QueuedCheck[]) {
      const { queueUrl } = config();
      for (let i = 0; i < checks.length; i += 10) {
        let entries = checks.slice(i, i + 10).map((check, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(check.input),
          DelaySeconds: Math.min(900, Math.max(0, Math.ceil(check.delaySeconds))),
        }));
        for (let attempt = 1; entries.length > 0; attempt++) {
          const result = await sqs().send(
            new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }),
          );
          const failed = new Set((result.Failed ?? []).map((failure) => failure.Id));
          entries = entries.filter((entry) => failed.has(entry.Id));
          if (entries.length > 0 && attempt >= 5)
            throw new Error(
              `due-checks queue refused ${entries.length} checks: ${JSON.stringify(result.Failed)}`,
            );
          if (entries.length > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        }
      }
    },
  };
}
