/**
 * The reports that give actuals: a status message of a milestone (kept in a set keyed by code,
 * station, flight, actual time and pieces, so any arrival order ends alike, and raising its milestone
 * event), a cancellation (sticky), and a status message beyond the milestones (history only).
 */
import type { CancellationReport, OtherStatusReport, StatusReport } from "../carrier-messages/types.ts";
import { resolveNearPlan, resolveStationTime } from "../time/station-time.ts";
import { type ApplyResult, emptyState, type StepOutcome } from "./apply-step.ts";
import { displayLegs, milestoneKey, milestoneKeyForStatus, whereReported } from "./derive.ts";
import { buildMilestoneEventDraft, buildRouteMapEventDraft } from "./event-drafts.ts";
import { type Receipt, storedProvenance } from "./provenance.ts";
import { MAX_OTHER_STATUSES, type ShipmentState, type StoredStatus } from "./shipment-state.ts";
import { cloneQuantity, updateTotals } from "./shipment-totals.ts";

function statusId(s: Omit<StoredStatus, "id">): string {
  const flight = s.flight
    ? `${s.flight.carrierCode}${s.flight.flightNumber}/${s.flight.flightDay}-${s.flight.flightMonth}`
    : "-";
  return `${s.status}|${s.station}|${flight}|${s.atUtc}|${s.pieces ?? "-"}`;
}

/**
 * The actual of a status: a line without a time is placed at the message's receipt; a flight
 * status's time without day-change mark at the instant nearest its milestone's plan (resolveNearPlan),
 * once there is a plan; any other time as written.
 */
function actualOf(state: ShipmentState, report: StatusReport, receivedAt: string): string {
  if (report.time === null) return receivedAt;
  const written = resolveStationTime(report.station, report.time, receivedAt).Utc;
  if (report.status !== "DEP" && report.status !== "ARR" && report.status !== "RCF") return written;
  if (state.legs.length === 0) return written;
  const probe: StoredStatus = {
    id: "",
    status: report.status,
    station: report.station,
    flight: report.flight,
    atUtc: written,
    pieces: null,
    weight: null,
    weightCode: null,
    quantity: null,
  };
  const plannedUtc = state.planned[milestoneKeyForStatus(state, state.legs, probe)]?.plannedUtc ?? null;
  return resolveNearPlan(report.station, report.time, receivedAt, plannedUtc).Utc;
}

export function applyStatus(
  state: ShipmentState,
  report: StatusReport,
  receivedAt: string,
  outcome: StepOutcome,
  receipt?: Receipt,
): void {
  updateTotals(state, report.total, false, outcome);
  const base: Omit<StoredStatus, "id"> = {
    status: report.status,
    station: report.station,
    flight: report.flight ? { ...report.flight } : null,
    atUtc: actualOf(state, report, receivedAt),
    pieces: report.quantity?.pieces ?? null,
    weight: report.quantity?.weight ?? null,
    weightCode: report.quantity?.weightCode ?? null,
    quantity: cloneQuantity(report.quantity),
  };
  const id = statusId(base);
  if (state.statuses.some((s) => s.id === id)) return;
  const stored: StoredStatus = { id, ...base, ...(receipt ? { p: storedProvenance(report, receipt) } : {}) };
  const rcsSettledBefore = state.statuses.some((s) => s.status === "RCS");
  state.statuses = [...state.statuses, stored].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const legs = displayLegs(state);
  const key = milestoneKeyForStatus(state, legs, stored);
  const planned = state.planned[key];
  const leg = legs.find((l) => milestoneKey(l.origin, stored.status) === key);
  const flight =
    stored.flight ?? (leg ? { carrierCode: leg.carrierCode, flightNumber: leg.flightNumber } : null);
  const station = whereReported(
    stored.status === "RCS" ? state.origin : (planned?.station ?? stored.station),
    stored.station,
  );
  const common = {
    type: "Event" as const,
    eventStatus: "Update" as const,
    pieces: stored.pieces,
    weight: stored.weight,
    weightCode: stored.weightCode,
    reportedUtc: stored.atUtc,
  };
  outcome.events.push(
    buildMilestoneEventDraft(state, {
      ...common,
      name: stored.status,
      milestoneKey: key,
      station,
      flight: stored.status === "DEP" || stored.status === "ARR" || stored.status === "RCF" ? flight : null,
      plannedUtc: planned?.plannedUtc ?? null,
    }),
  );
  if (stored.status === "RCS" && !rcsSettledBefore) {
    // LAT is a deadline, never reported: the first RCS settles it (DESIGN.md section 9).
    const latKey = milestoneKey(state.origin, "LAT");
    outcome.events.push(
      buildMilestoneEventDraft(state, {
        ...common,
        name: "LAT",
        milestoneKey: latKey,
        station: state.origin,
        flight: null,
        plannedUtc: state.planned[latKey]?.plannedUtc ?? null,
      }),
    );
  }
}

export function applyCancellation(
  state: ShipmentState,
  report: CancellationReport,
  receivedAt: string,
  outcome: StepOutcome,
): void {
  if (state.cancelled) return;
  const station = report.station ?? state.origin;
  const atUtc = report.time ? resolveStationTime(station, report.time, receivedAt).Utc : receivedAt;
  state.cancelled = { atUtc, station };
  outcome.events.push(buildRouteMapEventDraft(state, "CAN", "Update"));
}

/**
 * Keeps a status message beyond the milestones as history: de-duplicated by code + station + time,
 * the newest MAX_OTHER_STATUSES. Only for a shipment we already track (none creates a route map);
 * the route map, LastUpdate and events stay as they were.
 */
export function applyOtherStatus(
  previous: ShipmentState | null,
  report: OtherStatusReport,
  receivedAt: string,
  receipt?: Receipt,
): ApplyResult {
  if (previous === null) return { state: emptyState(report, receivedAt), changed: false, events: [] };
  const atUtc = report.time ? resolveStationTime(report.station, report.time, receivedAt).Utc : receivedAt;
  const kept = previous.otherStatuses ?? [];
  const same = (o: { code: string; station: string; atUtc: string }) =>
    o.code === report.code && o.station === report.station && o.atUtc === atUtc;
  if (kept.some(same)) return { state: previous, changed: false, events: [] };
  const entry = {
    code: report.code,
    station: report.station,
    atUtc,
    carrierCode: report.flight?.carrierCode ?? null,
    flightNumber: report.flight?.flightNumber ?? null,
    pieces: report.pieces,
    ...(receipt ? { p: storedProvenance(report, receipt) } : {}),
  };
  const order = (o: typeof entry) => `${o.atUtc} ${o.code} ${o.station}`;
  const sorted = [...kept, entry].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const otherStatuses = sorted.slice(-MAX_OTHER_STATUSES);
  if (!otherStatuses.includes(entry)) return { state: previous, changed: false, events: [] };
  return {
    state: { ...structuredClone(previous), otherStatuses },
    changed: true,
    events: [],
    historyOnly: true,
  };
}
