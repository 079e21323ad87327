/**
 * (Re)plans the timed checks of one route map (DESIGN.md section 2: route-map write -> due checks ->
 * EventBridge Scheduler). Called for every RMP outbox event, so it runs after each plan and replan,
 * at least once. It reads the CURRENT state, never the event, so a late or repeated RMP converges on
 * the same schedules: one "missing" check per unreported planned milestone, named deterministically
 * (a replan updates the schedule, moving the check, instead of adding one).
 */

import { awbKey } from "../awb.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import type { CheckScheduler, PlannedCheck, QueuedCheck } from "../ports/checks.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import { dueChecks, missingCheckAt } from "../route-map/due-checks.ts";
import { parseUtc } from "../time/station-time.ts";

/**
 * Checks due within this many seconds are queued with an SQS delay instead of scheduled: a one-time
 * schedule must lie in the future when Scheduler receives it, and it fires with one-minute precision
 * anyway. Milestones already overdue (Missing at planning time) are queued at once.
 */
const ENQUEUE_WINDOW_SECONDS = 60;

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
