/**
 * The fields Cargo-IMP messages share: dates (`14MAR`, `14MAR0910`), time groups (`A1341-N`),
 * airports and airport pairs, flight designators, quantity groups and the consignment line
 * (`020-12345675FRAJFK/T10K250.0`). Each parser fails with a 400 naming the line and what was
 * expected there.
 *
 * - The AWB serial has 8 digits (7 + check digit). A 7-digit serial of older tooling is refused,
 *   naming the full number, rather than completed with a computed check digit.
 * - Quantity: T|P|S|D + pieces [+ K|L weight] [+ MC|CF|CC|CI volume] [+ DG density] [+ T total
 *   pieces after a P, S or D]. T = total consignment, P = part shipment, S = split and D = divided
 *   (manifests); all give the pieces of the line. Every weight and volume must be plausible
 *   (common.ts: 0, or 0.001 up to 1,000 t / 100,000 m³).
 * - Time group: S (scheduled), E (estimated) or A (actual) + hhmm, optional day change indicator
 *   (`-P` -1, `-N` +1, `-S` +2, `-T` +3, `-A` to `-L` +4 to +15). A date with a time may carry one
 *   too (`03MAY0015-N`).
 */
import {
  awbCheckDigit,
  dayChangeDays,
  daysInMonth,
  isAirportCode,
  monthNumber,
  splitFlightDesignator,
  toCubicMetres,
  volumeProblem,
  weightProblem,
} from "../common.ts";
import type { AwbId, Quantity, SourceRef, StationTime } from "../types.ts";
import { fail, type LineCursor } from "./lexer.ts";

const AWB_RE = /^(\d{3})-(\d{8})/;
const AWB_START_RE = /^\d{3}-\d/;
/** An AWB written with a 7-digit serial (older tooling drops the check digit): refused with the full number. */
const SEVEN_DIGIT_AWB_RE = /^(\d{3})-(\d{7})(?!\d)/;
export const STATIONS_RE = /^[A-Z]{6}$/;
export const DATE_RE = /^(\d{2})([A-Z]{3})(?:(\d{2})(\d{2})(?:-([A-Z]))?)?$/;
export const TIME_GROUP_RE = /^([SEA])(\d{2})(\d{2})(?:-([A-Z]))?$/;
const QUANTITY_RE =
  /^([TPSD])(\d{1,4})(?:([KL])(\d{1,7}(?:\.\d{1,3})?))?(?:(MC|CF|CC|CI)(\d{1,9}(?:\.\d{1,3})?))?(?:DG\d{1,2})?(?:T(\d{1,4}))?$/;
export const QUANTITY_START_RE = /^[TPSD]\d/;
/** A volume (`MC4.761`) or density group (`DG6`) written as a field of its own after the time groups. */
const VOLUME_FIELD_RE = /^(MC|CF|CC|CI)(\d{1,9}(?:\.\d{1,3})?)$/;
const DENSITY_FIELD_RE = /^DG\d{1,2}$/;

const EXPECT_CONSIGNMENT = "a consignment line such as 020-12345675FRAJFK/T10K250.0";
const EXPECT_FLIGHT = "a flight such as LH400";
const EXPECT_DATE = "a date such as 14MAR";
const EXPECT_DATE_TIME = "a date and time such as 14MAR0910";
const EXPECT_STATION = "a 3-letter airport code such as FRA";
const EXPECT_ROUTE = "departure and arrival airports such as FRAJFK";
const EXPECT_QUANTITY = "a quantity such as T10K250.0";
export const EXPECT_TIME_GROUP = "a time group such as S1325, E1340 or A1341 (optionally -N or -P)";
const EXPECT_DAY_CHANGE = "a day change indicator such as -N (next day) or -P (previous day)";

/** A date field: day and month, and hour and minute when it carried hhmm. */
export interface ParsedDate {
  day: number;
  month: number;
  /** Present when the field carried hhmm. */
  hour?: number;
  minute?: number;
  /** The day change indicator after hhmm, in days (0 without one). */
  dayOffset?: number;
}

function checkHourMinute(line: number, hour: number, minute: number, found: string): void {
  if (hour > 23) fail(line, "an hour 00-23", found);
  if (minute > 59) fail(line, "a minute 00-59", found);
}

/** `ddMMM` or `ddMMMhhmm`. */
export function parseDate(
  line: number,
  field: string | undefined,
  time: "required" | "optional" | "none",
): ParsedDate {
  const expected = time === "required" ? EXPECT_DATE_TIME : EXPECT_DATE;
  if (field === undefined) fail(line, expected, "end of line");
  const m = DATE_RE.exec(field);
  if (m === null) fail(line, expected, field);
  const month = monthNumber(m[2] as string);
  if (month === undefined) fail(line, "a month JAN to DEC", field);
  const day = Number(m[1]);
  if (day < 1 || day > daysInMonth(month)) fail(line, `a day of month 01-${daysInMonth(month)}`, field);
  if (m[3] === undefined) {
    if (time === "required") fail(line, expected, field);
    return { day, month };
  }
  if (time === "none") fail(line, expected, field);
  const hour = Number(m[3]);
  const minute = Number(m[4]);
  checkHourMinute(line, hour, minute, field);
  const dayOffset = m[5] === undefined ? 0 : dayChangeDays(m[5]);
  if (dayOffset === undefined) fail(line, EXPECT_DAY_CHANGE, field);
  return { day, month, hour, minute, dayOffset };
}

/** The date's station-local time (00:00 when it has no hhmm), with its day change. */
export function stationTimeOf(date: ParsedDate): StationTime {
  return {
    month: date.month,
    day: date.day,
    hour: date.hour ?? 0,
    minute: date.minute ?? 0,
    dayOffset: date.dayOffset ?? 0,
  };
}

/** A time group: S (scheduled), E (estimated) or A (actual), and its station-local time. */
export interface TimeGroup {
  kind: "S" | "E" | "A";
  time: StationTime;
}

/** `S1325`, `E1340-N`, `A1341-P`: the kind and its time on `date`, with the day change. */
export function parseTimeGroup(line: number, field: string, date: ParsedDate): TimeGroup {
  const m = TIME_GROUP_RE.exec(field);
  if (m === null) fail(line, EXPECT_TIME_GROUP, field);
  const hour = Number(m[2]);
  const minute = Number(m[3]);
  checkHourMinute(line, hour, minute, field);
  const dayOffset = m[4] === undefined ? 0 : dayChangeDays(m[4]);
  if (dayOffset === undefined) fail(line, EXPECT_TIME_GROUP, field);
  return {
    kind: m[1] as TimeGroup["kind"],
    time: { month: date.month, day: date.day, hour, minute, dayOffset },
  };
}

/** A 3-letter airport code. */
export function parseStation(line: number, field: string | undefined): string {
  if (field === undefined) fail(line, EXPECT_STATION, "end of line");
  if (!isAirportCode(field)) fail(line, EXPECT_STATION, field);
  return field;
}

/** An airport pair `FRAJFK`. */
export function parseRoute(line: number, field: string | undefined): { origin: string; destination: string } {
  if (field === undefined) fail(line, EXPECT_ROUTE, "end of line");
  if (!STATIONS_RE.test(field)) fail(line, EXPECT_ROUTE, field);
  return { origin: field.slice(0, 3), destination: field.slice(3) };
}

/** A flight designator `LH400`. */
export function parseFlight(
  line: number,
  field: string | undefined,
): { carrierCode: string; flightNumber: string } {
  if (field === undefined) fail(line, EXPECT_FLIGHT, "end of line");
  const flight = splitFlightDesignator(field);
  if (flight === null) fail(line, EXPECT_FLIGHT, field);
  return flight;
}

interface ParsedQuantity {
  quantity: Quantity;
  /** T, P, S or D as sent. */
  shipmentCode: "T" | "P" | "S" | "D";
  /** Total consignment pieces given after a part, split or divided quantity (`P5K100T10`). */
  totalPieces: number | null;
}

/** A quantity group `T10K250.0MC1.5`, weight and volume plausible (volume in cubic metres). */
export function parseQuantity(line: number, field: string): ParsedQuantity {
  const m = QUANTITY_RE.exec(field);
  if (m === null) fail(line, EXPECT_QUANTITY, field);
  const shipmentCode = m[1] as ParsedQuantity["shipmentCode"];
  if (shipmentCode === "T" && m[7] !== undefined) fail(line, EXPECT_QUANTITY, field);
  const weightCode = (m[3] as "K" | "L" | undefined) ?? null;
  const weight = m[4] === undefined ? null : Number(m[4]);
  const weightIssue = weight === null ? null : weightProblem(weight, weightCode ?? "K");
  if (weightIssue !== null) fail(line, weightIssue, field);
  const volume = m[6] === undefined ? null : toCubicMetres(Number(m[6]), m[5] as string);
  const volumeIssue = volume === null ? null : volumeProblem(volume);
  if (volumeIssue !== null) fail(line, volumeIssue, field);
  return {
    quantity: {
      pieces: Number(m[2]),
      weightCode,
      weight,
      volumeCode: volume === null ? null : "CM",
      volume,
    },
    shipmentCode,
    totalPieces: m[7] === undefined ? null : Number(m[7]),
  };
}

/** The consignment total: the quantity itself for T, only the total pieces for P...T, else unknown. */
export function totalOf(parsed: ParsedQuantity | null): Quantity | null {
  if (parsed === null) return null;
  if (parsed.shipmentCode === "T") return parsed.quantity;
  if (parsed.totalPieces === null) return null;
  return { pieces: parsed.totalPieces, weightCode: null, weight: null, volumeCode: null, volume: null };
}

/** A volume written as a field of its own (`MC4.761`), in cubic metres; null when the field is none. */
export function parseVolumeField(line: number, field: string): number | null {
  const m = VOLUME_FIELD_RE.exec(field);
  if (m === null) return null;
  const volume = toCubicMetres(Number(m[2]), m[1] as string) as number;
  const issue = volumeProblem(volume);
  if (issue !== null) fail(line, issue, field);
  return volume;
}

/** A density group written as a field of its own (`DG6`): read and not kept. */
export function isDensityField(field: string): boolean {
  return DENSITY_FIELD_RE.test(field);
}

/** The consignment line read: AWB, its origin and destination, the quantity when given. */
export interface Consignment {
  awb: AwbId;
  /** Empty only where a message may leave them out (an FSA answering "no record found"). */
  origin: string;
  destination: string;
  quantity: ParsedQuantity | null;
  /** The consignment line: where the AWB origin and destination were read. */
  at: SourceRef;
}

export interface ConsignmentRules {
  /** The quantity group must be there (FWB, FFR, FFA). */
  quantityRequired: boolean;
  /** What may follow the quantity: nothing, one nature of goods field, or free text holding `/` too. */
  natureOfGoods: "none" | "one" | "free";
  /** The AWB alone, without origin and destination, is allowed (FSA 6.20). */
  routeOptional?: boolean;
}

/** Whether a line starts like a consignment line (`020-...`): FSA and manifests repeat them. */
export function isConsignmentLine(text: string): boolean {
  return AWB_START_RE.test(text);
}

/** `020-12345675FRAJFK[/T10K250.0MC1.5][/nature of goods]`, the next line of the message. */
export function parseConsignment(cursor: LineCursor, rules: ConsignmentRules): Consignment {
  const text = cursor.expectLine(EXPECT_CONSIGNMENT);
  return parseConsignmentLine(cursor.lineNo - 1, text, rules);
}

/** A consignment line `text` at `line`. */
export function parseConsignmentLine(line: number, text: string, rules: ConsignmentRules): Consignment {
  const awbMatch = AWB_RE.exec(text);
  if (awbMatch === null) {
    const seven = SEVEN_DIGIT_AWB_RE.exec(text);
    if (seven !== null) {
      // Completing it would guess: a serial that lost another digit would land on someone else's AWB.
      const full = `${seven[1]}-${seven[2]}${awbCheckDigit(`${seven[2]}0`)}`;
      fail(
        line,
        `an 8-digit AWB serial with its check digit (7-digit serials are not completed), e.g. ${full}`,
        text,
      );
    }
    fail(line, "an AWB number such as 020-12345675", text);
  }
  const prefix = awbMatch[1] as string;
  const serial = awbMatch[2] as string;
  const check = awbCheckDigit(serial);
  if (Number(serial[7]) !== check) fail(line, `AWB serial with check digit ${check}`, `${prefix}-${serial}`);
  const awb = { prefix, serial };
  const at = { line, path: null };
  if (text.length === 12 && rules.routeOptional === true) {
    return { awb, origin: "", destination: "", quantity: null, at };
  }
  const route = text.slice(12, 18);
  if (!STATIONS_RE.test(route)) fail(line, "AWB origin and destination such as FRAJFK", text.slice(12));
  const rest = text.slice(18);
  let quantity: ParsedQuantity | null = null;
  if (rest === "") {
    if (rules.quantityRequired) fail(line, EXPECT_QUANTITY, "end of line");
  } else {
    if (rest.charCodeAt(0) !== 0x2f) fail(line, EXPECT_CONSIGNMENT, text);
    const fields = rest.slice(1).split("/");
    const most = rules.natureOfGoods === "none" ? 1 : rules.natureOfGoods === "one" ? 2 : fields.length;
    if (fields.length > most) fail(line, EXPECT_CONSIGNMENT, text);
    quantity = parseQuantity(line, fields[0] as string);
  }
  return { awb, origin: route.slice(0, 3), destination: route.slice(3), quantity, at };
}
