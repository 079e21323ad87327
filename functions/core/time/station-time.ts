/**
 * Station-local time <-> UTC with the runtime's IANA data (Intl), no time-zone library. Carrier
 * messages carry wall-clock times without year or offset (DESIGN.md sections 4 and 9, Times).
 */

import type { StationTime } from "../carrier-messages/types.ts";
import { InvalidStationTimeError } from "../errors.ts";
import type { DateTimePair } from "../route-map/spec-types.ts";
import { requireStationTimeZone } from "./time-zones.ts";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Wall-clock time of `utcMs` in `zone`, expressed as if it were a UTC epoch value. */
function wallClockMs(zone: string, utcMs: number): number {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(utcMs))) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return Date.UTC(
    fields.year ?? 1970,
    (fields.month ?? 1) - 1,
    fields.day ?? 1,
    fields.hour ?? 0,
    fields.minute ?? 0,
    fields.second ?? 0,
  );
}

/** Offset of `zone` from UTC at instant `utcMs`, in ms (CEST: +7_200_000). Seconds are dropped. */
function zoneOffsetMs(zone: string, utcMs: number): number {
  const wholeSecond = Math.floor(utcMs / 1000) * 1000;
  return wallClockMs(zone, wholeSecond) - wholeSecond;
}

/**
 * UTC instant of a wall-clock time in `zone`. Candidate offsets are those in force a day before and a
 * day after (zones change at most once within that window). Overlap (autumn): the earlier instant.
 * Gap (spring): shifted forward by the gap, i.e. read with the offset before the change (02:30 on a
 * Berlin spring-forward day is 03:30 CEST) — the same choice as Temporal's "compatible".
 */
export function localToUtcMs(zone: string, wallMs: number): number {
  const before = zoneOffsetMs(zone, wallMs - DAY_MS);
  const after = zoneOffsetMs(zone, wallMs + DAY_MS);
  const valid = [...new Set([before, after])]
    .map((offset) => wallMs - offset)
    .filter((utcMs) => zoneOffsetMs(zone, utcMs) === wallMs - utcMs);
  if (valid.length > 0) return Math.min(...valid);
  return wallMs - before;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** "YYYY-MM-DDTHH:mm:ss" of an epoch value read as UTC fields. */
function isoSeconds(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(
    d.getUTCHours(),
  )}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Canonical UTC stamp for date-time pairs: "2026-11-22T10:05:00Z" (no milliseconds). */
export function formatUtc(ms: number): string {
  return `${isoSeconds(ms)}Z`;
}

/** Parses an ISO instant (with Z or an offset); throws RangeError on anything else. */
export function parseUtc(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || !/(Z|[+-]\d{2}:?\d{2})$/i.test(iso.trim())) {
    throw new RangeError(`not an ISO UTC instant: "${iso}"`);
  }
  return ms;
}

/** Normalises any ISO instant to the canonical "…Z" form without milliseconds (truncated). */
export function normaliseUtc(iso: string): string {
  return formatUtc(Math.floor(parseUtc(iso) / 1000) * 1000);
}

/** `iso` moved by `minutes`, canonical form. */
export function addMinutes(iso: string, minutes: number): string {
  return formatUtc(parseUtc(iso) + minutes * MINUTE_MS);
}

/** Renders a UTC instant as a date-time pair in the station's local time. */
export function toPair(station: string, utcIso: string): DateTimePair {
  const zone = requireStationTimeZone(station);
  const utcMs = Math.floor(parseUtc(utcIso) / 1000) * 1000;
  return { Utc: formatUtc(utcMs), Local: isoSeconds(wallClockMs(zone, utcMs)) };
}

/** Wall-clock epoch (UTC fields) of a station time in a given year, or null if the date does not exist. */
function wallMsInYear(time: StationTime, year: number): number | null {
  const ms = Date.UTC(year, time.month - 1, time.day, time.hour, time.minute);
  const d = new Date(ms);
  if (d.getUTCMonth() !== time.month - 1 || d.getUTCDate() !== time.day) return null;
  return ms;
}

/**
 * The station's local time at an exact instant, with the station's offset then: how a time sent with
 * a UTC offset (XFSU `2026-03-14T12:41:00Z`) becomes a station time whose UTC instant stays exact.
 * Seconds are dropped, as everywhere else. Throws UnknownStationError for an unknown station.
 */
export function stationTimeAt(station: string, utcMs: number): StationTime {
  const zone = requireStationTimeZone(station);
  const instantMs = Math.floor(utcMs / MINUTE_MS) * MINUTE_MS;
  const wallMs = wallClockMs(zone, instantMs);
  const d = new Date(wallMs);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    dayOffset: 0,
    utcOffsetMinutes: Math.round((wallMs - instantMs) / MINUTE_MS),
  };
}

/**
 * The year a day/month without year means: the one that puts it nearest `receivedMs` (a 31DEC time
 * received on 1 January is last year). A day that does not exist in some year (29FEB) is measured as
 * the day it rolls over to, so it is never moved to a leap year further away.
 */
function nearestYearIn(zone: string, time: StationTime, receivedMs: number): number {
  const receivedYear = new Date(receivedMs).getUTCFullYear();
  let best = receivedYear;
  let bestDistance = Number.POSITIVE_INFINITY;
  // Earlier years first, so an exact tie (never in practice) resolves to the past.
  for (const year of [receivedYear - 1, receivedYear, receivedYear + 1]) {
    const candidate = Date.UTC(year, time.month - 1, time.day, time.hour, time.minute);
    const distance = Math.abs(localToUtcMs(zone, candidate) - receivedMs);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = year;
    }
  }
  return best;
}

/** The year a station time without one is read in (its own year when it has one). */
export function nearestYear(station: string, time: StationTime, receivedAtUtc: string): number {
  if (time.year !== undefined) return time.year;
  return nearestYearIn(requireStationTimeZone(station), time, parseUtc(receivedAtUtc));
}

/**
 * Converts a carrier's station-local time to a UTC/local pair. Without a year, the year is the one
 * that puts the day/month nearest `receivedAtUtc`; the Cargo-IMP day-change `dayOffset` is then
 * applied to the local calendar date. With `utcOffsetMinutes` (a time sent as an exact instant) the
 * UTC instant is the local time minus that offset.
 */
export function resolveStationTime(station: string, time: StationTime, receivedAtUtc: string): DateTimePair {
  const zone = requireStationTimeZone(station);
  const validClock =
    Number.isInteger(time.hour) &&
    Number.isInteger(time.minute) &&
    time.hour >= 0 &&
    time.hour <= 23 &&
    time.minute >= 0 &&
    time.minute <= 59 &&
    time.month >= 1 &&
    time.month <= 12 &&
    Number.isInteger(time.dayOffset);
  if (!validClock) throw new InvalidStationTimeError(station, time);
  const receivedMs = parseUtc(receivedAtUtc);

  const wallMs = wallMsInYear(time, time.year ?? nearestYearIn(zone, time, receivedMs));
  if (wallMs === null) throw new InvalidStationTimeError(station, time);

  const shiftedWallMs = wallMs + time.dayOffset * DAY_MS;
  const offset = time.utcOffsetMinutes;
  const exact = offset !== undefined && Number.isInteger(offset) && Math.abs(offset) <= 14 * 60;
  const utcMs = exact ? shiftedWallMs - offset * MINUTE_MS : localToUtcMs(zone, shiftedWallMs);
  return { Utc: formatUtc(utcMs), Local: isoSeconds(wallClockMs(zone, utcMs)) };
}

/** How far from its plan a time may be moved to by a day (half a day: the nearer day is unambiguous). */
const NEAR_PLAN_MS = 12 * 3_600_000;

/**
 * A Cargo-IMP flight status time (DEP, ARR, RCF) carries the flight's date and a time of day; a
 * carrier that leaves out the day-change mark (`-N`, `-P`) after midnight writes a date a day off. So
 * such a time without a year, an offset or a day-change mark is read as the instant nearest the
 * milestone's plan (`anchorUtc`) among the written date, the day before and the day after, when that
 * instant lies within 12 h of the plan: a DEP at 00:20 of a flight planned at 23:50 the day before is
 * 30 min late, not 23 h 30 min early. Without a plan (null), or when no day brings it within 12 h,
 * the time is read as written (`resolveStationTime`).
 */
export function resolveNearPlan(
  station: string,
  time: StationTime,
  receivedAtUtc: string,
  anchorUtc: string | null,
): DateTimePair {
  const written = resolveStationTime(station, time, receivedAtUtc);
  if (anchorUtc === null || time.year !== undefined || time.utcOffsetMinutes !== undefined) return written;
  if (time.dayOffset !== 0) return written;
  const anchorMs = parseUtc(anchorUtc);
  if (Math.abs(parseUtc(written.Utc) - anchorMs) <= NEAR_PLAN_MS) return written;
  const zone = requireStationTimeZone(station);
  // The written wall clock, in the year resolveStationTime read it in (its Local may differ in a DST gap).
  const wallMs = wallMsInYear(time, Number(written.Local.slice(0, 4)));
  if (wallMs === null) return written;
  for (const days of [-1, 1]) {
    const utcMs = localToUtcMs(zone, wallMs + days * DAY_MS);
    if (Math.abs(utcMs - anchorMs) <= NEAR_PLAN_MS)
      return { Utc: formatUtc(utcMs), Local: isoSeconds(wallClockMs(zone, utcMs)) };
  }
  return written;
}

/**
 * A Cargo-IMP scheduled arrival without day-change mark that falls before its flight's scheduled
 * departure is the next day's: a flight lands after it leaves (S2330/S0115 without `-N` lands at
 * 01:15 the next morning). Any other time is read as written.
 */
export function resolveAfter(
  station: string,
  time: StationTime,
  receivedAtUtc: string,
  notBeforeUtc: string | null,
): DateTimePair {
  const written = resolveStationTime(station, time, receivedAtUtc);
  if (notBeforeUtc === null || written.Utc >= notBeforeUtc) return written;
  if (time.year !== undefined || time.utcOffsetMinutes !== undefined || time.dayOffset !== 0) return written;
  const zone = requireStationTimeZone(station);
  const wallMs = wallMsInYear(time, nearestYearIn(zone, time, parseUtc(receivedAtUtc)));
  if (wallMs === null) return written;
  const utcMs = localToUtcMs(zone, wallMs + DAY_MS);
  return formatUtc(utcMs) >= notBeforeUtc
    ? { Utc: formatUtc(utcMs), Local: isoSeconds(wallClockMs(zone, utcMs)) }
    : written;
}

/** The later of two canonical UTC stamps (they sort as text; Math.max would not take strings). */
export function laterUtc(a: string, b: string): string {
  return a < b ? b : a;
}

/** The earlier of two canonical UTC stamps. */
export function earlierUtc(a: string, b: string): string {
  return b < a ? b : a;
}
