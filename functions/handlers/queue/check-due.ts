/**
 * Due-checks queue (EventBridge Scheduler's target, and direct sends of checks already due): runs
 * each check (functions/core/use-cases/run-due-check.ts) with partial batch failures. A check that
 * arrives before its time fails its record, so SQS hands it back after the visibility timeout; a
 * malformed body is dropped (retrying cannot fix it). The use case is idempotent: a check delivered
 * twice records its fact once.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import * as v from "valibot";
import { jitteredBackoff } from "../../adapters/backoff.ts";
import { eventBridgeCheckScheduler } from "../../adapters/check-scheduler.ts";
import { nowIso } from "../../adapters/clock.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import { dynamoSubscriptionRepository } from "../../adapters/subscription-repository.ts";
import { type RunDueCheckDeps, runDueCheck } from "../../core/use-cases/run-due-check.ts";

const logger = new Logger({ serviceName: "route-map-tracker" });

export const DueCheckInputSchema = v.object({
  awb: v.pipe(v.string(), v.regex(/^\d{11}$/)),
  milestoneKey: v.pipe(v.string(), v.minLength(1)),
  plannedUtc: v.pipe(v.string(), v.isoTimestamp()),
  check: v.picklist(["missing", "proactive"]),
  minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

const DueCheckMessageSchema = v.pipe(v.string(), v.parseJson(), DueCheckInputSchema);

export class CheckNotDueError extends Error {}

export function createCheckDueHandler(deps: () => RunDueCheckDeps, now: () => string = nowIso) {
  const processor = new BatchProcessor(EventType.SQS);
  const checkRecord = async (record: SQSRecord) => {
    const parsed = v.safeParse(DueCheckMessageSchema, record.body);
    if (!parsed.success) {
      logger.error("due check with an unreadable body: dropped", { messageId: record.messageId });
      return;
    }
    const check = parsed.output;
    const result = await runDueCheck(deps(), { check, now: now() });
    logger.info("due check", { ...check, ...result });
    if (result.outcome === "early")
      throw new CheckNotDueError(`${check.check} check of ${check.milestoneKey} is early`);
  };
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, checkRecord, processor, { context });
}

let deps: RunDueCheckDeps | undefined;
export const handler = createCheckDueHandler(() => {
  deps ??= {
    routeMaps: dynamoRouteMapRepository(),
    subscriptions: dynamoSubscriptionRepository(),
    checks: eventBridgeCheckScheduler(),
    backoff: jitteredBackoff,
  };
  return deps;
});
