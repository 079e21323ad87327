/**
 * A ProActive rule created (or enabled) after a milestone already went Missing still fires at
 * planned + ProActiveTime (DESIGN.md section 4: rules created after a route map was planned still
 * apply). The "missing" check scheduled proactive checks only for the rules existing then, so the
 * rule-creation flow calls this sweep: over the route maps the rule's owner may read (the byReader
 * index: its agent's AWBs and its XTD grants, never a scan), every milestone the rule listens to that
 * is overdue and still unreported, and whose planned + N is still ahead, gets its proactive check. Upserts by
 * deterministic name, so repeating the sweep, or overlapping with a "missing" check, adds nothing.
 */
import { awbKey } from "../awb.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import { matchesFilters, type NotificationRule } from "../notifications/index.ts";
import { isAwaited, proActiveCheckAt, proActiveKey } from "../route-map/due-checks.ts";
import type { RouteMapStatus } from "../route-map/spec-types.ts";
import { addMinutes, parseUtc } from "../time/station-time.ts";
import {
  type CheckScheduler,
  type DispatchResult,
  dispatchChecks,
  type PlannedCheck,
} from "./plan-due-checks.ts";
import type { RouteMapRepository } from "./ports.ts";
import { proActiveProbe } from "./run-due-check.ts";

/** Everything but Cancelled can still have unreported milestones (AtDestination awaits NFD..DLV). */
const OPEN_STATUSES: RouteMapStatus[] = ["Booked", "Accepted", "OnAir", "AtDestination"];
/**
 * Route maps created earlier than this cannot have a milestone due in the future in practice (a
 * shipment's whole plan spans days; history is kept 30 days): it bounds the index query.
 */
const LOOKBACK_MINUTES = 30 * 24 * 60;
/** Per reader key; a forwarder with more open route maps than this is swept partially (logged). */
export const SWEEP_LIMIT = 5000;

export interface ScheduleProActiveForRuleDeps {
  routeMaps: Pick<RouteMapRepository, "get" | "queryReaders">;
  checks: CheckScheduler;
}

export interface SweepResult extends DispatchResult {
  routeMaps: number;
  /** true when a reader key had SWEEP_LIMIT route maps (some may have been left out). */
  truncated: boolean;
}

export async function scheduleProActiveForRule(
  deps: ScheduleProActiveForRuleDeps,
  input: { rule: NotificationRule; now: string },
): Promise<SweepResult> {
  const { rule, now } = input;
  const none: SweepResult = { scheduled: 0, queued: 0, routeMaps: 0, truncated: false };
  if (rule.alert.kind !== "ProActive" || !rule.enabled) return none;
  const minutes = rule.alert.minutes;

  const awbs = new Map<string, AwbId>();
  let truncated = false;
  for (const readerKey of [
    `AGT#${rule.owner.agentCode}#${rule.owner.agentCass}`,
    `FWD#${rule.owner.forwarderId}`,
  ]) {
    const found = await deps.routeMaps.queryReaders({
      readerKey,
      filters: {
        creationDate: { from: addMinutes(now, -LOOKBACK_MINUTES), to: null },
        deliveryDate: null,
        receiptDate: null,
        airlinePrefix: rule.airlinePrefix,
        awbNumber: rule.awbSerial,
        origin: rule.origin,
        destination: rule.destination,
        statuses: OPEN_STATUSES,
      },
      limit: SWEEP_LIMIT,
    });
    truncated ||= found.length >= SWEEP_LIMIT;
    for (const fields of found) {
      const awb = { prefix: fields.AirlinePrefix, serial: fields.AwbNumber };
      awbs.set(awbKey(awb), awb);
    }
  }

  const checks: PlannedCheck[] = [];
  for (const awb of awbs.values()) {
    const record = await deps.routeMaps.get(awb);
    if (!record) continue;
    const raised = new Set(record.state.proActive ?? []);
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
  }
  const dispatched = await dispatchChecks(deps.checks, checks, now);
  return { ...dispatched, routeMaps: awbs.size, truncated };
}
