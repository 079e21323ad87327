/**
 * Due-checks queue (EventBridge Scheduler's target, direct sends of checks already due, and ProActive
 * sweep pages), with partial batch failures. A check runs run-due-check.ts; one that arrives before
 * its time fails its record, so SQS hands it back after the visibility timeout. A sweep message runs
 * one page of sweep-proactive-page.ts, which queues the next page itself. A malformed body is
 * dropped (retrying cannot fix it). Both use cases are idempotent: a message delivered twice is safe.
 */
import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import * as v from "valibot";
import { DueCheckInputSchema } from "../../adapters/check-scheduler.ts";
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { ProActiveSweepMessageSchema } from "../../adapters/proactive-sweep-queue.ts";
import { traced } from "../../adapters/tracer.ts";
import { CheckNotDueError } from "../../core/errors.ts";
import { type RunDueCheckDeps, runDueCheck } from "../../core/use-cases/run-due-check.ts";
import {
  type SweepProActivePageDeps,
  sweepProActivePage,
} from "../../core/use-cases/sweep-proactive-page.ts";
import { checkScheduler, conflictBackoff, proActiveSweeps, routeMaps, subscriptions } from "../../wiring.ts";

const DueChecksMessageSchema = v.pipe(
  v.string(),
  v.parseJson(),
  v.union([ProActiveSweepMessageSchema, DueCheckInputSchema]),
);

export const make = (
  deps: () => RunDueCheckDeps & SweepProActivePageDeps,
  { now = nowIso }: { now?: () => string } = {},
) => {
  const processor = new BatchProcessor(EventType.SQS);
  const handleRecord = async (record: SQSRecord) => {
    const parsed = v.safeParse(DueChecksMessageSchema, record.body);
    if (!parsed.success) {
      logger.error("due-checks message with an unreadable body: dropped", { messageId: record.messageId });
      return;
    }
    const message = parsed.output;
    if ("kind" in message) {
      const { next, ...page } = await sweepProActivePage(deps(), { sweep: message, now: now() });
      const { reader = 0, createdAtOrBefore = null } = message.cursor ?? {};
      logger.info("proactive sweep page", {
        ruleId: message.ruleId,
        reader,
        createdAtOrBefore,
        ...page,
        more: !!next,
      });
      return;
    }
    const result = await runDueCheck(deps(), { check: message, now: now() });
    logger.info("due check", { ...message, ...result });
    if (result.outcome === "early")
      throw new CheckNotDueError(`${message.check} check of ${message.milestoneKey} is early`);
  };
  return (event: SQSEvent, context: Context) =>
    processPartialResponse(event, handleRecord, processor, { context });
};

export const handler = traced(
  make(() => ({
    routeMaps: routeMaps(),
    subscriptions: subscriptions(),
    checks: checkScheduler(),
    sweeps: proActiveSweeps(),
    backoff: conflictBackoff(),
  })),
);
