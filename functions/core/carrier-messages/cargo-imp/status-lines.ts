/**
 * The status lines of an FSU/FSA, one reader each (field separator `/`; the grammar is in fsu.ts):
 * BKD legs, DEP/ARR/RCF flight statuses, RCS/NFD/AWD/DLV station statuses, CAN, and the standard
 * codes beyond the milestones, read leniently as history. Each report carries its status line.
 *
 * After the quantity, a flight's line has two positional slots, the departure time group and the
 * arrival time group (either may be empty: `T2//E0230`), then optionally its volume (`MC4.761`) and
 * density group (`DG6`) as fields of their own.
 */
import {
  dayChangeDays,
  daysInMonth,
  isAirportCode,
  isCarrierCode,
  monthNumber,
  splitFlightDesignator,
} from "../common.ts";
import type {
  CarrierReport,
  FlightLeg,
  MessageOrigin,
  OtherStatusReport,
  Quantity,
  ReportedStatusCode,
  SourceRef,
  StationTime,
  StatusReport,
} from "../types.ts";
import {
  DATE_RE,
  EXPECT_TIME_GROUP,
  isDensityField,
  type ParsedDate,
  parseDate,
  parseFlight,
  parseQuantity,
  parseRoute,
  parseStation,
  parseTimeGroup,
  parseVolumeField,
  QUANTITY_START_RE,
  STATIONS_RE,
  stationTimeOf,
  TIME_GROUP_RE,
  type TimeGroup,
} from "./fields.ts";
import { fail, noteSkipped } from "./lexer.ts";

export const EXPECT_STATUS = "a status line such as DEP/LH400/14MAR/FRAJFK/T10/A1341";
const EXPECT_AT_MOST_TWO_GROUPS = "at most two time groups (departure, arrival)";

/** What every report of one FSU shares: the consignment line's AWB, route and total, and that line. */
export interface ReportBase extends Pick<StatusReport, "awb" | "origin" | "destination" | "total"> {
  consignmentAt: SourceRef;
  message: MessageOrigin;
}

/** The fields every report of a message shares, located at `at` (origin/destination: the consignment line). */
export function reportBase(
  base: ReportBase,
  at: SourceRef,
): Pick<StatusReport, "awb" | "origin" | "destination" | "total" | "sourceAt" | "message"> {
  return {
    awb: base.awb,
    origin: base.origin,
    destination: base.destination,
    total: base.total,
    message: base.message,
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
  time: StationTime | null,
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
    message: base.message,
  };
}

/** The quantity, departure and arrival time groups (either slot may be empty), and volume of a flight line. */
interface FlightTail {
  quantity: Quantity | null;
  departure: TimeGroup | null;
  arrival: TimeGroup | null;
}

/** Reads the fields of a flight's line from `fields[start]` on (see the module comment). */
function parseFlightTail(line: number, fields: string[], start: number, date: ParsedDate): FlightTail {
  let index = start;
  let quantity: Quantity | null = null;
  const first = fields[index];
  if (first === "") index++;
  else if (first !== undefined && !TIME_GROUP_RE.test(first) && parseVolumeField(line, first) === null) {
    quantity = parseQuantity(line, first).quantity;
    index++;
  }
  const slots: (TimeGroup | null)[] = [null, null];
  let slot = 0;
  for (; index < fields.length; index++) {
    const field = fields[index] as string;
    if (field === "") {
      if (slot < 2) slot++;
      continue;
    }
    if (TIME_GROUP_RE.test(field)) {
      if (slot >= 2) fail(line, EXPECT_AT_MOST_TWO_GROUPS, fields.slice(start).join("/"));
      slots[slot++] = parseTimeGroup(line, field, date);
      continue;
    }
    const volume = parseVolumeField(line, field);
    if (volume !== null) {
      if (quantity !== null) quantity = { ...quantity, volumeCode: "CM", volume };
      slot = 2;
    } else if (isDensityField(field)) slot = 2;
    else fail(line, EXPECT_TIME_GROUP, field);
  }
  return { quantity, departure: slots[0] ?? null, arrival: slots[1] ?? null };
}

/**
 * A status code beyond the milestones (FOH, MAN, TFD, ...), read leniently since its fields vary by
 * code: the first flight (or carrier alone), date, station (a route gives its origin; AWR, arrival
 * documents, its destination), quantity and time groups wherever they stand. The time is the date's
 * hhmm (the time of the status itself, with its day change), else the actual (A) group, else the
 * departure time group of a flight-dated code (MAN and PRE name the flight's date and times). Null
 * (the line is skipped, as before these were kept) when it names no station or no time, or its
 * date or time does not exist.
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
  let planned: { hour: number; minute: number; dayOffset: number } | null = null;
  let pieces: number | null = null;
  let flight: OtherStatusReport["flight"] = null;
  for (let i = 1; i < fields.length; i++) {
    const field = fields[i] as string;
    if (field === "") continue;
    const dateMatch = DATE_RE.exec(field);
    const group = dateMatch === null ? TIME_GROUP_RE.exec(field) : null;
    if (dateMatch !== null) {
      if (date !== null) continue;
      const month = monthNumber(dateMatch[2] as string);
      const day = Number(dateMatch[1]);
      if (month === undefined || day < 1 || day > daysInMonth(month)) return null;
      date = { day, month };
      if (dateMatch[3] !== undefined) {
        date.hour = Number(dateMatch[3]);
        date.minute = Number(dateMatch[4]);
        date.dayOffset = dateMatch[5] === undefined ? 0 : dayChangeDays(dateMatch[5]);
        if (date.hour > 23 || date.minute > 59 || date.dayOffset === undefined) return null;
      }
    } else if (group !== null) {
      const dayOffset = group[4] === undefined ? 0 : dayChangeDays(group[4]);
      const hour = Number(group[2]);
      const minute = Number(group[3]);
      if (dayOffset === undefined || hour > 23 || minute > 59) return null;
      if (group[1] === "A") actual ??= { hour, minute, dayOffset };
      else planned ??= { hour, minute, dayOffset };
    } else if (QUANTITY_START_RE.test(field)) {
      const m = /^[TPSD](\d+)/.exec(field);
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
  if (date.hour !== undefined) time = stationTimeOf(date);
  else {
    const group = actual ?? (code === "MAN" || code === "PRE" ? planned : null);
    if (group === null) return null;
    time = {
      month: date.month,
      day: date.day,
      hour: group.hour,
      minute: group.minute,
      dayOffset: group.dayOffset,
    };
  }
  return {
    awb: base.awb,
    origin: base.origin,
    destination: base.destination,
    total: base.total,
    message: base.message,
    sourceAt: { report: { line, path: null }, origin: base.consignmentAt, destination: base.consignmentAt },
    kind: "other-status",
    code,
    station,
    time,
    flight,
    pieces,
    source: `FSU/${code}`,
  };
}

/** The flight of a BKD (or manifest) line: a designator, or the carrier alone (no number yet). */
function parseBookedFlight(
  line: number,
  field: string | undefined,
): { carrierCode: string; flightNumber: string } {
  if (field !== undefined && splitFlightDesignator(field) === null && isCarrierCode(field)) {
    return { carrierCode: field, flightNumber: "" };
  }
  return parseFlight(line, field);
}

/**
 * A BKD line: the booked leg. Its time groups are the flight's schedule (S) or estimate (E); an
 * actual (A) group, which the manual does not allow in a booking, says nothing of the schedule, so it
 * is left out with a note in `message` and the leg is kept without that time.
 */
export function parseBkdLeg(line: number, fields: string[], message: MessageOrigin): FlightLeg {
  const flight = parseBookedFlight(line, fields[1]);
  const date = parseDate(line, fields[2], "none");
  const route = parseRoute(line, fields[3]);
  const tail = parseFlightTail(line, fields, 4, date);
  const planned = (group: TimeGroup | null, of: string): StationTime | null => {
    if (group?.kind !== "A") return group?.time ?? null;
    noteSkipped(message, line, `actual ${of} time in a booking (the manual allows S or E), left out`);
    return null;
  };
  return {
    carrierCode: flight.carrierCode,
    flightNumber: flight.flightNumber,
    flightDay: date.day,
    flightMonth: date.month,
    origin: route.origin,
    destination: route.destination,
    scheduledDeparture: planned(tail.departure, "departure"),
    scheduledArrival: planned(tail.arrival, "arrival"),
    roadFeeder: null,
    quantity: tail.quantity,
    at: { line, path: null },
  };
}

/**
 * DEP, ARR, RCF. DEP names its flight; ARR and RCF may leave it empty (`ARR//28MAY2050-P/PEE`), and
 * RCF may leave the field out. The time of a DEP is its actual time group (or the date's hhmm); of an
 * ARR or RCF the date's hhmm, the time of the status itself, else the actual group. A line without
 * any time is reported at the message's receipt (time null); a DEP that states only a scheduled or
 * estimated departure is refused, as it gives a time that is not the departure's.
 */
export function parseFlightStatus(
  line: number,
  code: "DEP" | "ARR" | "RCF",
  fields: string[],
  base: ReportBase,
): StatusReport {
  let index = 2;
  let designator: { carrierCode: string; flightNumber: string } | null = null;
  const flightField = fields[1];
  if (code !== "DEP" && flightField === "") index = 2;
  else if (code === "RCF" && (flightField === undefined || splitFlightDesignator(flightField) === null))
    index = 1;
  else designator = parseFlight(line, flightField);
  const date = parseDate(line, fields[index], "optional");
  const stationField = fields[index + 1];
  let station: string;
  if (stationField !== undefined && STATIONS_RE.test(stationField)) {
    station = code === "DEP" ? stationField.slice(0, 3) : stationField.slice(3);
  } else {
    station = parseStation(line, stationField);
  }
  const tail = parseFlightTail(line, fields, index + 2, date);
  const actual =
    tail.departure?.kind === "A" ? tail.departure : tail.arrival?.kind === "A" ? tail.arrival : null;
  let time: StationTime | null;
  if (code === "DEP") {
    time = actual?.time ?? (date.hour !== undefined ? stationTimeOf(date) : null);
    if (time === null && tail.departure !== null) {
      fail(line, "an actual time such as A1341 or a date and time such as 14MAR1341", fields.join("/"));
    }
  } else {
    time = date.hour !== undefined ? stationTimeOf(date) : (actual?.time ?? null);
  }
  const flight = designator === null ? null : { ...designator, flightDay: date.day, flightMonth: date.month };
  return statusReport(base, line, code, station, time, flight, tail.quantity, null);
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
