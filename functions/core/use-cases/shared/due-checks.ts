/**
 * What the timed-check use cases share: queueing checks due soon or scheduling later ones, and the
 * ProActive probe that finds the rules a milestone may alert.
 */

import type { DomainEvent } from "../../events.ts";
import type { CheckScheduler, PlannedCheck, QueuedCheck } from "../../ports/checks.ts";
import type { RouteMapRecord } from "../../ports/route-maps.ts";
import { missedEventDraft } from "../../route-map/missed-milestones.ts";
import { parseUtc } from "../../time/station-time.ts";
import { toDomainEvents } from "./route-map-writes.ts";

/**
 * The ProActive event a milestone would raise, without an interval: the probe whose lookup keys and
 * filters find every ProActive rule that may hear about it (audience, carrier, AWB, stations, enabled).
 */
export function proActiveProbe(
  record: RouteMapRecord,
  milestoneKey: string,
  now: string,
): DomainEvent | null {
  const milestone = record.state.planned[milestoneKey];
  if (!milestone) return null;
  const draft = { ...missedEventDraft(record.state, milestoneKey, milestone), type: "ProActive" as const };
  return toDomainEvents([draft], record, now)[0] ?? null;
}

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
