/**
 * Due checks on EventBridge Scheduler (CheckScheduler port): one one-time `at()` schedule per check in
 * SCHEDULE_GROUP_NAME, target the due-checks queue (DUE_CHECKS_QUEUE_ARN) with SCHEDULER_ROLE_ARN and
 * the check as the message body, FlexibleTimeWindow OFF, ActionAfterCompletion DELETE (fired checks do
 * not count against the schedule quota), dead letters to SCHEDULER_DLQ_ARN. Names are derived from
 * AWB + milestone + check (+ minutes): CreateSchedule, and on ConflictException UpdateSchedule, so a
 * replan moves a check instead of adding one. Checks already due go straight to DUE_CHECKS_QUEUE_URL.
 * Throttling is retried here with jittered backoff (on top of the SDK's own retries), so a burst of
 * replans slows down rather than failing the stream batch.
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
import { QUEUES, queueArnEnvVar } from "../../lib/definitions.ts";
import type { DueCheckInput } from "../core/route-map/due-checks.ts";
import type { CheckScheduler, PlannedCheck, QueuedCheck } from "../core/use-cases/plan-due-checks.ts";
import { requiredEnv, scheduler, sqs } from "./aws-clients.ts";

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

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, rounded up to the whole second (never fires early). */
export function atExpression(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO time: ${iso}`);
  return `at(${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19)})`;
}

export interface CheckSchedulerConfig {
  groupName: string;
  roleArn: string;
  queueArn: string;
  queueUrl: string;
  deadLetterArn: string | null;
}

export function checkSchedulerConfigFromEnv(env: NodeJS.ProcessEnv = process.env): CheckSchedulerConfig {
  return {
    groupName: env.SCHEDULE_GROUP_NAME || "default",
    roleArn: requiredEnv("SCHEDULER_ROLE_ARN"),
    queueArn: requiredEnv(queueArnEnvVar(QUEUES.dueChecks)),
    queueUrl: requiredEnv(QUEUES.dueChecks.envVar),
    deadLetterArn: env.SCHEDULER_DLQ_ARN || null,
  };
}

export function scheduleRequest(
  check: PlannedCheck,
  config: CheckSchedulerConfig,
): CreateScheduleCommandInput {
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

const isThrottle = (error: unknown) =>
  error instanceof Error &&
  (error.name === "ThrottlingException" ||
    error.name === "ServiceQuotaExceededException" ||
    error.name === "TooManyRequestsException");

async function withThrottleRetry<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isThrottle(error) || attempt > MAX_THROTTLE_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5000, 100 * 2 ** attempt)));
    }
  }
}

/** Create, or update the schedule of that name; one that fired and deleted itself meanwhile is created. */
async function upsert(request: CreateScheduleCommandInput): Promise<void> {
  for (let round = 0; round < 3; round++) {
    try {
      await withThrottleRetry(() => scheduler().send(new CreateScheduleCommand(request)));
      return;
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
    try {
      await withThrottleRetry(() => scheduler().send(new UpdateScheduleCommand(request)));
      return;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
  throw new Error(`schedule ${request.Name} kept changing under create/update`);
}

export function eventBridgeCheckScheduler(
  config: () => CheckSchedulerConfig = checkSchedulerConfigFromEnv,
): CheckScheduler {
  return {
    async schedule(checks: readonly PlannedCheck[]) {
      const settings = config();
      const queue = checks.map((check) => scheduleRequest(check, settings));
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await upsert(next);
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
