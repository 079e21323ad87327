/**
 * The status lines of an FSU/FSA, one reader each (field separator `/`; the grammar is in fsu.ts):
 * BKD legs, DEP/ARR/RCF flight statuses, RCS/NFD/AWD/DLV station statuses, CAN, and the standard
 * codes beyond the milestones, read leniently as history. Each report carries its status line.
 */
import { daysInMonth, isAirportCode, isCarrierCode, monthNumber, splitFlightDesignator } from "../common.ts";
import type {
  CarrierReport,
  FlightLeg,
  OtherStatusReport,
  Quantity,
  ReportedStatusCode,
  SourceRef,
  StationTime,
  StatusReport,
} from "../types.ts";
import {
  DATE_RE,
  type ParsedDate,
  parseDate,
  parseFlight,
  parseQuantity,
  parseRoute,
  parseStation,
  parseTimeGroup,
  QUANTITY_START_RE,
  STATIONS_RE,
  stationTimeOf,
  TIME_GROUP_RE,
  type TimeGroup,
} from "./fields.ts";
import { fail } from "./lexer.ts";

export const EXPECT_STATUS = "a status line such as DEP/LH400/14MAR/FRAJFK/T10/A1341";

/** What every report of one FSU shares: the consignment line's AWB, route and total, and that line. */
export interface ReportBase extends Pick<StatusReport, "awb" | "origin" | "destination" | "total"> {
  consignmentAt: SourceRef;
}

/** The fields every report of a message shares, located at `at` (origin/destination: the consignment line). */
export function reportBase(
  base: ReportBase,
  at: SourceRef,
): Pick<StatusReport, "awb" | "origin" | "destination" | "total" | "sourceAt"> {
  return {
    awb: base.awb,
    origin: base.origin,
    destination: base.destination,
    total: base.total,
    sourceAt: { report: at, origin: base.consignmentAt, destination: base.consignmentAt },
  };
}

/**
 * A status report as one object literal of a fixed shape: the hot path of parsing (no spread, so V8
 * builds every status report with the same hidden class).
 */
function statusReport(
  base: ReportBase,
  line: number,
  status: ReportedStatusCode,
  station: string,
  time: StationTime,
  flight: StatusReport["flight"],
  quantity: Quantity | null,
  deliveredTo: string | null,
): StatusReport {
  return {
    awb: base.awb,
    origin: base.origin,
    destination: base.destination,
    total: base.total,
    sourceAt: { report: { line, path: null }, origin: base.consignmentAt, destination: base.consignmentAt },
    kind: "status",
    status,
    station,
    time,
    flight,
    quantity,
    deliveredTo,
    source: `FSU/${status}`,
  };
}

/**
 * A status code beyond the milestones (FOH, MAN, TFD, ...), read leniently since its fields vary by
 * code: the first flight (or carrier alone), date, station (a route gives its origin; AWR, arrival
 * documents, its destination), quantity and actual time group wherever they stand. The time is the
 * actual (A) group, else the date's hhmm. Null (the line is skipped, as before these were kept) when
 * it names no station or no time, or its date or time does not exist.
 */
export function parseOtherStatus(
  line: number,
  code: string,
  fields: string[],
  base: ReportBase,
): OtherStatusReport | null {
  let date: ParsedDate | null = null;
  let station: string | null = null;
  let actual: { hour: number; minute: number; dayOffset: number } | null = null;
  let pieces: number | null = null;
  let flight: OtherStatusReport["flight"] = null;
  for (const field of fields.slice(1)) {
    const dateMatch = DATE_RE.exec(field);
    const group = TIME_GROUP_RE.exec(field);
    if (dateMatch !== null) {
      if (date !== null) continue;
      const month = monthNumber(dateMatch[2] as string);
      const day = Number(dateMatch[1]);
      if (month === undefined || day < 1 || day > daysInMonth(month)) return null;
      date = { day, month };
      if (dateMatch[3] !== undefined) {
        date.hour = Number(dateMatch[3]);
        date.minute = Number(dateMatch[4]);
        if (date.hour > 23 || date.minute > 59) return null;
      }
    } else if (group !== null) {
      if (group[1] !== "A" || actual !== null) continue;
      const dayOffset = group[4] === "N" ? 1 : group[4] === "P" ? -1 : 0;
      actual = { hour: Number(group[2]), minute: Number(group[3]), dayOffset };
      if (actual.hour > 23 || actual.minute > 59) return null;
    } else if (QUANTITY_START_RE.test(field)) {
      const m = /^[TP](\d+)/.exec(field);
      if (pieces === null && m !== null) pieces = Number(m[1]);
    } else if (STATIONS_RE.test(field)) {
      station ??= code === "AWR" ? field.slice(3) : field.slice(0, 3);
    } else if (isAirportCode(field)) {
      station ??= field;
    } else if (flight === null) {
      const designator = splitFlightDesignator(field);
      if (designator !== null) flight = designator;
      else if (isCarrierCode(field)) flight = { carrierCode: field, flightNumber: null };
    }
  }
  if (date === null || station === null) return null;
  let time: StationTime;
  if (actual !== null) time = { month: date.month, day: date.day, ...actual };
  else if (date.hour !== undefined) time = stationTimeOf(date);
  else return null;
  return {
    ...reportBase(base, { line, path: null }),
    kind: "other-status",
    code,
    station,
    time,
    flight,
    pieces,
    source: `FSU/${code}`,
  };
}

export function parseBkdLeg(line: number, fields: string[]): FlightLeg {
  const flight = parseFlight(line, fields[1]);
  const date = parseDate(line, fields[2], "none");
  const route = parseRoute(line, fields[3]);
  let index = 4;
  let quantity: Quantity | null = null;
  const maybeQuantity = fields[index];
  if (maybeQuantity !== undefined && !TIME_GROUP_RE.test(maybeQuantity)) {
    quantity = parseQuantity(line, maybeQuantity).quantity;
    index++;
  }
  const groups: TimeGroup[] = [];
  for (; index < fields.length; index++) {
    const group = parseTimeGroup(line, fields[index] as string, date);
    if (group.kind === "A")
      fail(line, "a scheduled or estimated time group such as S1325", fields[index] as string);
    groups.push(group);
  }
  if (groups.length > 2)
    fail(line, "at most two time groups (departure, arrival)", fields.slice(4).join("/"));
  return {
    ...flight,
    flightDay: date.day,
    flightMonth: date.month,
    origin: route.origin,
    destination: route.destination,
    scheduledDeparture: groups[0]?.time ?? null,
    scheduledArrival: groups[1]?.time ?? null,
    roadFeeder: null,
    quantity,
    at: { line, path: null },
  };
}

/** Optional quantity then time groups (DEP/ARR/RCF) from `fields[start]` on. */
function parseQuantityAndGroups(
  line: number,
  fields: string[],
  start: number,
  date: ParsedDate,
): { quantity: Quantity | null; groups: TimeGroup[] } {
  let index = start;
  let quantity: Quantity | null = null;
  const maybeQuantity = fields[index];
  if (maybeQuantity !== undefined && !TIME_GROUP_RE.test(maybeQuantity)) {
    quantity = parseQuantity(line, maybeQuantity).quantity;
    index++;
  }
  const groups: TimeGroup[] = [];
  for (; index < fields.length; index++) groups.push(parseTimeGroup(line, fields[index] as string, date));
  return { quantity, groups };
}

export function parseFlightStatus(
  line: number,
  code: "DEP" | "ARR" | "RCF",
  fields: string[],
  base: ReportBase,
): StatusReport {
  let index = 1;
  let flight: StatusReport["flight"] = null;
  let designator: { carrierCode: string; flightNumber: string } | null = null;
  // RCF may omit the flight; DEP and ARR must name it.
  if (code !== "RCF" || (fields[1] !== undefined && splitFlightDesignator(fields[1]) !== null)) {
    designator = parseFlight(line, fields[1]);
    index = 2;
  }
  const date = parseDate(line, fields[index], "optional");
  const stationField = fields[index + 1];
  let station: string;
  if (stationField !== undefined && STATIONS_RE.test(stationField)) {
    station = code === "DEP" ? stationField.slice(0, 3) : stationField.slice(3);
  } else {
    station = parseStation(line, stationField);
  }
  const { quantity, groups } = parseQuantityAndGroups(line, fields, index + 2, date);
  const actual = groups.find((g) => g.kind === "A");
  let time: StationTime;
  if (actual !== undefined) time = actual.time;
  else if (date.hour !== undefined) time = stationTimeOf(date);
  else fail(line, "an actual time such as A1341 or a date and time such as 14MAR1341", fields.join("/"));
  if (designator !== null) flight = { ...designator, flightDay: date.day, flightMonth: date.month };
  return statusReport(base, line, code, station, time, flight, quantity, null);
}

export function parseStationStatus(
  line: number,
  code: Exclude<ReportedStatusCode, "DEP" | "ARR" | "RCF">,
  fields: string[],
  base: ReportBase,
): StatusReport {
  const date = parseDate(line, fields[1], "required");
  const station = parseStation(line, fields[2]);
  let quantity: Quantity | null = null;
  let name: string | null = null;
  const third = fields[3];
  if (third !== undefined) {
    // T or P and a digit can only be a quantity, so a typo there is reported, not taken as a name.
    if (QUANTITY_START_RE.test(third)) quantity = parseQuantity(line, third).quantity;
    else name = third;
  }
  if (fields[4] !== undefined) {
    if (name !== null) fail(line, EXPECT_STATUS, fields.join("/"));
    name = fields[4];
  }
  if (fields.length > 5) fail(line, EXPECT_STATUS, fields.join("/"));
  const deliveredTo = code === "DLV" && name !== null && name.trim() !== "" ? name.trim() : null;
  return statusReport(base, line, code, station, stationTimeOf(date), null, quantity, deliveredTo);
}

export function parseCancellation(line: number, fields: string[], base: ReportBase): CarrierReport {
  const located = reportBase(base, { line, path: null });
  if (fields.length === 1)
    return { ...located, kind: "cancellation", time: null, station: null, source: "FSU/CAN" };
  const date = parseDate(line, fields[1], "required");
  const station = parseStation(line, fields[2]);
  if (fields.length > 3) fail(line, "a cancellation line such as CAN/14MAR1200/FRA", fields.join("/"));
  return { ...located, kind: "cancellation", time: stationTimeOf(date), station, source: "FSU/CAN" };
}
