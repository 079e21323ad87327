/**
 * Cargo-IMP parser: FSU (status), FWB (air waybill), FFR/FFA (booking request/answer) into
 * `CarrierReport[]`. Pure: no Date, no I/O. A straightforward line scanner; every regex is compiled
 * once, anchored and without nested quantifiers (target: >= 50k messages/s on two cores).
 *
 * Body layout
 * - Lines may end in LF or CRLF; trailing spaces and blank lines are ignored. A line longer than 69
 *   characters (after trailing spaces) is an error, as Type-B networks would cut it.
 * - Type-B envelope lines may precede any message: an address line (`QD HDQFMLH`), an origin line
 *   (`.HDQRMXH 141200`), `NNNN`, and SITA `=HEADER` style blocks (everything from a line starting
 *   with `=` up to `=TEXT` is skipped). The transmission control characters SOH, STX and ETX that
 *   frame a Type-B heading and text are dropped wherever they stand.
 * - A message starts at its identifier line (`FSU/13`, `FSA/14`, `FWB/16`, `FFR/8`, `FFA/4`; any
 *   version of 1-3 digits) and runs until the next identifier or envelope line, so several messages
 *   may share a body. FSA, the status answer to an FSR, has the layout of an FSU.
 * - The AWB serial has 8 digits (7 + check digit). A 7-digit serial of older tooling is refused,
 *   naming the full number, rather than completed with a computed check digit.
 * - Every weight and volume must be plausible (common.ts: 0, or 0.001 up to 1,000 t / 100,000 m³).
 *
 * FSU status lines (field separator `/`):
 *   BKD/<flight>/<ddMMM>/<ORGDST>[/<qty>][/<S|E hhmm>[/<S|E hhmm>]]   1 group: departure, 2: dep+arr
 *   DEP/<flight>/<ddMMM[hhmm]>/<ORG[DST]>[/<qty>][/<time group>...]  actual = A group, else hhmm
 *   ARR|RCF/<flight>/<ddMMM[hhmm]>/<[ORG]DST>[/<qty>][/<time group>...] (RCF flight optional)
 *   RCS|NFD|AWD/<ddMMMhhmm>/<STN>[/<qty>][/<name>]     DLV: same, <name> = consignee who took delivery
 *   CAN[/<ddMMMhhmm>/<STN>]   booking cancelled. FSU has no standard cancellation status (DIS is a
 *                             discrepancy, not a cancellation), so this CAN line is our documented
 *                             extension; FFR/FFA with every flight `XX` is the standard way.
 *   Time group: S (scheduled), E (estimated) or A (actual) + hhmm, optional day change `-N` (+1), `-P` (-1).
 *   Other standard FSU codes beyond the milestones (FOH, MAN, PRE, TFD, DIS, ...) become other-status
 *   reports kept as history (parseOtherStatus; a line of theirs without a station or time is skipped);
 *   the optional lines OSI, OCI, ULD, OTH, SSR, SRI, REF, DIM are skipped, with their `/` continuation
 *   lines; an unknown code is an error.
 *   Quantity: T|P + pieces [+ K|L weight] [+ MC|CF|CC|CI volume] [+ DG density] [+ T total pieces
 *   after a P]. T = total consignment, P = part shipment; both give the pieces of the line.
 *
 * FWB: consignment line, then segments. FLT/<flight>/<dd[MMM]>[/<flight>/<dd[MMM]>...] (several lines
 *   allowed), RTG/<DSTcc>[/<DSTcc>...], AGT/<account>/<agent numeric code n7>[/<CASS address n4>
 *   [/<participant id>]] followed by `/name` and `/place` lines (IATA FWB AGT grammar, e.g.
 *   `AGT//3360525/0151`). SHP, CNE, NFY, CVD, RTD, ... and their `/` continuation lines are skipped.
 *   Legs: flight i flies from the previous routing point (the AWB origin first) to RTG point i, when
 *   FLT and RTG have the same number of flights/points (or a single flight and no RTG: AWB origin to
 *   destination). Otherwise the FWB gives no legs rather than invented ones. FLT carries a day only:
 *   `flightMonth` is then 0 ("not given"; the core takes the month nearest the receipt time).
 *   productCode: the FWB has no product-code field, so it is always null here.
 *
 * Every report carries the lines it was read from (`sourceAt`: its status line, or the FWB/FFR/FFA
 *   identifier line, and the consignment line; each leg its BKD, FLT or flight line), so the core can
 *   still answer 400 naming a line for a station or date it cannot place. An itinerary has at most
 *   MAX_ITINERARY_LEGS legs (BKD lines, FLT flights, FFR/FFA flight lines).
 *
 * FFR/FFA: consignment line (`/nature of goods` allowed), optional `/SPH/SPH` line, flight lines
 *   `<flight>/<ddMMM>/<ORGDST>/<space allocation code>[/<allotment id>]` and, as an extension, time
 *   groups `/S1325/S1555` after the code. Other segments (ULD, SSR, OSI, REF, DIM, PID, SHP, CNE, CUS,
 *   SRI) are skipped. XX (cancel) and UU/UN/NO/UC/US (refused) flights are dropped; when every flight is
 *   XX the message is a cancellation; when nothing else is left (all refused) it yields no report.
 */

import { MessageParseError } from "../errors.ts";
import {
  awbCheckDigit,
  daysInMonth,
  EXPECT_AT_MOST_LEGS,
  isAirportCode,
  isCarrierCode,
  MAX_ITINERARY_LEGS,
  monthNumber,
  splitFlightDesignator,
  toCubicMetres,
  truncateFound,
  UNTRACKED_FSU_CODES,
  volumeProblem,
  weightProblem,
} from "./common.ts";
import type {
  AgentRef,
  AwbDataReport,
  AwbId,
  BookingReport,
  CarrierReport,
  FlightLeg,
  OtherStatusReport,
  Quantity,
  ReportedStatusCode,
  SourceRef,
  StationTime,
  StatusReport,
} from "./types.ts";

const MAX_LINE_LENGTH = 69;

const MESSAGE_ID_RE = /^(FSU|FSA|FWB|FFR|FFA)\/(\d{1,3})$/;
const ADDRESS_LINE_RE = /^[A-Z]{2}(?: [A-Z0-9]{7})+$/;
const AWB_RE = /^(\d{3})-(\d{8})/;
/** An AWB written with a 7-digit serial (older tooling drops the check digit): refused with the full number. */
const SEVEN_DIGIT_AWB_RE = /^(\d{3})-(\d{7})(?!\d)/;
const STATIONS_RE = /^[A-Z]{6}$/;
const DATE_RE = /^(\d{2})([A-Z]{3})(?:(\d{2})(\d{2}))?$/;
const TIME_GROUP_RE = /^([SEA])(\d{2})(\d{2})(?:-([NP]))?$/;
const QUANTITY_RE =
  /^([TP])(\d{1,4})(?:([KL])(\d{1,7}(?:\.\d{1,3})?))?(?:(MC|CF|CC|CI)(\d{1,9}(?:\.\d{1,3})?))?(?:DG\d{1,2})?(?:T(\d{1,4}))?$/;
const QUANTITY_START_RE = /^[TP]\d/;
const FLT_DAY_RE = /^(\d{2})([A-Z]{3})?$/;
const RTG_POINT_RE = /^([A-Z]{3})([A-Z0-9]{2})$/;
const SEGMENT_ID_RE = /^[A-Z]{3}$/;
const AGENT_CODE_RE = /^\d{7}$/;
const CASS_RE = /^\d{4}$/;
const AGENT_CODE_AND_CASS_RE = /^(\d{7})(\d{4})$/;

const EXPECT_MESSAGE_ID = "a message identifier such as FSU/13, FWB/16, FFR/8 or FFA/4";
const EXPECT_CONSIGNMENT = "a consignment line such as 020-12345675FRAJFK/T10K250.0";
const EXPECT_STATUS = "a status line such as DEP/LH400/14MAR/FRAJFK/T10/A1341";
const EXPECT_FLIGHT = "a flight such as LH400";
const EXPECT_DATE = "a date such as 14MAR";
const EXPECT_DATE_TIME = "a date and time such as 14MAR0910";
const EXPECT_STATION = "a 3-letter airport code such as FRA";
const EXPECT_ROUTE = "departure and arrival airports such as FRAJFK";
const EXPECT_QUANTITY = "a quantity such as T10K250.0";
const EXPECT_TIME_GROUP = "a time group such as S1325, E1340 or A1341 (optionally -N or -P)";
const EXPECT_FWB_LINE = "an FWB line such as FLT/LH400/14, RTG/JFKLH, AGT//1234567/0001, SHP or CVD/...";
const EXPECT_FLIGHT_LINE = "a flight line such as LH400/14MAR/FRAJFK/KK";

/** FWB segments we tolerate without reading them (their `/` continuation lines are skipped too). */
const SKIPPED_FWB_SEGMENTS: ReadonlySet<string> = new Set([
  "SHP",
  "CNE",
  "NFY",
  "SSR",
  "ACC",
  "CVD",
  "RTD",
  "OTH",
  "PPD",
  "COL",
  "CER",
  "ISU",
  "OSI",
  "CDC",
  "REF",
  "COR",
  "COI",
  "SII",
  "ARD",
  "SPH",
  "NOM",
  "SRI",
  "OPI",
  "OCI",
]);

/** Optional FSU/FSA lines between or after status lines, skipped with their `/` continuation lines. */
const SKIPPED_FSU_SEGMENTS: ReadonlySet<string> = new Set([
  "OSI",
  "OCI",
  "ULD",
  "OTH",
  "SSR",
  "SRI",
  "REF",
  "DIM",
]);

/** FFR/FFA segments after the flight lines, skipped. */
const SKIPPED_BOOKING_SEGMENTS: ReadonlySet<string> = new Set([
  "ULD",
  "SSR",
  "OSI",
  "REF",
  "DIM",
  "PID",
  "SHP",
  "CNE",
  "CUS",
  "SRI",
  "OCI",
  "OTH",
]);

const KEPT_SPACE_CODES: ReadonlySet<string> = new Set([
  "KK",
  "KL",
  "NN",
  "NA",
  "SS",
  "CA",
  "HK",
  "HL",
  "HN",
  "LL",
]);
const REFUSED_SPACE_CODES: ReadonlySet<string> = new Set(["UU", "UN", "UC", "US", "NO"]);
const CANCEL_SPACE_CODE = "XX";

function fail(line: number, expected: string, found: string): never {
  throw new MessageParseError(line, expected, truncateFound(found));
}

/** Lines of the body with trailing whitespace (and a CR) removed; index i is line i + 1. */
class LineCursor {
  readonly lines: string[];
  /** Index of the next line to read. */
  index = 0;

  constructor(text: string) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    this.lines = body.split("\n");
    for (let i = 0; i < this.lines.length; i++) {
      const raw = this.lines[i] as string;
      const trimmed = withoutTypeBControls(raw).trimEnd();
      this.lines[i] = trimmed;
      if (trimmed.length > MAX_LINE_LENGTH) {
        fail(i + 1, `a line of at most ${MAX_LINE_LENGTH} characters`, trimmed);
      }
    }
  }

  /** 1-based number of the line `next()` would return (or one past the end). */
  get lineNo(): number {
    return this.index + 1;
  }

  /** Line to blame when the message ends early: the boundary line, or the line after the last text. */
  get endLineNo(): number {
    if (this.index < this.lines.length) return this.index + 1;
    let last = this.lines.length;
    while (last > 0 && this.lines[last - 1] === "") last--;
    return Math.max(1, Math.min(last + 1, this.lines.length));
  }

  skipBlank(): void {
    while (this.index < this.lines.length && this.lines[this.index] === "") this.index++;
  }

  /** Next non-blank line of the current message, or undefined at a message boundary or the end. */
  peekInMessage(): string | undefined {
    this.skipBlank();
    const line = this.lines[this.index];
    if (line === undefined || isBoundary(line)) return undefined;
    return line;
  }

  /** Consumes and returns the next line of the message; fails with `expected` at a boundary. */
  expectLine(expected: string): string {
    const line = this.peekInMessage();
    if (line === undefined) fail(this.endLineNo, expected, this.lines[this.index] ?? "end of message");
    this.index++;
    return line;
  }

  /** Skips `/` continuation lines of the segment just read. */
  skipContinuations(): void {
    for (let line = this.peekInMessage(); line !== undefined && line.charCodeAt(0) === 0x2f; ) {
      this.index++;
      line = this.peekInMessage();
    }
  }
}

/** SOH, STX and ETX frame a Type-B heading and text on the wire; they carry nothing of the message. */
function withoutTypeBControls(line: string): string {
  let kept = "";
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 1 && c <= 3) {
      kept += line.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? line : kept + line.slice(from);
}

function isBoundary(line: string): boolean {
  const first = line.charCodeAt(0);
  // "=" and "." start envelope lines; a letter may start an identifier or an address line.
  if (first === 0x3d || first === 0x2e) return true;
  return MESSAGE_ID_RE.test(line) || line === "NNNN" || ADDRESS_LINE_RE.test(line);
}

/** Parses one Cargo-IMP body (one or more messages, optional Type-B envelopes) into reports. */
export function parseCargoImp(text: string): CarrierReport[] {
  const cursor = new LineCursor(text);
  const reports: CarrierReport[] = [];
  let inSitaHeader = false;
  let messages = 0;
  const { lines } = cursor;
  while (cursor.index < lines.length) {
    const line = lines[cursor.index] as string;
    if (line === "") {
      cursor.index++;
      continue;
    }
    const id = MESSAGE_ID_RE.exec(line);
    if (id !== null) {
      cursor.index++;
      inSitaHeader = false;
      messages++;
      const type = id[1];
      // FSA (status answer to an FSR) has exactly the layout of an FSU.
      if (type === "FSU" || type === "FSA") parseFsu(cursor, reports);
      else if (type === "FWB") parseFwb(cursor, reports);
      else parseBookingMessage(type === "FFR" ? "FFR" : "FFA", cursor, reports);
      continue;
    }
    if (line.charCodeAt(0) === 0x3d) {
      // SITA "=HEADER", "=PRIORITY", ... blocks end with "=TEXT", after which the message follows.
      inSitaHeader = line !== "=TEXT";
    } else if (
      !inSitaHeader &&
      line.charCodeAt(0) !== 0x2e &&
      line !== "NNNN" &&
      !ADDRESS_LINE_RE.test(line)
    ) {
      fail(cursor.lineNo, EXPECT_MESSAGE_ID, line);
    }
    cursor.index++;
  }
  if (messages === 0) fail(cursor.endLineNo, EXPECT_MESSAGE_ID, "end of message");
  return reports;
}

// ---------------------------------------------------------------------------------------------
// Fields

interface ParsedDate {
  day: number;
  month: number;
  /** Present when the field carried hhmm. */
  hour?: number;
  minute?: number;
}

function checkHourMinute(line: number, hour: number, minute: number, found: string): void {
  if (hour > 23) fail(line, "an hour 00-23", found);
  if (minute > 59) fail(line, "a minute 00-59", found);
}

/** `ddMMM` or `ddMMMhhmm`. */
function parseDate(
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
  return { day, month, hour, minute };
}

function stationTimeOf(date: ParsedDate): StationTime {
  return { month: date.month, day: date.day, hour: date.hour ?? 0, minute: date.minute ?? 0, dayOffset: 0 };
}

interface TimeGroup {
  kind: "S" | "E" | "A";
  time: StationTime;
}

function parseTimeGroup(line: number, field: string, date: ParsedDate): TimeGroup {
  const m = TIME_GROUP_RE.exec(field);
  if (m === null) fail(line, EXPECT_TIME_GROUP, field);
  const hour = Number(m[2]);
  const minute = Number(m[3]);
  checkHourMinute(line, hour, minute, field);
  const dayOffset = m[4] === "N" ? 1 : m[4] === "P" ? -1 : 0;
  return {
    kind: m[1] as TimeGroup["kind"],
    time: { month: date.month, day: date.day, hour, minute, dayOffset },
  };
}

function parseStation(line: number, field: string | undefined): string {
  if (field === undefined) fail(line, EXPECT_STATION, "end of line");
  if (!isAirportCode(field)) fail(line, EXPECT_STATION, field);
  return field;
}

function parseRoute(line: number, field: string | undefined): { origin: string; destination: string } {
  if (field === undefined) fail(line, EXPECT_ROUTE, "end of line");
  if (!STATIONS_RE.test(field)) fail(line, EXPECT_ROUTE, field);
  return { origin: field.slice(0, 3), destination: field.slice(3) };
}

function parseFlight(line: number, field: string | undefined): { carrierCode: string; flightNumber: string } {
  if (field === undefined) fail(line, EXPECT_FLIGHT, "end of line");
  const flight = splitFlightDesignator(field);
  if (flight === null) fail(line, EXPECT_FLIGHT, field);
  return flight;
}

interface ParsedQuantity {
  quantity: Quantity;
  /** T or P as sent. */
  shipmentCode: "T" | "P";
  /** Total consignment pieces given after a part-shipment quantity (`P5K100T10`). */
  totalPieces: number | null;
}

function parseQuantity(line: number, field: string): ParsedQuantity {
  const m = QUANTITY_RE.exec(field);
  if (m === null) fail(line, EXPECT_QUANTITY, field);
  const shipmentCode = m[1] as "T" | "P";
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
function totalOf(parsed: ParsedQuantity | null): Quantity | null {
  if (parsed === null) return null;
  if (parsed.shipmentCode === "T") return parsed.quantity;
  if (parsed.totalPieces === null) return null;
  return { pieces: parsed.totalPieces, weightCode: null, weight: null, volumeCode: null, volume: null };
}

interface Consignment {
  awb: AwbId;
  origin: string;
  destination: string;
  quantity: ParsedQuantity | null;
  /** The consignment line: where the AWB origin and destination were read. */
  at: SourceRef;
}

/** `020-12345675FRAJFK[/T10K250.0MC1.5][/nature of goods]`. */
function parseConsignment(
  cursor: LineCursor,
  quantityRequired: boolean,
  natureOfGoods: boolean,
): Consignment {
  const text = cursor.expectLine(EXPECT_CONSIGNMENT);
  const line = cursor.lineNo - 1;
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
  const route = text.slice(12, 18);
  if (!STATIONS_RE.test(route)) fail(line, "AWB origin and destination such as FRAJFK", text.slice(12));
  const rest = text.slice(18);
  let quantity: ParsedQuantity | null = null;
  if (rest === "") {
    if (quantityRequired) fail(line, EXPECT_QUANTITY, "end of line");
  } else {
    if (rest.charCodeAt(0) !== 0x2f) fail(line, EXPECT_CONSIGNMENT, text);
    const fields = rest.slice(1).split("/");
    if (fields.length > (natureOfGoods ? 2 : 1)) fail(line, EXPECT_CONSIGNMENT, text);
    quantity = parseQuantity(line, fields[0] as string);
  }
  return {
    awb: { prefix, serial },
    origin: route.slice(0, 3),
    destination: route.slice(3),
    quantity,
    at: { line, path: null },
  };
}

// ---------------------------------------------------------------------------------------------
// FSU

function parseFsu(cursor: LineCursor, reports: CarrierReport[]): void {
  const consignment = parseConsignment(cursor, false, false);
  const base: ReportBase = {
    awb: consignment.awb,
    origin: consignment.origin,
    destination: consignment.destination,
    total: totalOf(consignment.quantity),
    consignmentAt: consignment.at,
  };
  let booking: BookingReport | null = null;
  let statusLines = 0;
  for (let text = cursor.peekInMessage(); text !== undefined; text = cursor.peekInMessage()) {
    const line = cursor.lineNo;
    cursor.index++;
    const fields = text.split("/");
    const code = fields[0] as string;
    if (code === "" && statusLines > 0) continue; // continuation line of the previous status
    if (!SEGMENT_ID_RE.test(code)) fail(line, EXPECT_STATUS, text);
    statusLines++;
    switch (code) {
      case "BKD": {
        const leg = parseBkdLeg(line, fields);
        if (booking === null) {
          booking = {
            ...reportBase(base, leg.at),
            kind: "booking",
            legs: [leg],
            wholeItinerary: false,
            source: "FSU/BKD",
          };
          reports.push(booking);
        } else {
          // Several BKD lines in one FSU state the whole itinerary (DESIGN.md section 9).
          if (booking.legs.length === MAX_ITINERARY_LEGS) fail(line, EXPECT_AT_MOST_LEGS, text);
          booking.legs.push(leg);
          booking.wholeItinerary = true;
        }
        break;
      }
      case "DEP":
      case "ARR":
      case "RCF":
        reports.push(parseFlightStatus(line, code, fields, base));
        break;
      case "RCS":
      case "NFD":
      case "AWD":
      case "DLV":
        reports.push(parseStationStatus(line, code, fields, base));
        break;
      case "CAN":
        reports.push(parseCancellation(line, fields, base));
        break;
      default: {
        if (SKIPPED_FSU_SEGMENTS.has(code)) statusLines--;
        else if (!UNTRACKED_FSU_CODES.has(code)) fail(line, EXPECT_STATUS, text);
        else {
          const other = parseOtherStatus(line, code, fields, base);
          if (other !== null) reports.push(other);
        }
        cursor.skipContinuations();
      }
    }
  }
  if (statusLines === 0)
    fail(cursor.endLineNo, EXPECT_STATUS, cursor.lines[cursor.index] ?? "end of message");
}

interface ReportBase extends Pick<StatusReport, "awb" | "origin" | "destination" | "total"> {
  consignmentAt: SourceRef;
}

/** The fields every report of a message shares, located at `at` (origin/destination: the consignment line). */
function reportBase(
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
function parseOtherStatus(
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

function parseBkdLeg(line: number, fields: string[]): FlightLeg {
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

function parseFlightStatus(
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

function parseStationStatus(
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

function parseCancellation(line: number, fields: string[], base: ReportBase): CarrierReport {
  const located = reportBase(base, { line, path: null });
  if (fields.length === 1)
    return { ...located, kind: "cancellation", time: null, station: null, source: "FSU/CAN" };
  const date = parseDate(line, fields[1], "required");
  const station = parseStation(line, fields[2]);
  if (fields.length > 3) fail(line, "a cancellation line such as CAN/14MAR1200/FRA", fields.join("/"));
  return { ...located, kind: "cancellation", time: stationTimeOf(date), station, source: "FSU/CAN" };
}

// ---------------------------------------------------------------------------------------------
// FWB

interface FwbFlight {
  carrierCode: string;
  flightNumber: string;
  day: number;
  month: number;
  /** The FLT line. */
  line: number;
}

function parseFwb(cursor: LineCursor, reports: CarrierReport[]): void {
  const messageAt: SourceRef = { line: cursor.lineNo - 1, path: null };
  const consignment = parseConsignment(cursor, true, false);
  const flights: FwbFlight[] = [];
  let routing: { destination: string; carrierCode: string }[] | null = null;
  let agent: AgentRef | null = null;
  for (let text = cursor.peekInMessage(); text !== undefined; text = cursor.peekInMessage()) {
    const line = cursor.lineNo;
    cursor.index++;
    const fields = text.split("/");
    const id = fields[0] as string;
    if (id === "") continue; // continuation of a skipped segment (SHP/CNE names, RTD lines, ...)
    switch (id) {
      case "FLT":
        parseFltLine(line, fields, flights);
        break;
      case "RTG":
        routing = parseRtgLine(line, fields, routing ?? []);
        break;
      case "AGT":
        agent = parseAgtLine(line, fields);
        break;
      default:
        if (!SKIPPED_FWB_SEGMENTS.has(id)) fail(line, EXPECT_FWB_LINE, text);
    }
  }
  const legs = fwbLegs(consignment, flights, routing);
  const report: AwbDataReport = {
    awb: consignment.awb,
    origin: consignment.origin,
    destination: consignment.destination,
    total: totalOf(consignment.quantity),
    source: "FWB",
    sourceAt: { report: messageAt, origin: consignment.at, destination: consignment.at },
    kind: "awb-data",
    agent,
    productCode: null,
    legs,
  };
  reports.push(report);
}

function parseFltLine(line: number, fields: string[], flights: FwbFlight[]): void {
  if (fields.length < 3 || fields.length % 2 === 0)
    fail(line, "a flight line such as FLT/LH400/14", fields.join("/"));
  for (let i = 1; i < fields.length; i += 2) {
    const designator = parseFlight(line, fields[i]);
    const dayField = fields[i + 1] as string;
    const m = FLT_DAY_RE.exec(dayField);
    if (m === null) fail(line, "a flight day such as 14", dayField);
    let month = 0;
    if (m[2] !== undefined) {
      const parsed = monthNumber(m[2]);
      if (parsed === undefined) fail(line, "a month JAN to DEC", dayField);
      month = parsed;
    }
    const day = Number(m[1]);
    if (day < 1 || day > (month === 0 ? 31 : daysInMonth(month)))
      fail(line, "a day of month 01-31", dayField);
    if (flights.length === MAX_ITINERARY_LEGS) fail(line, EXPECT_AT_MOST_LEGS, fields.join("/"));
    flights.push({ ...designator, day, month, line });
  }
}

function parseRtgLine(
  line: number,
  fields: string[],
  routing: { destination: string; carrierCode: string }[],
): { destination: string; carrierCode: string }[] {
  if (fields.length < 2) fail(line, "a routing line such as RTG/JFKLH", fields.join("/"));
  for (let i = 1; i < fields.length; i++) {
    const m = RTG_POINT_RE.exec(fields[i] as string);
    if (m === null) fail(line, "a routing point such as JFKLH", fields[i] as string);
    routing.push({ destination: m[1] as string, carrierCode: m[2] as string });
  }
  return routing;
}

/** IATA FWB AGT: AGT/<account no>/<agent numeric code n7>[/<CASS address n4>[/<participant id>]]. */
function parseAgtLine(line: number, fields: string[]): AgentRef | null {
  const codeField = fields[2];
  if (codeField === undefined) fail(line, "an agent line such as AGT//1234567/0001", fields.join("/"));
  const cassField = fields[3];
  // Some senders run code and CASS together (11 digits); accept that spelling too.
  const joined = cassField === undefined ? AGENT_CODE_AND_CASS_RE.exec(codeField) : null;
  if (joined !== null) return { code: joined[1] as string, cass: joined[2] as string };
  if (!AGENT_CODE_RE.test(codeField)) fail(line, "a 7-digit IATA cargo agent numeric code", codeField);
  if (cassField === undefined || cassField === "") return null;
  if (!CASS_RE.test(cassField)) fail(line, "a 4-digit CASS address", cassField);
  return { code: codeField, cass: cassField };
}

function fwbLegs(
  consignment: Consignment,
  flights: FwbFlight[],
  routing: { destination: string; carrierCode: string }[] | null,
): FlightLeg[] {
  if (flights.length === 0) return [];
  let points: string[];
  if (routing !== null && routing.length === flights.length) {
    points = routing.map((r) => r.destination);
  } else if (routing === null && flights.length === 1) {
    points = [consignment.destination];
  } else {
    return []; // FLT and RTG do not line up: no legs rather than invented ones.
  }
  return flights.map((f, i) => ({
    carrierCode: f.carrierCode,
    flightNumber: f.flightNumber,
    flightDay: f.day,
    flightMonth: f.month,
    origin: i === 0 ? consignment.origin : (points[i - 1] as string),
    destination: points[i] as string,
    scheduledDeparture: null,
    scheduledArrival: null,
    roadFeeder: null,
    quantity: null,
    at: { line: f.line, path: null },
  }));
}

// ---------------------------------------------------------------------------------------------
// FFR / FFA

function parseBookingMessage(type: "FFR" | "FFA", cursor: LineCursor, reports: CarrierReport[]): void {
  const messageAt: SourceRef = { line: cursor.lineNo - 1, path: null };
  const consignment = parseConsignment(cursor, true, true);
  cursor.skipContinuations(); // special handling codes line: /VAL/HEA
  const legs: FlightLeg[] = [];
  let flightLines = 0;
  let cancelled = 0;
  for (let text = cursor.peekInMessage(); text !== undefined; text = cursor.peekInMessage()) {
    const line = cursor.lineNo;
    cursor.index++;
    const fields = text.split("/");
    const first = fields[0] as string;
    if (first === "") continue; // continuation of SSR/OSI/ULD/DIM/...
    if (SKIPPED_BOOKING_SEGMENTS.has(first)) continue;
    if (splitFlightDesignator(first) === null) fail(line, EXPECT_FLIGHT_LINE, text);
    if (flightLines === MAX_ITINERARY_LEGS) fail(line, EXPECT_AT_MOST_LEGS, text);
    flightLines++;
    const { leg, spaceCode } = parseBookingFlightLine(line, fields, consignment);
    if (spaceCode === CANCEL_SPACE_CODE) cancelled++;
    else if (!REFUSED_SPACE_CODES.has(spaceCode)) legs.push(leg);
  }
  if (flightLines === 0)
    fail(cursor.endLineNo, EXPECT_FLIGHT_LINE, cursor.lines[cursor.index] ?? "end of message");
  const base = {
    awb: consignment.awb,
    origin: consignment.origin,
    destination: consignment.destination,
    total: totalOf(consignment.quantity),
    source: type,
    sourceAt: { report: messageAt, origin: consignment.at, destination: consignment.at },
  };
  if (cancelled === flightLines) {
    reports.push({ ...base, kind: "cancellation", time: null, station: null });
  } else if (legs.length > 0) {
    reports.push({ ...base, kind: "booking", legs, wholeItinerary: true });
  }
}

function parseBookingFlightLine(
  line: number,
  fields: string[],
  consignment: Consignment,
): { leg: FlightLeg; spaceCode: string } {
  const designator = parseFlight(line, fields[0]);
  const date = parseDate(line, fields[1], "none");
  const route = parseRoute(line, fields[2]);
  const spaceCode = fields[3];
  if (
    spaceCode === undefined ||
    !(
      KEPT_SPACE_CODES.has(spaceCode) ||
      REFUSED_SPACE_CODES.has(spaceCode) ||
      spaceCode === CANCEL_SPACE_CODE
    )
  ) {
    fail(line, "a space allocation code such as KK, NN or XX", spaceCode ?? "end of line");
  }
  const groups: TimeGroup[] = [];
  for (let i = 4; i < fields.length; i++) {
    const field = fields[i] as string;
    if (TIME_GROUP_RE.test(field)) {
      const group = parseTimeGroup(line, field, date);
      if (group.kind === "A") fail(line, "a scheduled or estimated time group such as S1325", field);
      groups.push(group);
    } else if (i !== 4 || field === "") {
      // Only the first field after the code may be an allotment identification.
      fail(line, EXPECT_TIME_GROUP, field);
    }
  }
  if (groups.length > 2) fail(line, "at most two time groups (departure, arrival)", fields.join("/"));
  return {
    spaceCode,
    leg: {
      ...designator,
      flightDay: date.day,
      flightMonth: date.month,
      origin: route.origin,
      destination: route.destination,
      scheduledDeparture: groups[0]?.time ?? null,
      scheduledArrival: groups[1]?.time ?? null,
      roadFeeder: null,
      quantity: consignment.quantity?.quantity ?? null,
      at: { line, path: null },
    },
  };
}
