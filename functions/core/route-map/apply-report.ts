/**
 * Applies one carrier report to a shipment's state (DESIGN.md sections 4 and 9). Pure: the receipt
 * time comes in as a value and nothing is mutated in place. Repeats change nothing; status messages
 * are kept as a set, so any arrival order ends in the same route map; bookings apply in receipt
 * order because a later booking replans.
 */

import { MONTH_ABBREVIATIONS } from "../carrier-messages/common.ts";
import type {
  AwbDataReport,
  BookingReport,
  CancellationReport,
  CarrierReport,
  FlightLeg,
  MilestoneName,
  OtherStatusReport,
  Quantity,
  SourceRef,
  StationTime,
  StatusReport,
} from "../carrier-messages/types.ts";
import { ShipmentMismatchError, UnplaceableMessageError } from "../errors.ts";
import type { DomainEventDraft } from "../events.ts";
import { earlierUtc, laterUtc, nearestYear, normaliseUtc, resolveStationTime } from "../time/station-time.ts";
import { requireStationTimeZone, stationTimeZone } from "../time/time-zones.ts";
import {
  actualsByKey,
  computePlannedTimes,
  displayLegs,
  flightIdentity,
  isPlanned,
  judgeMilestone,
  milestoneKey,
  milestoneKeyForStatus,
  ROUTING_MILESTONES,
} from "./derive.ts";
import { buildMilestoneEventDraft, buildRouteMapEventDraft } from "./event-drafts.ts";
import { type CarrierPlanningConfig, isRoadFeederLeg } from "./planning-config.ts";
import {
  MAX_OTHER_STATUSES,
  type PlannedLeg,
  type PlannedMilestone,
  SHIPMENT_STATE_SCHEMA_VERSION,
  type ShipmentState,
  type StoredStatus,
} from "./shipment-state.ts";

export interface ApplyContext {
  /** When the message was received, ISO UTC. */
  receivedAt: string;
  /** The reporting carrier's planning configuration (DEFAULT_PLANNING_CONFIG when none). */
  carrier: CarrierPlanningConfig;
}

export interface ApplyResult {
  state: ShipmentState;
  /** false: nothing to store, no events (a repeat, or a report that says nothing new). */
  changed: boolean;
  events: DomainEventDraft[];
  /**
   * true when only the history beyond the route map changed (a status message beyond the milestones):
   * the route map, its LastUpdate and events are as before, so the write keeps no snapshot.
   */
  historyOnly?: boolean;
}

/** What one apply step found out, turned into events at the end (one RMP per report at most). */
interface StepOutcome {
  events: DomainEventDraft[];
  routeMapChanged: boolean;
  /** Milestone keys a replan created or moved. */
  movedKeys: string[];
}

export function applyReport(
  previous: ShipmentState | null,
  report: CarrierReport,
  ctx: ApplyContext,
): ApplyResult {
  const receivedAt = normaliseUtc(ctx.receivedAt);
  if (previous && (previous.awb.prefix !== report.awb.prefix || previous.awb.serial !== report.awb.serial)) {
    throw new ShipmentMismatchError(
      `report for ${report.awb.prefix}-${report.awb.serial} applied to ${previous.awb.prefix}-${previous.awb.serial}`,
    );
  }
  assertKnownStations(report);
  if (report.kind === "other-status") return applyOtherStatus(previous, report, receivedAt);
  const state: ShipmentState = previous ? structuredClone(previous) : emptyState(report, receivedAt);
  const wasPlanned = isPlanned(state);
  const outcome: StepOutcome = { events: [], routeMapChanged: false, movedKeys: [] };

  switch (report.kind) {
    case "booking":
      applyBooking(state, report, ctx.carrier, receivedAt, outcome);
      break;
    case "awb-data":
      applyAwbData(state, report, ctx.carrier, receivedAt, outcome);
      break;
    case "status":
      applyStatus(state, report, receivedAt, outcome);
      break;
    case "cancellation":
      applyCancellation(state, report, receivedAt, outcome);
      break;
  }

  if (previous && sameContent(previous, state)) return { state: previous, changed: false, events: [] };

  const events = [...outcome.events];
  // Any change of a planned route map is a replan, even one that leaves it without planned times.
  if ((isPlanned(state) && !wasPlanned) || (wasPlanned && outcome.routeMapChanged)) {
    events.unshift(buildRouteMapEventDraft(state, "RMP", wasPlanned ? "Replan" : "Creation"));
  }
  if (isPlanned(state))
    events.push(...recordOverdue(state, receivedAt, wasPlanned ? outcome.movedKeys : null));

  if (previous) {
    state.lastUpdate = laterUtc(previous.lastUpdate, receivedAt);
    state.createdAt = earlierUtc(previous.createdAt, receivedAt);
  }
  return { state, changed: true, events };
}

/**
 * Refuses, before anything is stored, a report the core could not place: a station without a known
 * time zone, or a local time whose date does not exist in the year it is read in (29FEB nearest a
 * common year). Throws UnplaceableMessageError (422) naming the line (and XFSU/JSON path) where the carrier wrote
 * it, like the parsers' own errors. Depends only on the report and the receipt time, not on the state.
 */
export function assertPlaceable(report: CarrierReport, receivedAt: string): void {
  const station = (code: string, at: SourceRef) => {
    if (stationTimeZone(code) === null)
      throw new UnplaceableMessageError(at.line, "a known IATA airport code", code, at.path);
  };
  const time = (code: string, value: StationTime | null, at: SourceRef) => {
    if (value === null) return;
    const year = nearestYear(code, value, receivedAt);
    const date = new Date(Date.UTC(year, value.month - 1, value.day));
    if (date.getUTCMonth() === value.month - 1 && date.getUTCDate() === value.day) return;
    const expected =
      value.year === undefined
        ? `a date that exists in ${year}, the year nearest the time of receipt`
        : "a date that exists";
    throw new UnplaceableMessageError(at.line, expected, describeStationTime(value), at.path);
  };
  station(report.origin, report.sourceAt.origin);
  station(report.destination, report.sourceAt.destination);
  const at = report.sourceAt.report;
  const stationAt = report.sourceAt.station ?? at;
  const timeAt = report.sourceAt.time ?? at;
  switch (report.kind) {
    case "booking":
    case "awb-data":
      for (const leg of report.legs) {
        station(leg.origin, leg.at);
        station(leg.destination, leg.at);
        time(leg.origin, leg.scheduledDeparture, leg.at);
        time(leg.destination, leg.scheduledArrival, leg.at);
      }
      break;
    case "status":
    case "other-status":
      station(report.station, stationAt);
      time(report.station, report.time, timeAt);
      break;
    case "cancellation":
      if (report.station !== null) station(report.station, stationAt);
      time(report.station ?? report.origin, report.time, timeAt);
      break;
  }
}

/** A station time as the carrier wrote it: `29FEB1325` (Cargo-IMP) or `2027-02-29T13:25`. */
function describeStationTime(t: StationTime): string {
  const hhmm = `${String(t.hour).padStart(2, "0")}${String(t.minute).padStart(2, "0")}`;
  if (t.year === undefined)
    return `${String(t.day).padStart(2, "0")}${MONTH_ABBREVIATIONS[t.month - 1] ?? "???"}${hhmm}`;
  const date = `${t.year}-${String(t.month).padStart(2, "0")}-${String(t.day).padStart(2, "0")}`;
  return `${date}T${hhmm.slice(0, 2)}:${hhmm.slice(2)}`;
}

/** Every station the report names must have a time zone, so a bad message is a 400 and never stored. */
function assertKnownStations(report: CarrierReport): void {
  const stations = [report.origin, report.destination];
  if (report.kind === "booking" || report.kind === "awb-data") {
    for (const l of report.legs) stations.push(l.origin, l.destination);
  }
  if (report.kind === "status" || report.kind === "other-status") stations.push(report.station);
  if (report.kind === "cancellation" && report.station) stations.push(report.station);
  for (const station of stations) requireStationTimeZone(station);
}

function emptyState(report: CarrierReport, receivedAt: string): ShipmentState {
  return {
    schemaVersion: SHIPMENT_STATE_SCHEMA_VERSION,
    awb: { prefix: report.awb.prefix, serial: report.awb.serial },
    origin: report.origin,
    destination: report.destination,
    total: null,
    productCode: null,
    agent: null,
    createdAt: receivedAt,
    lastUpdate: receivedAt,
    fwbReceivedAt: null,
    cancelled: null,
    legs: [],
    planned: {},
    routingIsReplanned: false,
    isReplanned: false,
    statuses: [],
    missed: [],
  };
}

/**
 * Keeps a status message beyond the milestones as history: de-duplicated by code + station + time,
 * the newest MAX_OTHER_STATUSES. Only for a shipment we already track (none creates a route map);
 * the route map, LastUpdate and events stay as they were.
 */
function applyOtherStatus(
  previous: ShipmentState | null,
  report: OtherStatusReport,
  receivedAt: string,
): ApplyResult {
  if (previous === null) return { state: emptyState(report, receivedAt), changed: false, events: [] };
  const atUtc = resolveStationTime(report.station, report.time, receivedAt).Utc;
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

/** Key-order independent comparison (a state read back from DynamoDB may order keys differently). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Equal apart from the receipt bookkeeping (a repeat received later is still a repeat). */
function sameContent(a: ShipmentState, b: ShipmentState): boolean {
  const strip = (s: ShipmentState) => ({ ...s, lastUpdate: null, createdAt: null });
  return canonical(strip(a)) === canonical(strip(b));
}

function cloneQuantity(q: Quantity | null): Quantity | null {
  return q ? { ...q } : null;
}

/** New values win; a field the new message leaves out keeps the old value. */
function mergeQuantity(old: Quantity, next: Quantity): Quantity {
  return {
    pieces: next.pieces,
    weightCode: next.weight !== null ? next.weightCode : old.weightCode,
    weight: next.weight ?? old.weight,
    volumeCode: next.volume !== null ? next.volumeCode : old.volumeCode,
    volume: next.volume ?? old.volume,
  };
}

/** A value given for the first time (volume only on the FWB) fills in; only a different value is a change. */
function quantityChanged(old: Quantity, next: Quantity): boolean {
  return (
    old.pieces !== next.pieces ||
    (old.weight !== null && old.weight !== next.weight) ||
    (old.volume !== null && old.volume !== next.volume)
  );
}

/**
 * Bookings and FWBs carry the consignment totals; after the plan exists a change of pieces, weight or
 * volume is a replan (route map IsReplanned, RMP Replan). Status messages only fill totals in.
 */
function updateTotals(
  state: ShipmentState,
  total: Quantity | null,
  authoritative: boolean,
  outcome: StepOutcome,
): void {
  if (!total) return;
  if (!state.total) {
    state.total = cloneQuantity(total);
    return;
  }
  if (!authoritative) return;
  const merged = mergeQuantity(state.total, total);
  if (quantityChanged(state.total, merged) && isPlanned(state)) {
    state.isReplanned = true;
    outcome.routeMapChanged = true;
  }
  state.total = merged;
}

/**
 * FWB FLT lines give a day only (`flightMonth` 0, "not given"): take the month of the same flight
 * already known on that leg, else the month that puts the day nearest the receipt time. Without
 * this the flight's identity would differ from the booked one (a false routing replan that also
 * dropped the schedule) and FlightInfo.Date would have no month.
 */
function resolveFlightMonth(leg: FlightLeg, known: readonly PlannedLeg[], receivedAt: string): number {
  if (leg.flightMonth >= 1 && leg.flightMonth <= 12) return leg.flightMonth;
  const same = known.find(
    (k) =>
      k.carrierCode === leg.carrierCode &&
      k.flightNumber === leg.flightNumber &&
      k.flightDay === leg.flightDay &&
      k.origin === leg.origin,
  );
  if (same) return same.flightMonth;
  const received = new Date(receivedAt);
  const year = received.getUTCFullYear();
  const month = received.getUTCMonth();
  let best = month + 1;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const delta of [-1, 0, 1]) {
    const candidate = new Date(Date.UTC(year, month + delta, leg.flightDay));
    // Date.UTC rolls 31 APR over into May: such a day does not exist in that month.
    if (candidate.getUTCDate() !== leg.flightDay) continue;
    const distance = Math.abs(candidate.getTime() - received.getTime());
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate.getUTCMonth() + 1;
    }
  }
  return best;
}

function resolveLeg(
  leg: FlightLeg,
  config: CarrierPlanningConfig,
  receivedAt: string,
  known: readonly PlannedLeg[] = [],
): PlannedLeg {
  return {
    carrierCode: leg.carrierCode,
    flightNumber: leg.flightNumber,
    flightDay: leg.flightDay,
    flightMonth: resolveFlightMonth(leg, known, receivedAt),
    origin: leg.origin,
    destination: leg.destination,
    stdUtc: leg.scheduledDeparture
      ? resolveStationTime(leg.origin, leg.scheduledDeparture, receivedAt).Utc
      : null,
    staUtc: leg.scheduledArrival
      ? resolveStationTime(leg.destination, leg.scheduledArrival, receivedAt).Utc
      : null,
    roadFeeder: isRoadFeederLeg(leg, config),
    bookedQuantity: cloneQuantity(leg.quantity),
  };
}

/** A message without schedule or quantity for a known flight (FWB FLT lines) keeps what we knew. */
function inheritFromKnown(leg: PlannedLeg, known: readonly PlannedLeg[]): PlannedLeg {
  const same = known.find((k) => flightIdentity(k) === flightIdentity(leg));
  if (!same) return leg;
  return {
    ...leg,
    stdUtc: leg.stdUtc ?? same.stdUtc,
    staUtc: leg.staUtc ?? same.staUtc,
    bookedQuantity: leg.bookedQuantity ?? cloneQuantity(same.bookedQuantity),
  };
}

/**
 * Single-leg BKD: replaces the leg departing from its station, or adds it (kept in STD order), then
 * drops the legs the new one cuts off (see `legsCutOff`).
 */
function upsertLeg(state: ShipmentState, leg: PlannedLeg): PlannedLeg[] {
  const legs = state.legs;
  const index = legs.findIndex((l) => l.origin === leg.origin);
  let next: PlannedLeg[];
  if (index >= 0) {
    next = legs.map((l, i) => (i === index ? leg : l));
  } else {
    next = [...legs, leg];
    if (next.every((l) => l.stdUtc !== null)) {
      next.sort((a, b) =>
        (a.stdUtc ?? "") < (b.stdUtc ?? "") ? -1 : (a.stdUtc ?? "") > (b.stdUtc ?? "") ? 1 : 0,
      );
    }
  }
  const cutOff = legsCutOff(state, next).filter((l) => l !== leg);
  if (cutOff.length === 0) return next;
  // A leg with a reported DEP, ARR or RCF stays: it was flown, whatever a later booking says, and
  // dropping it would hide those actuals.
  const actuals = actualsByKey(state, legs);
  const flown = (l: PlannedLeg) =>
    ROUTING_MILESTONES.some((name) => actuals.has(milestoneKey(l.origin, name)));
  return next.filter((l) => !cutOff.includes(l) || flown(l));
}

/** Legs reachable from `start` by following each station's departing leg, in path order. */
function pathFrom(start: string, legs: readonly PlannedLeg[], stopAt: string): PlannedLeg[] {
  const path: PlannedLeg[] = [];
  const seen = new Set<string>();
  for (let station = start; station !== stopAt && !seen.has(station); ) {
    seen.add(station);
    const leg = legs.find((l) => l.origin === station);
    if (!leg) break;
    path.push(leg);
    station = leg.destination;
  }
  return path;
}

/**
 * Legs a single-leg BKD cut off. When the legs from the AWB origin now reach the destination, the
 * itinerary is complete and every leg off that path is cut off (a reroute FRA-JFK leaves CGN-JFK
 * behind). Otherwise only legs that were on the path from the origin before and are not any more:
 * legs of a booking that arrives piece by piece, not yet joined up, stay.
 */
function legsCutOff(state: ShipmentState, next: readonly PlannedLeg[]): PlannedLeg[] {
  const path = pathFrom(state.origin, next, state.destination);
  const complete = path.length > 0 && path.at(-1)?.destination === state.destination;
  if (complete) return next.filter((l) => !path.includes(l));
  const before = pathFrom(state.origin, state.legs, state.destination).map(flightIdentity);
  return next.filter((l) => !path.includes(l) && before.includes(flightIdentity(l)));
}

/** Origin and destination milestones carry the AWB's station in their key (`FRA:RCS`). */
const ORIGIN_NAMES: ReadonlySet<string> = new Set(["FWB", "LAT", "RCS"]);
const DESTINATION_NAMES: ReadonlySet<string> = new Set(["NFD", "AWD", "DLV"]);

/**
 * Installs a new itinerary (or new AWB origin/destination, `before` being the old ones) and re-plans:
 * milestones whose planned time moved, or whose leg now flies another flight, are marked IsReplanned
 * with the status they had just before (ArchivedStatus). A milestone that only changed station with
 * the AWB origin or destination keeps its flags under its new key.
 */
function replan(
  state: ShipmentState,
  legs: PlannedLeg[],
  config: CarrierPlanningConfig,
  receivedAt: string,
  outcome: StepOutcome,
  before: { origin: string; destination: string } = state,
): void {
  const itineraryChanged = canonical(legs) !== canonical(state.legs);
  if (!itineraryChanged && before.origin === state.origin && before.destination === state.destination) return;
  const wasPlanned = isPlanned(state);
  const oldView = { ...state, origin: before.origin, destination: before.destination };
  const oldActuals = actualsByKey(oldView, displayLegs(state));
  const oldKeyOf = (key: string, name: MilestoneName) =>
    ORIGIN_NAMES.has(name)
      ? milestoneKey(before.origin, name)
      : DESTINATION_NAMES.has(name)
        ? milestoneKey(before.destination, name)
        : key;
  const oldFlightByStation = new Map(state.legs.map((l) => [l.origin, flightIdentity(l)]));
  const flightsChanged =
    state.legs.length > 0 &&
    (state.legs.length !== legs.length ||
      state.legs.some((l, i) => flightIdentity(l) !== flightIdentity(legs[i] ?? l)));
  const changedLegStations = new Set(
    legs.filter((l) => oldFlightByStation.get(l.origin) !== flightIdentity(l)).map((l) => l.origin),
  );

  const plannedTimes = computePlannedTimes(legs, state.origin, state.destination, config);
  const planned: Record<string, PlannedMilestone> = {};
  for (const [key, time] of Object.entries(plannedTimes)) {
    const oldKey = oldKeyOf(key, time.name);
    const old = state.planned[oldKey];
    if (!old) {
      // A milestone that only exists in the new plan is itself a product of the replan.
      planned[key] = { ...time, isReplanned: wasPlanned, archivedStatus: null };
      outcome.movedKeys.push(key);
      continue;
    }
    const routing = time.name === "DEP" || time.name === "ARR" || time.name === "RCF";
    const legStation = key.slice(0, key.indexOf(":"));
    const moved = old.plannedUtc !== time.plannedUtc || (routing && changedLegStations.has(legStation));
    if (moved) outcome.movedKeys.push(key);
    planned[key] = moved
      ? {
          ...time,
          isReplanned: true,
          archivedStatus: judgeMilestone(old.plannedUtc, oldActuals.get(oldKey)?.atUtc ?? null, receivedAt),
        }
      : { ...time, isReplanned: old.isReplanned, archivedStatus: old.archivedStatus };
  }

  if (wasPlanned && (flightsChanged || canonical(planned) !== canonical(state.planned))) {
    outcome.routeMapChanged = true;
  }
  if (wasPlanned && flightsChanged) state.routingIsReplanned = true;
  state.legs = legs;
  state.planned = planned;
  // A booking that changes the itinerary after a cancellation books the shipment again.
  if (state.cancelled && itineraryChanged) {
    state.cancelled = null;
    outcome.routeMapChanged = true;
  }
}

function applyBooking(
  state: ShipmentState,
  report: BookingReport,
  config: CarrierPlanningConfig,
  receivedAt: string,
  outcome: StepOutcome,
): void {
  updateTotals(state, report.total, true, outcome);
  const resolved = report.legs.map((leg) =>
    inheritFromKnown(resolveLeg(leg, config, receivedAt, state.legs), state.legs),
  );
  if (resolved.length === 0) return;
  let legs: PlannedLeg[];
  if (report.wholeItinerary || resolved.length > 1) {
    legs = resolved;
  } else {
    // Cut-off legs and their milestones go; replan sees fewer flights: a routing replan.
    legs = upsertLeg(state, resolved[0] as PlannedLeg);
  }
  replan(state, legs, config, receivedAt, outcome);
}

function applyAwbData(
  state: ShipmentState,
  report: AwbDataReport,
  config: CarrierPlanningConfig,
  receivedAt: string,
  outcome: StepOutcome,
): void {
  const before = { origin: state.origin, destination: state.destination };
  state.origin = report.origin;
  state.destination = report.destination;
  if (report.agent) state.agent = { code: report.agent.code, cass: report.agent.cass };
  if (report.productCode) state.productCode = report.productCode;
  updateTotals(state, report.total, true, outcome);
  // FLT lines carry no schedule: they give the itinerary only while no booking has scheduled one
  // (DESIGN.md section 9, Itinerary). A re-sent FWB naming a flight from before a rebooking must
  // not replace scheduled legs with unscheduled ones.
  const scheduled = state.legs.some((l) => l.stdUtc !== null || l.staUtc !== null);
  const legs =
    report.legs.length > 0 && !scheduled
      ? report.legs.map((leg) =>
          inheritFromKnown(resolveLeg(leg, config, receivedAt, state.legs), state.legs),
        )
      : state.legs;
  // Also when only the AWB origin or destination changed: their milestones move to the new station.
  replan(state, legs, config, receivedAt, outcome, before);
  const firstFwb = state.fwbReceivedAt === null;
  state.fwbReceivedAt = earlierUtc(state.fwbReceivedAt ?? receivedAt, receivedAt);
  if (firstFwb) {
    const key = milestoneKey(state.origin, "FWB");
    outcome.events.push(
      buildMilestoneEventDraft(state, {
        name: "FWB",
        type: "Event",
        eventStatus: "Update",
        milestoneKey: key,
        station: state.origin,
        flight: null,
        pieces: null,
        weight: null,
        weightCode: null,
        reportedUtc: receivedAt,
        plannedUtc: state.planned[key]?.plannedUtc ?? null,
      }),
    );
  }
}

function statusId(s: Omit<StoredStatus, "id">): string {
  const flight = s.flight
    ? `${s.flight.carrierCode}${s.flight.flightNumber}/${s.flight.flightDay}-${s.flight.flightMonth}`
    : "-";
  return `${s.status}|${s.station}|${flight}|${s.atUtc}|${s.pieces ?? "-"}`;
}

function applyStatus(
  state: ShipmentState,
  report: StatusReport,
  receivedAt: string,
  outcome: StepOutcome,
): void {
  updateTotals(state, report.total, false, outcome);
  const base: Omit<StoredStatus, "id"> = {
    status: report.status,
    station: report.station,
    flight: report.flight ? { ...report.flight } : null,
    atUtc: resolveStationTime(report.station, report.time, receivedAt).Utc,
    pieces: report.quantity?.pieces ?? null,
    weight: report.quantity?.weight ?? null,
    weightCode: report.quantity?.weightCode ?? null,
    quantity: cloneQuantity(report.quantity),
  };
  const stored: StoredStatus = { id: statusId(base), ...base };
  if (state.statuses.some((s) => s.id === stored.id)) return;
  const rcsSettledBefore = state.statuses.some((s) => s.status === "RCS");
  state.statuses = [...state.statuses, stored].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const legs = displayLegs(state);
  const key = milestoneKeyForStatus(state, legs, stored);
  const planned = state.planned[key];
  const leg = legs.find((l) => milestoneKey(l.origin, stored.status) === key);
  const flight =
    stored.flight ?? (leg ? { carrierCode: leg.carrierCode, flightNumber: leg.flightNumber } : null);
  const station = stored.status === "RCS" ? state.origin : (planned?.station ?? stored.station);
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

function applyCancellation(
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
 * Milestones already overdue when a plan is made, or when a replan creates or moves them, become
 * Missing at that moment (DESIGN.md section 9, Alerts): recorded once per planned time, so a later
 * markMissing for it changes nothing. `onlyKeys` null = every planned milestone (first plan).
 */
function recordOverdue(
  state: ShipmentState,
  receivedAt: string,
  onlyKeys: readonly string[] | null,
): DomainEventDraft[] {
  if (state.cancelled) return [];
  const actuals = actualsByKey(state, displayLegs(state));
  const events: DomainEventDraft[] = [];
  for (const [key, milestone] of Object.entries(state.planned)) {
    if (onlyKeys && !onlyKeys.includes(key)) continue;
    if (actuals.has(key) || milestone.plannedUtc >= receivedAt) continue;
    const missedKey = `${key}@${milestone.plannedUtc}`;
    if (state.missed.includes(missedKey)) continue;
    state.missed = [...state.missed, missedKey].sort();
    events.push(missedEventDraft(state, key, milestone));
  }
  return events;
}

/** The Missed event of a milestone that became Missing (scheduled check or plan made too late). */
export function missedEventDraft(
  state: ShipmentState,
  key: string,
  milestone: PlannedMilestone,
): DomainEventDraft {
  const legs = displayLegs(state);
  const legStation = key.slice(0, key.indexOf(":"));
  const routing = milestone.name === "DEP" || milestone.name === "ARR" || milestone.name === "RCF";
  const leg = routing ? legs.find((l) => l.origin === legStation) : undefined;
  return buildMilestoneEventDraft(state, {
    name: milestone.name,
    type: "Missed",
    eventStatus: "Update",
    milestoneKey: key,
    station: milestone.station,
    flight: leg ? { carrierCode: leg.carrierCode, flightNumber: leg.flightNumber } : null,
    pieces: null,
    weight: null,
    weightCode: null,
    reportedUtc: null,
    plannedUtc: milestone.plannedUtc,
  });
}
