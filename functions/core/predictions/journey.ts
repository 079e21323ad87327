/**
 * A route map's journey as predictions see it: the milestones that can be predicted (RCS; DEP, ARR and
 * RCF per leg; NFD, AWD, DLV), in order, each with its plan, its actual, the milestone its time
 * follows from, and the lanes its lateness is learnt on.
 *
 * A departure follows its flight's schedule, so DEP (and RCS, which the first departure's plan fixes)
 * is anchored to its own plan; every other milestone follows the one before it (ARR after its DEP,
 * RCF after its ARR, NFD after the last RCF, AWD after NFD, DLV after AWD), so a reported delay moves
 * everything after it. What is learnt is the lateness a milestone adds: against its plan when anchored
 * there, else against the plan's gap from the milestone it follows.
 */
import type { MilestoneName } from "../carrier-messages/types.ts";
import { actualsByKey, milestoneKey } from "../route-map/derive.ts";
import type { ShipmentState } from "../route-map/shipment-state.ts";
import { toPair } from "../time/station-time.ts";

export const PREDICTED_MILESTONES = [
  "RCS",
  "DEP",
  "ARR",
  "RCF",
  "NFD",
  "AWD",
  "DLV",
] as const satisfies readonly MilestoneName[];
export type PredictedMilestoneName = (typeof PREDICTED_MILESTONES)[number];

/**
 * Where a milestone's lateness is counted, coarse to fine: the carrier (`carrierItem`), the lane
 * (`laneItem`: carrier x origin x destination, of the leg or of the shipment), then finer levels
 * inside the lane's item: a leg's flight and weekday, a shipment's weekday and hour of day. Each
 * level corrects the one before it (their effects add up), so a lane's item holds one small cell
 * per flight, weekday and hour, not one per combination.
 */
export interface LanePath {
  carrierItem: string;
  laneItem: string;
  /** Sub-levels inside the lane item, in the order they are applied ("f=LH400", "d=1"). */
  levels: string[];
  /** The lane and its levels as people read them ("LH FRA-JFK", "LH FRA-JFK LH400", ...). */
  labels: string[];
}

export interface JourneyMilestone {
  /** The milestone key of the route map (`FRA:DEP`). */
  key: string;
  name: PredictedMilestoneName;
  station: string;
  /** "LH400" for a leg's milestones, null for the origin's and destination's. */
  flight: string | null;
  legIndex: number | null;
  plannedUtc: string | null;
  actualUtc: string | null;
  /** Index in the journey of the milestone this one follows; null: anchored to its own plan. */
  after: number | null;
  lanes: LanePath;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/** Weekday (0 = Sunday) and hour of a UTC instant at a station, in its local time (UTC if unknown). */
export function localWeekdayAndHour(station: string, utc: string): { weekday: number; hour: number } {
  let local = utc;
  try {
    local = toPair(station, utc).Local;
  } catch {
    // A station without a known zone: UTC still gives a stable weekday and hour to learn on.
  }
  const date = new Date(`${local.slice(0, 19)}Z`);
  return { weekday: date.getUTCDay(), hour: date.getUTCHours() };
}

function legLanes(
  leg: { carrierCode: string; flightNumber: string; origin: string; destination: string },
  station: string,
  plannedUtc: string | null,
): LanePath {
  const lane = `${leg.carrierCode} ${leg.origin}-${leg.destination}`;
  const flight = `${leg.carrierCode}${leg.flightNumber}`;
  const levels = [`f=${flight}`];
  const labels = [lane, `${lane} ${flight}`];
  if (plannedUtc) {
    const { weekday } = localWeekdayAndHour(station, plannedUtc);
    levels.push(`d=${weekday}`);
    labels.push(`${lane} ${flight} ${WEEKDAYS[weekday]}`);
  }
  return {
    carrierItem: `CAR|${leg.carrierCode}`,
    laneItem: `LEG|${leg.carrierCode}|${leg.origin}|${leg.destination}`,
    levels,
    labels,
  };
}

function shipmentLanes(
  state: Pick<ShipmentState, "awb" | "origin" | "destination">,
  station: string,
  plannedUtc: string | null,
): LanePath {
  const lane = `${state.awb.prefix} ${state.origin}-${state.destination}`;
  const levels: string[] = [];
  const labels = [lane];
  if (plannedUtc) {
    const { weekday, hour } = localWeekdayAndHour(station, plannedUtc);
    const hh = String(hour).padStart(2, "0");
    levels.push(`d=${weekday}`, `h=${hh}`);
    labels.push(`${lane} ${WEEKDAYS[weekday]}`, `${lane} ${WEEKDAYS[weekday]} ${hh}h`);
  }
  return {
    carrierItem: `CAR|${state.awb.prefix}`,
    laneItem: `SHP|${state.awb.prefix}|${state.origin}|${state.destination}`,
    levels,
    labels,
  };
}

/** The journey of a booked route map (empty without legs: nothing to predict from). */
export function journeyOf(state: ShipmentState): JourneyMilestone[] {
  const legs = state.legs;
  if (legs.length === 0) return [];
  const actuals = actualsByKey(state, legs);
  const journey: JourneyMilestone[] = [];
  const push = (
    name: PredictedMilestoneName,
    key: string,
    station: string,
    leg: { index: number; value: (typeof legs)[number] } | null,
    after: number | null,
  ): number => {
    const plannedUtc = state.planned[key]?.plannedUtc ?? null;
    journey.push({
      key,
      name,
      station,
      flight: leg ? `${leg.value.carrierCode}${leg.value.flightNumber}` : null,
      legIndex: leg ? leg.index : null,
      plannedUtc,
      actualUtc: actuals.get(key)?.atUtc ?? null,
      after,
      lanes: leg ? legLanes(leg.value, station, plannedUtc) : shipmentLanes(state, station, plannedUtc),
    });
    return journey.length - 1;
  };
  push("RCS", milestoneKey(state.origin, "RCS"), state.origin, null, null);
  let last: number | null = null;
  legs.forEach((value, index) => {
    const leg = { index, value };
    const dep = push("DEP", milestoneKey(value.origin, "DEP"), value.origin, leg, null);
    const arr = push("ARR", milestoneKey(value.origin, "ARR"), value.destination, leg, dep);
    last = push("RCF", milestoneKey(value.origin, "RCF"), value.destination, leg, arr);
  });
  const nfd = push("NFD", milestoneKey(state.destination, "NFD"), state.destination, null, last);
  const awd = push("AWD", milestoneKey(state.destination, "AWD"), state.destination, null, nfd);
  push("DLV", milestoneKey(state.destination, "DLV"), state.destination, null, awd);
  return journey;
}

const MINUTE_MS = 60_000;
export const minutesBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / MINUTE_MS;

/**
 * The lateness a reported milestone added (minutes): against its plan when anchored there, else
 * against the plan's gap from the milestone it follows (which must be reported too). null when the
 * plan or an actual needed is missing.
 */
export function addedLateness(journey: readonly JourneyMilestone[], index: number): number | null {
  const m = journey[index];
  if (!m || m.actualUtc === null || m.plannedUtc === null) return null;
  if (m.after === null) return minutesBetween(m.plannedUtc, m.actualUtc);
  const before = journey[m.after];
  if (!before || before.actualUtc === null || before.plannedUtc === null) return null;
  return minutesBetween(before.actualUtc, m.actualUtc) - minutesBetween(before.plannedUtc, m.plannedUtc);
}
