/**
 * Times as carriers mean them, over the whole clock: a flight status's time without day-change mark
 * is the instant nearest its plan (within 12 h), a scheduled arrival without one is after its
 * departure. Every quarter hour of a day, every station zone of the generated table, and each zone's
 * DST days of the year: no outcome may depend on the hour a message is sent, received or tested.
 */
import { describe, expect, it } from "vitest";
import type { StationTime } from "../../../functions/core/carrier-messages/types.ts";
import {
  localToUtcMs,
  resolveAfter,
  resolveNearPlan,
  toPair,
} from "../../../functions/core/time/station-time.ts";
import { STATION_ZONES } from "../../../functions/core/time/station-zones.generated.ts";
import { stationTimeZone } from "../../../functions/core/time/time-zones.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const QUARTER_HOURS = Array.from({ length: 96 }, (_, i) => i * 15);
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** One station per zone of the generated table (a zone this runtime's Intl knows). */
const STATIONS = Object.entries(STATION_ZONES)
  .map(([zone, codes]) => ({ zone, station: codes.split(" ")[0] ?? "" }))
  .filter(({ zone, station }) => stationTimeZone(station) === zone);

/** Local wall clock of an instant at a station, as epoch ms of its UTC fields. */
const wallMs = (station: string, ms: number) => Date.parse(`${toPair(station, iso(ms)).Local}Z`);
const offsetMs = (station: string, ms: number) => wallMs(station, ms) - ms;

/** A Cargo-IMP time as the carrier writes it: the flight's local date, the event's local time, no year. */
function written(station: string, flightDateOf: number, eventMs: number): StationTime {
  const date = new Date(wallMs(station, flightDateOf));
  const clock = new Date(wallMs(station, eventMs));
  return {
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: clock.getUTCHours(),
    minute: clock.getUTCMinutes(),
    dayOffset: 0,
  };
}

/** The instant at local midnight of a date (UTC fields of `dayMs`) at a station. */
const localMidnight = (zone: string, dayMs: number) => localToUtcMs(zone, dayMs);

/** Days of 2026 (UTC midnight ms) on which the station's offset changes: its DST days. */
function dstDays(station: string): number[] {
  const days: number[] = [];
  for (let month = 0; month < 12; month++) {
    const from = Date.UTC(2026, month, 1, 12);
    const to = Date.UTC(2026, month + 1, 1, 12);
    if (offsetMs(station, from) === offsetMs(station, to)) continue;
    for (let day = from; day < to; day += DAY)
      if (offsetMs(station, day) !== offsetMs(station, day + DAY)) days.push(day + DAY - 12 * HOUR);
  }
  return days;
}

/**
 * The zones of the table by their rules in 2026: the offset on the first of each month and the DST
 * days. Zones alike in both behave alike at every hour, so one of each class runs every quarter hour
 * (and every zone runs a few).
 */
function zoneClasses(): Array<{ zone: string; station: string; days: number[] }> {
  const classes = new Map<string, { zone: string; station: string; days: number[] }>();
  for (const { zone, station } of STATIONS) {
    const days = dstDays(station);
    const offsets = Array.from({ length: 12 }, (_, month) => offsetMs(station, Date.UTC(2026, month, 1, 12)));
    const key = `${offsets.join(",")}|${days.join(",")}`;
    if (!classes.has(key)) classes.set(key, { zone, station, days });
  }
  return [...classes.values()];
}

/** Whether an instant's local wall clock names it alone (not in a DST overlap's second pass or gap). */
const unambiguous = (zone: string, station: string, ms: number) =>
  localToUtcMs(zone, wallMs(station, ms)) === ms;

/**
 * Deltas of the actual from its plan, cycled through the cases: early, on time and late, up to 10 h
 * (nearer 12 h a DST day's hour, or Troll's two, makes the other day as near: no rule can tell them).
 */
const DELTAS = [-600, -180, -30, 0, 30, 180, 600].map((m) => m * MINUTE);

describe("a flight status's time without day-change mark", () => {
  /** Checks one plan (local midnight of `day` + `minutes`) with an actual `delta` from it. */
  function check(zone: string, station: string, day: number, minutes: number, delta: number): boolean {
    const plan = localMidnight(zone, day) + minutes * MINUTE;
    const actual = plan + delta;
    if (!unambiguous(zone, station, actual) || !unambiguous(zone, station, plan)) return false;
    // Received any time up to 20 h later; the year comes from receipt, the day from the plan.
    const receivedAt = iso(Math.max(actual, plan) + ((minutes * 37) % (20 * 60)) * MINUTE);
    const read = resolveNearPlan(station, written(station, plan, actual), receivedAt, iso(plan));
    expect(read.Utc, `${station} plan ${iso(plan)} actual ${iso(actual)}`).toBe(iso(actual));
    return true;
  }
  const delta = (step: number) => DELTAS[step % DELTAS.length] ?? 0;

  it("is the instant nearest its plan, at every quarter hour, in every zone rule, on its DST days", () => {
    const classes = zoneClasses();
    let checked = 0;
    for (const [index, { zone, station, days }] of classes.entries()) {
      for (const day of [Date.UTC(2026, 5, 15), ...days]) {
        for (const minutes of QUARTER_HOURS)
          if (check(zone, station, day, minutes, delta(minutes / 15 + index))) checked++;
      }
    }
    expect(classes.length).toBeGreaterThan(40);
    expect(checked).toBeGreaterThan(classes.length * 90);
  }, 120_000);

  it("is the instant nearest its plan in every zone of the table, around the clock", () => {
    for (const [index, { zone, station }] of STATIONS.entries())
      for (const minutes of [0, 375, 750, 1425])
        check(zone, station, Date.UTC(2026, 10, 22), minutes, delta(index + minutes));
  }, 120_000);

  it("keeps its written date without a plan, and a time that names its day (year, offset, day change)", () => {
    const time = { month: 3, day: 14, hour: 0, minute: 20, dayOffset: 0 };
    expect(resolveNearPlan("FRA", time, "2026-03-15T06:00:00Z", null).Utc).toBe("2026-03-13T23:20:00Z");
    const plan = "2026-03-14T22:50:00Z";
    expect(resolveNearPlan("FRA", { ...time, year: 2026 }, "2026-03-15T06:00:00Z", plan).Utc).toBe(
      "2026-03-13T23:20:00Z",
    );
    expect(resolveNearPlan("FRA", { ...time, dayOffset: 1 }, "2026-03-15T06:00:00Z", plan).Utc).toBe(
      "2026-03-14T23:20:00Z",
    );
    // More than 12 h from the plan whichever day: as written.
    expect(
      resolveNearPlan("FRA", { ...time, hour: 11 }, "2026-03-15T06:00:00Z", "2026-03-15T22:50:00Z").Utc,
    ).toBe("2026-03-14T10:20:00Z");
  });
});

describe("a scheduled arrival without day-change mark", () => {
  it("is after its departure, at every quarter hour, in every zone pair tried", () => {
    const pairs: Array<[string, string]> = [
      ["HAJ", "JFK"],
      ["NRT", "HNL"],
      ["SYD", "LAX"],
      ["FRA", "DXB"],
      ["GRU", "LHR"],
    ];
    for (const [from, to] of pairs) {
      const zone = stationTimeZone(from) ?? "";
      for (const day of [Date.UTC(2026, 5, 15), ...dstDays(from), ...dstDays(to)]) {
        for (const minutes of QUARTER_HOURS) {
          const std = localMidnight(zone, day) + minutes * MINUTE;
          const sta = std + (60 + ((minutes * 7) % (14 * 60))) * MINUTE;
          if (!unambiguous(stationTimeZone(to) ?? "", to, sta)) continue;
          const time = written(to, std, sta);
          expect(resolveAfter(to, time, iso(std - DAY), iso(std)).Utc, `${from}-${to} ${iso(std)}`).toBe(
            iso(sta),
          );
        }
      }
    }
  });
});
