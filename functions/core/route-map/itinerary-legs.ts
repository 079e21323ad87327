/**
 * A booked or FWB leg as the plan keeps it: its flight month and schedule resolved (local station
 * times to UTC, near the receipt time), what an earlier message knew of the same flight, and where a
 * single-leg booking goes in the itinerary (the legs it replaces and cuts off).
 */
import type { FlightLeg } from "../carrier-messages/types.ts";
import { samePlace } from "../time/places.ts";
import { resolveAfter, resolveStationTime } from "../time/station-time.ts";
import { actualsByKey, flightIdentity, milestoneKey, ROUTING_MILESTONES } from "./derive.ts";
import { type CarrierPlanningConfig, isRoadFeederLeg } from "./planning-config.ts";
import type { PlannedLeg, ShipmentState } from "./shipment-state.ts";
import { cloneQuantity } from "./shipment-totals.ts";

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

export function resolveLeg(
  leg: FlightLeg,
  config: CarrierPlanningConfig,
  receivedAt: string,
  known: readonly PlannedLeg[] = [],
): PlannedLeg {
  const stdUtc = leg.scheduledDeparture
    ? resolveStationTime(leg.origin, leg.scheduledDeparture, receivedAt).Utc
    : null;
  return {
    carrierCode: leg.carrierCode,
    flightNumber: leg.flightNumber,
    flightDay: leg.flightDay,
    flightMonth: resolveFlightMonth(leg, known, receivedAt),
    origin: leg.origin,
    destination: leg.destination,
    stdUtc,
    staUtc: leg.scheduledArrival
      ? resolveAfter(leg.destination, leg.scheduledArrival, receivedAt, stdUtc).Utc
      : null,
    roadFeeder: isRoadFeederLeg(leg, config),
    bookedQuantity: cloneQuantity(leg.quantity),
  };
}

/** A message without schedule or quantity for a known flight (FWB FLT lines) keeps what we knew. */
export function inheritFromKnown(leg: PlannedLeg, known: readonly PlannedLeg[]): PlannedLeg {
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
export function upsertLeg(state: ShipmentState, leg: PlannedLeg): PlannedLeg[] {
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

/**
 * Legs reachable from `start` by following each station's departing leg, in path order. The AWB's
 * origin and destination may be city codes: the first leg may leave from an airport of the origin
 * city, and the path ends at an airport of the destination city.
 */
function pathFrom(start: string, legs: readonly PlannedLeg[], stopAt: string): PlannedLeg[] {
  const path: PlannedLeg[] = [];
  const seen = new Set<string>();
  for (let station = start; !samePlace(station, stopAt) && !seen.has(station); ) {
    seen.add(station);
    const leg =
      legs.find((l) => l.origin === station) ??
      (path.length === 0 ? legs.find((l) => samePlace(l.origin, station)) : undefined);
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
  const last = path.at(-1);
  const complete = last !== undefined && samePlace(last.destination, state.destination);
  if (complete) return next.filter((l) => !path.includes(l));
  const before = pathFrom(state.origin, state.legs, state.destination).map(flightIdentity);
  return next.filter((l) => !path.includes(l) && before.includes(flightIdentity(l)));
}
