/**
 * (Re)plans the timed checks of one route map (DESIGN.md section 2: route-map write -> due checks ->
 * EventBridge Scheduler). Called for every RMP outbox event, so it runs after each plan and replan,
 * at least once. It reads the CURRENT state, never the event, so a late or repeated RMP converges on
 * the same schedules: one "missing" check per unreported planned milestone, named deterministically
 * (a replan updates the schedule, moving the check, instead of adding one).
 */

import { awbKey } from "../awb.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import { type DueCheckInput, dueChecks, missingCheckAt } from "../route-map/due-checks.ts";
import { parseUtc } from "../time/station-time.ts";
import type { RouteMapRepository } from "./ports.ts";

/** A check to run at `at` (ISO UTC). */
export interface PlannedCheck {
  input: DueCheckInput;
  at: string;
}

/** A check for the due-checks queue now, delivered after `delaySeconds` (0..900, SQS's bound). */
export interface QueuedCheck {
  input: DueCheckInput;
  delaySeconds: number;
}

export interface CheckScheduler {
  /** Upserts one one-time schedule per check (create, or update the one of the same name). */
  schedule(checks: readonly PlannedCheck[]): Promise<void>;
  /** Sends checks straight to the due-checks queue (the handler of fired schedules reads it too). */
  enqueue(checks: readonly QueuedCheck[]): Promise<void>;
}

/**
 * Checks due within this many seconds are queued with an SQS delay instead of scheduled: a one-time
 * schedule must lie in the future when Scheduler receives it, and it fires with one-minute precision
 * anyway. Milestones already overdue (Missing at planning time) are queued at once.
 */
export const ENQUEUE_WINDOW_SECONDS = 60;

export interface DispatchResult {
  scheduled: number;
  queued: number;
}

/** Splits checks into schedules (later) and queue messages (due now or within the window). */
export async function dispatchChecks(
  scheduler: CheckScheduler,
  checks: readonly PlannedCheck[],
  now: string,
): Promise<DispatchResult> {
  const nowMs = parseUtc(now);
  const later: PlannedCheck[] = [];
  const soon: QueuedCheck[] = [];
  for (const check of checks) {
    const waitSeconds = Math.ceil((parseUtc(check.at) - nowMs) / 1000);
    if (waitSeconds > ENQUEUE_WINDOW_SECONDS) later.push(check);
    else soon.push({ input: check.input, delaySeconds: Math.max(0, waitSeconds) });
  }
  if (later.length > 0) await scheduler.schedule(later);
  if (soon.length > 0) await scheduler.enqueue(soon);
  return { scheduled: later.length, queued: soon.length };
}

export interface PlanDueChecksDeps {
  routeMaps: Pick<RouteMapRepository, "get">;
  checks: CheckScheduler;
}

export interface PlanDueChecksInput {
  awb: AwbId;
  now: string;
}

/**
 * One "missing" check per planned milestone without an actual, at planned + 1 s. A milestone already
 * recorded Missing is still checked (at once): that check changes nothing itself but schedules the
 * ProActive checks of the rules existing then (run-due-check.ts).
 */
export async function planDueChecks(
  deps: PlanDueChecksDeps,
  input: PlanDueChecksInput,
): Promise<DispatchResult> {
  const record = await deps.routeMaps.get(input.awb);
  if (!record) return { scheduled: 0, queued: 0 };
  const awb = awbKey(record.awb);
  const checks: PlannedCheck[] = dueChecks(record.state).map((due) => ({
    input: { awb, milestoneKey: due.milestoneKey, plannedUtc: due.plannedUtc, check: "missing" },
    at: missingCheckAt(due.plannedUtc),
  }));
  return dispatchChecks(deps.checks, checks, input.now);
}
