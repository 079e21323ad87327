/**
 * Runs one fired check (DESIGN.md section 4 "Rules", section 9 "Alerts").
 *
 * "missing": a milestone still unreported after its planned time becomes Missing — a new snapshot and
 * an outbox Missed event in one write, the same change path as ingest (optimistic concurrency), so
 * MissedEventAlert rules fire through the matcher. Then, while the milestone is still awaited, one
 * "proactive" check per distinct ProActiveTime of the ProActive rules that may hear about it, at
 * planned + N (future only): schedules exist only where such rules exist.
 * "proactive": still unreported at planned + N -> an outbox ProActive event carrying N (only rules
 * with that ProActiveTime match); reported meanwhile, even late (Ko) -> nothing.
 *
 * Idempotent: the check names the planned time it was made for (a replan makes it stale) and the
 * state remembers what was raised (`missed`, `proActive`), so a check delivered twice writes once.
 */

import { awbKey, parseAwb } from "../awb.ts";
import { WriteConflictError } from "../errors.ts";
import { eventLookupKeys, matchesFilters } from "../notifications/index.ts";
import type { CheckScheduler, PlannedCheck } from "../ports/checks.ts";
import type { SubscriptionRepository } from "../ports/notifications.ts";
import type { ConflictBackoff, RouteMapRecord, RouteMapRepository } from "../ports/route-maps.ts";
import {
  checkDueAt,
  type DueCheckInput,
  isAwaited,
  markMissing,
  markProActive,
  proActiveCheckAt,
  proActiveKey,
} from "../route-map/due-checks.ts";
import { normaliseUtc, parseUtc } from "../time/station-time.ts";
import { dispatchChecks, proActiveProbe } from "./shared/due-checks.ts";
import { MAX_WRITE_ATTEMPTS, routeMapChange } from "./shared/route-map-writes.ts";

export interface RunDueCheckDeps {
  routeMaps: Pick<RouteMapRepository, "get" | "write">;
  subscriptions: Pick<SubscriptionRepository, "findCandidates">;
  checks: CheckScheduler;
  backoff: ConflictBackoff;
}

/**
 * recorded: this run wrote the Missing/ProActive fact; already-recorded: an earlier delivery did;
 * stale: replanned, reported, cancelled or unknown (nothing to do, ever); early: not due yet (the
 * caller retries it later).
 */
export type DueCheckOutcome = "recorded" | "already-recorded" | "stale" | "early";

export interface RunDueCheckResult {
  outcome: DueCheckOutcome;
  /** ProActiveTime values a "missing" check scheduled proactive checks for. */
  proActiveMinutes: number[];
}

export async function runDueCheck(
  deps: RunDueCheckDeps,
  input: { check: DueCheckInput; now: string },
): Promise<RunDueCheckResult> {
  const { check, now } = input;
  const parsed = parseAwb(check.awb);
  if (!parsed.ok) return { outcome: "stale", proActiveMinutes: [] };
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    const record = await deps.routeMaps.get(parsed.awb);
    if (!record || !isAwaited(record.state, check.milestoneKey, check.plannedUtc))
      return { outcome: "stale", proActiveMinutes: [] };
    if (normaliseUtc(now) < checkDueAt(check)) return { outcome: "early", proActiveMinutes: [] };

    const result =
      check.check === "missing"
        ? markMissing(record.state, check.milestoneKey, check.plannedUtc, now)
        : markProActive(record.state, check.milestoneKey, check.plannedUtc, check.minutes ?? 0, now);
    let current = record;
    if (result.changed) {
      const change = routeMapChange(record, result.state, result.events, now, record.xtdForwarders);
      // A ProActive alert records a fact about the route map, not a change of it: no snapshot.
      const write = check.check === "proactive" ? { ...change, snapshot: null } : change;
      if ((await deps.routeMaps.write(write)) !== "written") {
        await deps.backoff(attempt);
        continue;
      }
      current = write.next;
    }
    const outcome = result.changed ? "recorded" : "already-recorded";
    if (check.check !== "missing") return { outcome, proActiveMinutes: [] };
    const minutes = await scheduleProActiveChecks(deps, current, check.milestoneKey, now);
    return { outcome, proActiveMinutes: minutes };
  }
  throw new WriteConflictError(parsed.awb);
}

/** Proactive checks (future only) for the distinct ProActiveTime values of the rules existing now. */
async function scheduleProActiveChecks(
  deps: RunDueCheckDeps,
  record: RouteMapRecord,
  milestoneKey: string,
  now: string,
): Promise<number[]> {
  const probe = proActiveProbe(record, milestoneKey, now);
  const plannedUtc = record.state.planned[milestoneKey]?.plannedUtc;
  if (!probe || !plannedUtc || !isAwaited(record.state, milestoneKey, plannedUtc)) return [];
  const candidates = await deps.subscriptions.findCandidates(eventLookupKeys(probe));
  const raised = new Set(record.state.proActive ?? []);
  const minutes = new Set<number>();
  for (const candidate of candidates) {
    if (candidate.kind !== "rule" || candidate.rule.alert.kind !== "ProActive") continue;
    if (!matchesFilters(candidate, probe)) continue;
    const n = candidate.rule.alert.minutes;
    const futureOnly = parseUtc(proActiveCheckAt(plannedUtc, n)) > parseUtc(now);
    if (futureOnly && !raised.has(proActiveKey(milestoneKey, plannedUtc, n))) minutes.add(n);
  }
  const sorted = [...minutes].sort((a, b) => a - b);
  const checks: PlannedCheck[] = sorted.map((n) => ({
    input: { awb: awbKey(record.awb), milestoneKey, plannedUtc, check: "proactive", minutes: n },
    at: proActiveCheckAt(plannedUtc, n),
  }));
  if (checks.length > 0) await dispatchChecks(deps.checks, checks, now);
  return sorted;
}
