/**
 * Pure derivations shared by applyReport, renderRouteMap and the scheduled checks: planned times from
 * the legs, which milestone a status belongs to, and the actual of every milestone.
 */
import type { MilestoneName } from "../carrier-messages/types.ts";
import { samePlace } from "../time/places.ts";
import { addMinutes } from "../time/station-time.ts";
import type { CarrierPlanningConfig } from "./planning-config.ts";
import type { PlannedLeg, ShipmentState, StoredStatus } from "./shipment-state.ts";
import type { MilestoneStatus } from "./spec-types.ts";

export const ORIGIN_MILESTONES = ["FWB", "LAT", "RCS"] as const satisfies readonly MilestoneName[];
export const ROUTING_MILESTONES = ["DEP", "ARR", "RCF"] as const satisfies readonly MilestoneName[];
export const DESTINATION_MILESTONES = ["NFD", "AWD", "DLV"] as const satisfies readonly MilestoneName[];

export function milestoneKey(station: string, name: MilestoneName): string {
  return `${station}:${name}`;
}

/** Identity of a flight on a leg: a change of it is a routing replan. */
export function flightIdentity(leg: {
  carrierCode: string;
  flightNumber: string;
  flightDay: number;
  flightMonth: number;
  origin: string;
  destination: string;
}): string {
  return `${leg.carrierCode}${leg.flightNumber}/${leg.flightDay}-${leg.flightMonth}/${leg.origin}-${leg.destination}`;
}

export interface PlannedTime {
  name: MilestoneName;
  station: string;
  plannedUtc: string;
}

/** Planned times from the schedule and the carrier's offsets (DESIGN.md section 4). */
export function computePlannedTimes(
  legs: readonly PlannedLeg[],
  origin: string,
  destination: string,
  config: CarrierPlanningConfig,
): Record<string, PlannedTime> {
  const o = config.offsets;
  const planned: Record<string, PlannedTime> = {};
  const put = (station: string, name: MilestoneName, plannedUtc: string, keyStation = station) => {
    planned[milestoneKey(keyStation, name)] = { name, station, plannedUtc };
  };
  const firstStd = legs[0]?.stdUtc ?? null;
  if (firstStd) {
    put(origin, "FWB", addMinutes(firstStd, -o.fwbBeforeFirstStd));
    put(origin, "LAT", addMinutes(firstStd, -o.latBeforeFirstStd));
    put(origin, "RCS", addMinutes(firstStd, -o.rcsBeforeFirstStd));
  }
  for (const leg of legs) {
    if (leg.stdUtc) put(leg.origin, "DEP", addMinutes(leg.stdUtc, o.depAfterStd));
    if (leg.staUtc) {
      const arr = leg.roadFeeder ? o.arrAfterStaRoadFeeder : o.arrAfterSta;
      const rcf = leg.roadFeeder ? o.rcfAfterStaRoadFeeder : o.rcfAfterSta;
      put(leg.destination, "ARR", addMinutes(leg.staUtc, arr), leg.origin);
      put(leg.destination, "RCF", addMinutes(leg.staUtc, rcf), leg.origin);
    }
  }
  const lastSta = legs[legs.length - 1]?.staUtc ?? null;
  if (lastSta) {
    put(destination, "NFD", addMinutes(lastSta, o.nfdAfterLastSta));
    put(destination, "AWD", addMinutes(lastSta, o.awdAfterLastSta));
    put(destination, "DLV", addMinutes(lastSta, o.dlvAfterLastSta));
  }
  return planned;
}

/**
 * Where a milestone is shown: where it happened. A report from an airport of the city the plan names
 * (AWD at ARN for an AWB to STO) shows that airport; a report from any other station keeps `station`.
 */
export function whereReported(station: string, reported: string | null | undefined): string {
  return reported && reported !== station && samePlace(station, reported) ? reported : station;
}

/** A route map is planned ("isRM") once some milestone has a planned time; before that it is Simple. */
export function isPlanned(state: ShipmentState): boolean {
  return Object.keys(state.planned).length > 0;
}

function sameFlight(leg: PlannedLeg, status: StoredStatus): boolean {
  return (
    status.flight !== null &&
    status.flight.carrierCode === leg.carrierCode &&
    status.flight.flightNumber === leg.flightNumber
  );
}

/** Day and month of the day before, in the year of `atUtc` (1MAR -> 28FEB or 29FEB). */
function dayBefore(day: number, month: number, atUtc: string): { day: number; month: number } {
  const d = new Date(Date.UTC(Number(atUtc.slice(0, 4)), month - 1, day - 1));
  return { day: d.getUTCDate(), month: d.getUTCMonth() + 1 };
}

/**
 * Whether a status names the flight of this departure date. An ARR or RCF may name its own (arrival)
 * date: after midnight that is the day after the flight's, so the day before matches too.
 */
function sameFlightDay(flight: { flightDay: number; flightMonth: number }, status: StoredStatus): boolean {
  const f = status.flight;
  if (f === null) return false;
  if (f.flightDay === flight.flightDay && f.flightMonth === flight.flightMonth) return true;
  if (status.status === "DEP") return false;
  const before = dayBefore(f.flightDay, f.flightMonth, status.atUtc);
  return before.day === flight.flightDay && before.month === flight.flightMonth;
}

/**
 * The leg a routing status belongs to: DEP by departure station, ARR/RCF by arrival station; a leg
 * flying the reported flight on its day is preferred, then the reported flight on any day, else the
 * first leg at that station (a status for a flight not in the plan is shown on the leg it belongs to
 * by station). The station as booked is preferred; failing that, one place with it (an ARR at ARN
 * on a leg booked to the city STO).
 */
function legIndexForStatus(legs: readonly PlannedLeg[], status: StoredStatus): number {
  const legStation = (leg: PlannedLeg) => (status.status === "DEP" ? leg.origin : leg.destination);
  for (const atStation of [
    (leg: PlannedLeg) => legStation(leg) === status.station,
    (leg: PlannedLeg) => samePlace(legStation(leg), status.station),
  ]) {
    const byDay = legs.findIndex(
      (leg) => atStation(leg) && sameFlight(leg, status) && sameFlightDay(leg, status),
    );
    if (byDay >= 0) return byDay;
    const byFlight = legs.findIndex((leg) => atStation(leg) && sameFlight(leg, status));
    if (byFlight >= 0) return byFlight;
    const byStation = legs.findIndex(atStation);
    if (byStation >= 0) return byStation;
  }
  return -1;
}

/**
 * Milestone key of a status: RCS is the origin's, NFD/AWD/DLV the destination's, DEP/ARR/RCF the
 * key of their leg (by departure station). A routing status matching no leg keeps its own station.
 */
export function milestoneKeyForStatus(
  state: Pick<ShipmentState, "origin" | "destination">,
  legs: readonly PlannedLeg[],
  status: StoredStatus,
): string {
  switch (status.status) {
    case "RCS":
      return milestoneKey(state.origin, "RCS");
    case "NFD":
    case "AWD":
    case "DLV":
      return milestoneKey(state.destination, status.status);
    default: {
      const leg = legs[legIndexForStatus(legs, status)];
      return milestoneKey(leg ? leg.origin : status.station, status.status);
    }
  }
}

/**
 * Legs to show. With a booking, the booked ones. Without (Simple route map), one leg per flight named
 * in DEP/ARR/RCF statuses, its stations from those statuses (else the AWB origin/destination), in the
 * order the flights were first reported. A flight is its number and departure date: an ARR or RCF
 * naming the day after a reported DEP of the same flight (it arrived after midnight) joins that leg.
 */
export function displayLegs(state: ShipmentState): PlannedLeg[] {
  if (state.legs.length > 0) return state.legs;
  const byFlight = new Map<
    string,
    { leg: PlannedLeg; firstAt: string; hasOrigin: boolean; hasDest: boolean }
  >();
  const flightKey = (carrierCode: string, flightNumber: string, day: number, month: number) =>
    `${carrierCode}${flightNumber}/${day}-${month}`;
  // DEPs first, so an ARR finds its flight's departure whatever order the statuses sort in.
  const routing = state.statuses.filter(
    (s) => s.flight !== null && (ROUTING_MILESTONES as readonly string[]).includes(s.status),
  );
  const ordered = [
    ...routing.filter((s) => s.status === "DEP"),
    ...routing.filter((s) => s.status !== "DEP"),
  ];
  for (const status of ordered) {
    const f = status.flight;
    if (f === null) continue;
    let key = flightKey(f.carrierCode, f.flightNumber, f.flightDay, f.flightMonth);
    if (status.status !== "DEP" && !byFlight.has(key)) {
      const before = dayBefore(f.flightDay, f.flightMonth, status.atUtc);
      const previousKey = flightKey(f.carrierCode, f.flightNumber, before.day, before.month);
      if (byFlight.get(previousKey)?.hasOrigin) key = previousKey;
    }
    const entry = byFlight.get(key) ?? {
      leg: {
        carrierCode: f.carrierCode,
        flightNumber: f.flightNumber,
        flightDay: f.flightDay,
        flightMonth: f.flightMonth,
        origin: state.origin,
        destination: state.destination,
        stdUtc: null,
        staUtc: null,
        roadFeeder: false,
        bookedQuantity: null,
      },
      firstAt: status.atUtc,
      hasOrigin: false,
      hasDest: false,
    };
    if (status.atUtc < entry.firstAt) entry.firstAt = status.atUtc;
    // Statuses are sorted by id, so the first DEP (ARR/RCF) station seen is deterministic.
    if (status.status === "DEP" && !entry.hasOrigin) {
      entry.leg.origin = status.station;
      entry.hasOrigin = true;
    } else if (status.status !== "DEP" && !entry.hasDest) {
      entry.leg.destination = status.station;
      entry.hasDest = true;
    }
    byFlight.set(key, entry);
  }
  return [...byFlight.entries()]
    .sort(([ka, a], [kb, b]) =>
      a.firstAt === b.firstAt ? (ka < kb ? -1 : 1) : a.firstAt < b.firstAt ? -1 : 1,
    )
    .map(([, entry]) => entry.leg);
}

export interface MilestoneActual {
  atUtc: string;
  /** Reported pieces (largest of the reports), null when none said. */
  pieces: number | null;
  /** The report that set the time (earliest). */
  status: StoredStatus | null;
}

/**
 * Actual of every milestone key: the earliest report wins the time (order-independent), the largest
 * reported piece count is shown. LAT takes the RCS actual; FWB the first FWB receipt.
 */
export function actualsByKey(
  state: ShipmentState,
  legs: readonly PlannedLeg[],
): Map<string, MilestoneActual> {
  const actuals = new Map<string, MilestoneActual>();
  for (const status of state.statuses) {
    const key = milestoneKeyForStatus(state, legs, status);
    const current = actuals.get(key);
    const pieces =
      current && current.pieces !== null && (status.pieces === null || current.pieces > status.pieces)
        ? current.pieces
        : (status.pieces ?? current?.pieces ?? null);
    if (!current || status.atUtc < current.atUtc) {
      actuals.set(key, { atUtc: status.atUtc, pieces, status });
    } else {
      current.pieces = pieces;
    }
  }
  const rcs = actuals.get(milestoneKey(state.origin, "RCS"));
  if (rcs) actuals.set(milestoneKey(state.origin, "LAT"), { ...rcs });
  if (state.fwbReceivedAt) {
    actuals.set(milestoneKey(state.origin, "FWB"), {
      atUtc: state.fwbReceivedAt,
      pieces: state.total?.pieces ?? null,
      status: null,
    });
  }
  return actuals;
}

/**
 * Milestone status at `now` (DESIGN.md section 4): Ok if actual <= planned, Ko if later, Missing if
 * planned < now without actual, else Planned. Without a plan a reported milestone is Ok.
 */
export function judgeMilestone(
  plannedUtc: string | null,
  actualUtc: string | null,
  now: string,
): MilestoneStatus {
  if (actualUtc !== null) return plannedUtc === null || actualUtc <= plannedUtc ? "Ok" : "Ko";
  if (plannedUtc !== null && plannedUtc < now) return "Missing";
  return "Planned";
}
