/**
 * Retries further away than SQS's 15-minute delay (DESIGN.md section 5: 30 min, 2 h, 5 h, 10 h):
 * an EventBridge Scheduler one-time schedule whose target is the delivery queue itself, with the job
 * as the message body. The schedule deletes itself after it fired; one that cannot deliver goes to the
 * scheduler dead-letter queue (env SCHEDULER_DLQ_ARN), which is mandatory outside the local runner.
 * An exhausted Scheduler quota fails at once with a logged SchedulerQuotaExceededError (waiting
 * cannot help); the delivery handler then fails the job, which SQS retries and finally parks.
 *
 * Environment: SCHEDULE_GROUP_NAME, SCHEDULER_ROLE_ARN (may send to the delivery queue),
 * SCHEDULER_DLQ_ARN, and DELIVERY_QUEUE_ARN (derived from DELIVERY_QUEUE_URL when absent).
 */
import { createHash } from "node:crypto";
import { ConflictException, CreateScheduleCommand } from "@aws-sdk/client-scheduler";
import type { DeliveryJob, DeliveryRetryScheduler } from "../core/ports/notifications.ts";
import { scheduler } from "./aws-clients.ts";
import { atExpression, ensureDeadLetter, failOnQuota } from "./check-scheduler.ts";
import { config as deployment, type RetrySchedulerConfig } from "./config.ts";
import { countSchedulerError } from "./metrics.ts";

const MAX_NAME_LENGTH = 64;

/**
 * Schedule name of one retry: `retry-<delivery id>-<attempt>` with characters outside
 * [0-9a-zA-Z-_.] replaced; when that had to change anything or is longer than 64, a readable prefix
 * plus a hash of the exact id and attempt (so two different deliveries never share a name, and a
 * redelivered job finds its own schedule: ConflictException = already scheduled).
 */
export function retryScheduleName(deliveryId: string, attempt: number): string {
  const plain = `retry-${deliveryId}-${attempt}`;
  const safe = plain.replace(/[^0-9a-zA-Z_.-]/g, "_");
  if (safe === plain && safe.length <= MAX_NAME_LENGTH) return safe;
  const hash = createHash("sha256").update(`${deliveryId}\n${attempt}`).digest("hex").slice(0, 20);
  const suffix = `-${hash}-${attempt}`;
  return `${safe.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
}

// Read and validated in functions/adapters/config.ts; named here too, where the adapter's users look.
export { queueArnFromUrl, type RetrySchedulerConfig } from "./config.ts";

export function schedulerDeliveryRetryScheduler(
  config: () => RetrySchedulerConfig = deployment.retryScheduler,
): DeliveryRetryScheduler {
  return {
    async scheduleRetry(job: DeliveryJob, at: string) {
      const { groupName, roleArn, queueArn, deadLetterArn, local } = config();
      ensureDeadLetter(deadLetterArn, local);
      const name = retryScheduleName(job.deliveryId, job.attempt);
      try {
        await scheduler().send(
          new CreateScheduleCommand({
            Name: name,
            GroupName: groupName,
            ScheduleExpression: atExpression(at),
            ScheduleExpressionTimezone: "UTC",
            FlexibleTimeWindow: { Mode: "OFF" },
            ActionAfterCompletion: "DELETE",
            Description: `Delivery ${job.deliveryId}, attempt ${job.attempt}`.slice(0, 512),
            Target: {
              Arn: queueArn,
              RoleArn: roleArn,
              Input: JSON.stringify(job),
              ...(deadLetterArn ? { DeadLetterConfig: { Arn: deadLetterArn } } : {}),
            },
          }),
        );
      } catch (error) {
        // The same retry scheduled before (a redelivered job): it is already on its way.
        if (error instanceof ConflictException) return;
        countSchedulerError("CreateSchedule");
        throw failOnQuota(error, name);
      }
    },
  };
}
