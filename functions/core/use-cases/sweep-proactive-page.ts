/**
 * A ProActive rule created (or updated, or enabled) after a milestone already went Missing still fires
 * at planned + ProActiveTime (DESIGN.md section 4: rules created after a route map was planned still
 * apply). The "missing" check scheduled proactive checks only for the rules existing then, so saving
 * such a rule requests a sweep: over the route maps the rule's owner may read (the byReader index:
 * its agent's AWBs and its XTD grants, never a scan), every milestone the rule listens to that is
 * overdue and still unreported, and whose planned + N is still ahead, gets its proactive check.
 *
 * The sweep is not done in the request that saved the rule: a forwarder may have thousands of open
 * route maps. The rule routes only queue a request (ProActiveSweepQueue); the due-checks queue handler
 * runs it one page at a time (`sweepProActivePage`) and queues the next page with a cursor, so no
 * page is bounded by anything but its size and no invocation runs long. Upserts by deterministic name,
 * so a repeated page, two overlapping sweeps, or a sweep meeting a "missing" check add nothing.
 */

import { awbKey } from "../awb.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import { matchesFilters, type NotificationRule } from "../notifications/index.ts";
import type {
  CheckScheduler,
  PlannedCheck,
  ProActiveSweepQueue,
  ProActiveSweepRequest,
  SweepCursor,
} from "../ports/checks.ts";
import type { SubscriptionRepository } from "../ports/notifications.ts";
import type { RouteMapRecord, RouteMapRepository, RouteMapSearchFields } from "../ports/route-maps.ts";
import { isAwaited, proActiveCheckAt, proActiveKey } from "../route-map/due-checks.ts";
import type { RouteMapStatus } from "../route-map/spec-types.ts";
import { addMinutes, parseUtc } from "../time/station-time.ts";
import { dispatchChecks, proActiveProbe } from "./shared/due-checks.ts";
import { needsProActiveSweep } from "./shared/proactive-sweeps.ts";
import { readerKeysOf } from "./shared/read-access.ts";

/** Everything but Cancelled can still have unreported milestones (AtDestination awaits NFD..DLV). */
const OPEN_STATUSES: RouteMapStatus[] = ["Booked", "Accepted", "OnAir", "AtDestination"];
/**
 * Route maps created earlier than this cannot have a milestone due in the future in practice (a
 * shipment's whole plan spans days; history is kept 30 days): it bounds the index query.
 */
const LOOKBACK_MINUTES = 30 * 24 * 60;
/** Route maps per page: one page's reads and schedule upserts stay well inside one invocation. */
export const SWEEP_PAGE_SIZE = 100;
/** Route maps read at once (GetItem each): bounded so one sweep cannot starve the table. */
export const SWEEP_READ_CONCURRENCY = 10;

export interface SweepProActivePageDeps {
  routeMaps: Pick<RouteMapRepository, "get" | "queryReaders">;
  subscriptions: Pick<SubscriptionRepository, "getRule">;
  checks: CheckScheduler;
  sweeps: ProActiveSweepQueue;
}

/**
 * swept: a page was processed; rule-gone: deleted, disabled or no longer ProActive (nothing to do);
 * superseded: the rule changed since the request (the change queued its own sweep).
 */
export type SweepOutcome = "swept" | "rule-gone" | "superseded";

export interface SweepPageResult {
  outcome: SweepOutcome;
  /** Route maps read on this page. */
  routeMaps: number;
  scheduled: number;
  queued: number;
  /** The continuation queued, null when the sweep is complete (or stopped). */
  next: ProActiveSweepRequest | null;
}

/**
 * One page: re-reads the rule (a rule deleted, disabled or changed meanwhile sweeps nothing), reads
 * the next SWEEP_PAGE_SIZE route maps of the current reader key, schedules the overdue milestones'
 * proactive checks, then queues the continuation, last, so a failure anywhere before retries this
 * page (the queue redelivers the message) rather than skipping it.
 */
export async function sweepProActivePage(
  deps: SweepProActivePageDeps,
  input: { sweep: ProActiveSweepRequest; now: string },
): Promise<SweepPageResult> {
  const { sweep, now } = input;
  const nothing = { routeMaps: 0, scheduled: 0, queued: 0, next: null };
  const rule = await deps.subscriptions.getRule(sweep.forwarderId, sweep.ruleId);
  if (!rule || !needsProActiveSweep(rule)) return { outcome: "rule-gone", ...nothing };
  if (rule.updatedAt !== sweep.ruleUpdatedAt) return { outcome: "superseded", ...nothing };

  const cursor: SweepCursor = sweep.cursor ?? { reader: 0, createdAtOrBefore: null, sweptAtBound: [] };
  const readerKey = readerKeysOf(rule.owner)[cursor.reader];
  if (!readerKey) return { outcome: "swept", ...nothing };
  const limit = SWEEP_PAGE_SIZE + cursor.sweptAtBound.length;
  const found = await deps.routeMaps.queryReaders({
    readerKey,
    filters: {
      creationDate: { from: addMinutes(now, -LOOKBACK_MINUTES), to: cursor.createdAtOrBefore },
      deliveryDate: null,
      receiptDate: null,
      airlinePrefix: rule.airlinePrefix,
      awbNumber: rule.awbSerial,
      origin: rule.origin,
      destination: rule.destination,
      statuses: OPEN_STATUSES,
    },
    limit,
  });
  const skipped = new Set(cursor.sweptAtBound);
  const page = found.filter((fields) => !skipped.has(fields.AirlinePrefix + fields.AwbNumber));

  const records = await readAll(deps.routeMaps, page);
  const checks = records.flatMap((record) => overdueProActiveChecks(record, rule, now));
  const dispatched = await dispatchChecks(deps.checks, checks, now);

  const next = continuation(sweep, cursor, page, found.length === limit, readerKeysOf(rule.owner).length);
  if (next) await deps.sweeps.request(next);
  return { outcome: "swept", routeMaps: page.length, ...dispatched, next };
}

/** The next page: further down this reader key when the page was full, else the next reader key. */
function continuation(
  sweep: ProActiveSweepRequest,
  cursor: SweepCursor,
  page: readonly RouteMapSearchFields[],
  full: boolean,
  readers: number,
): ProActiveSweepRequest | null {
  const last = page.at(-1);
  if (full && last) {
    const bound = last.CreationDate;
    const atBound = page.filter((f) => f.CreationDate === bound).map((f) => f.AirlinePrefix + f.AwbNumber);
    const carried = cursor.createdAtOrBefore === bound ? cursor.sweptAtBound : [];
    return {
      ...sweep,
      cursor: { reader: cursor.reader, createdAtOrBefore: bound, sweptAtBound: [...carried, ...atBound] },
    };
  }
  if (cursor.reader + 1 >= readers) return null;
  return { ...sweep, cursor: { reader: cursor.reader + 1, createdAtOrBefore: null, sweptAtBound: [] } };
}

/** The page's route maps, SWEEP_READ_CONCURRENCY reads at a time (one GetItem each). */
async function readAll(
  routeMaps: Pick<RouteMapRepository, "get">,
  page: readonly RouteMapSearchFields[],
): Promise<RouteMapRecord[]> {
  const awbs: AwbId[] = page.map((fields) => ({ prefix: fields.AirlinePrefix, serial: fields.AwbNumber }));
  const records: RouteMapRecord[] = [];
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < awbs.length; i = next++) {
      const awb = awbs[i];
      const record = awb ? await routeMaps.get(awb) : null;
      if (record) records.push(record);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SWEEP_READ_CONCURRENCY, awbs.length) }, reader));
  return records;
}

/** The proactive checks one route map needs for this rule: overdue, unreported, planned + N ahead. */
function overdueProActiveChecks(record: RouteMapRecord, rule: NotificationRule, now: string): PlannedCheck[] {
  if (rule.alert.kind !== "ProActive") return [];
  const minutes = rule.alert.minutes;
  const raised = new Set(record.state.proActive ?? []);
  const checks: PlannedCheck[] = [];
  for (const [milestoneKey, milestone] of Object.entries(record.state.planned)) {
    if (!(rule.events as readonly string[]).includes(milestone.name)) continue;
    // A milestone not yet due gets its proactive checks from its own "missing" check, and only if
    // it is really missed then: sweeping it now would schedule checks for on-time milestones.
    if (parseUtc(milestone.plannedUtc) >= parseUtc(now)) continue;
    const at = proActiveCheckAt(milestone.plannedUtc, minutes);
    if (parseUtc(at) <= parseUtc(now)) continue; // not retroactive: the interval already passed
    if (!isAwaited(record.state, milestoneKey, milestone.plannedUtc)) continue;
    if (raised.has(proActiveKey(milestoneKey, milestone.plannedUtc, minutes))) continue;
    const probe = proActiveProbe(record, milestoneKey, now);
    // The matcher's own filters (audience, carrier, AWB, stations), so the sweep never schedules a
    // check the rule could not hear.
    if (!probe || !matchesFilters({ kind: "rule", rule }, probe)) continue;
    checks.push({
      input: {
        awb: awbKey(record.awb),
        milestoneKey,
        plannedUtc: milestone.plannedUtc,
        check: "proactive",
        minutes,
      },
      at,
    });
  }
  return checks;
}
