/**
 * (Re)plans the timed checks of one route map (DESIGN.md section 2: route-map write -> due checks ->
 * EventBridge Scheduler). Called for every RMP outbox event, so it runs after each plan and replan,
 * at least once. It reads the CURRENT state, never the event, so a late or repeated RMP converges on
 * the same schedules: one "missing" check per unreported planned milestone, named deterministically
 * (a replan updates the schedule, moving the check, instead of adding one).
 */

import { awbKey } from "../awb.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import type { CheckScheduler, PlannedCheck } from "../ports/checks.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import { dueChecks, missingCheckAt } from "../route-map/due-checks.ts";
import type { DispatchResult } from "./shared/due-checks.ts";
import { dispatchChecks } from "./shared/due-checks.ts";

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
