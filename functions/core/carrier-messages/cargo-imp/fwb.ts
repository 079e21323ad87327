/**
 * Cargo-IMP FWB (air waybill data, versions 9 to 17): consignment line (quantity with volume or
 * density group), then segments.
 *   FLT/<flight>/<dd[MMM]>[/<flight>/<dd[MMM]>...] (several lines allowed), RTG/<DSTcc>[/<DSTcc>...]
 *   (each point with its carrier), AGT/<account>/<agent numeric code n7>[/<CASS address n4>
 *   [/<participant id>]] followed by `/name` and `/place` lines (IATA FWB AGT grammar, e.g.
 *   `AGT//3360525/0151`; an account alone names no agent).
 *   Read and not kept: the parties SHP, CNE and NFY, in the FWB/16-17 form (the line, then NAM/,
 *   ADR/, LOC/ lines and a `/country/postcode/contact` line) or the older form (`/` lines only);
 *   SSR, ACC, CVD, RTD (rates, with their numbered `/` lines), OTH, PPD, COL, CER, ISU, OSI, CDC,
 *   REF, COR, COI, SII, ARD, SPH, NOM, SRI, OPI, OCI, and every `/` continuation line.
 *   Any other line (free text that lost its leading `/`, an unknown segment, a documentation
 *   excerpt's "..."), is skipped with a note in the message's provenance rather than refusing the
 *   waybill: the route map needs only the consignment line, FLT, RTG and AGT, and those are read
 *   strictly (a malformed one is still a 400 naming its line). A routing point without its carrier
 *   (`RTG/.../LGG`) is read with a note: legs take their carrier from the FLT line.
 * Legs: flight i flies from the previous routing point (the AWB origin first) to RTG point i, when FLT
 *   and RTG have the same number of flights/points (or a single flight and no RTG: AWB origin to
 *   destination). Otherwise the FWB gives no legs rather than invented ones. FLT carries a day only:
 *   `flightMonth` is then 0 ("not given"; the core takes the month nearest the receipt time). At most
 *   MAX_ITINERARY_LEGS FLT flights. productCode: the FWB has no product-code field, so it is always null.
 * The report carries the FWB identifier line and the consignment line, each leg its FLT line.
 */
import { daysInMonth, EXPECT_AT_MOST_LEGS, MAX_ITINERARY_LEGS, monthNumber } from "../common.ts";
import type {
  AgentRef,
  AwbDataReport,
  CarrierReport,
  FlightLeg,
  MessageOrigin,
  SourceRef,
} from "../types.ts";
import { type Consignment, parseConsignment, parseFlight, totalOf } from "./fields.ts";
import { fail, type LineCursor, noteSkipped } from "./lexer.ts";

const FLT_DAY_RE = /^(\d{2})([A-Z]{3})?$/;
const RTG_POINT_RE = /^([A-Z]{3})([A-Z0-9]{2})?$/;
const AGENT_CODE_RE = /^\d{7}$/;
const CASS_RE = /^\d{4}$/;
const AGENT_CODE_AND_CASS_RE = /^(\d{7})(\d{4})$/;

/** The parties, whose NAM/, ADR/ and LOC/ lines follow them (FWB/16 and later). */
const PARTIES: ReadonlySet<string> = new Set(["SHP", "CNE", "NFY"]);
const PARTY_LINES: ReadonlySet<string> = new Set(["NAM", "ADR", "LOC"]);

/** FWB segments the route map needs, read strictly. */
const READ_FWB_SEGMENTS: ReadonlySet<string> = new Set(["FLT", "RTG", "AGT"]);

/** FWB segments read and not kept (their `/` continuation lines are skipped too). */
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

interface FwbFlight {
  carrierCode: string;
  flightNumber: string;
  day: number;
  month: number;
  /** The FLT line. */
  line: number;
}

/** Reads an FWB after its identifier line: the consignment line, then its segments. */
export function parseFwb(cursor: LineCursor, reports: CarrierReport[], message: MessageOrigin): void {
  const messageAt: SourceRef = { line: cursor.lineNo - 1, path: null };
  const consignment = parseConsignment(cursor, { quantityRequired: true, natureOfGoods: "none" });
  const flights: FwbFlight[] = [];
  let routing: RoutingPoint[] | null = null;
  let agent: AgentRef | null = null;
  /** The segment whose lines are being read: NAM/ADR/LOC belong to a party. */
  let segment = "";
  for (let text = cursor.peekInMessage(); text !== undefined; text = cursor.peekInMessage()) {
    const line = cursor.lineNo;
    cursor.index++;
    const fields = text.split("/");
    const id = fields[0] as string;
    if (id === "") continue; // continuation of a segment (party lines, RTD lines, OCI lines, ...)
    if (PARTY_LINES.has(id) && PARTIES.has(segment)) continue;
    if (!READ_FWB_SEGMENTS.has(id) && !SKIPPED_FWB_SEGMENTS.has(id)) {
      // Not a segment of the FWB: skipped without ending the segment it may belong to.
      noteSkipped(message, line, skippedLineReason(text));
      continue;
    }
    segment = id;
    switch (id) {
      case "FLT":
        parseFltLine(line, fields, flights);
        break;
      case "RTG":
        routing = parseRtgLine(line, fields, routing ?? [], message);
        break;
      case "AGT":
        agent = parseAgtLine(line, fields);
        break;
      default:
      // read and not kept (SKIPPED_FWB_SEGMENTS), continuation lines too
    }
  }
  const legs = fwbLegs(consignment, flights, routing);
  const report: AwbDataReport = {
    awb: consignment.awb,
    origin: consignment.origin,
    destination: consignment.destination,
    total: totalOf(consignment.quantity),
    source: "FWB",
    message,
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

/** A routing point: the airport and the carrier to it ("" when the line leaves the carrier out). */
interface RoutingPoint {
  destination: string;
  carrierCode: string;
}

function parseRtgLine(
  line: number,
  fields: string[],
  routing: RoutingPoint[],
  message: MessageOrigin,
): RoutingPoint[] {
  if (fields.length < 2) fail(line, "a routing line such as RTG/JFKLH", fields.join("/"));
  for (let i = 1; i < fields.length; i++) {
    const m = RTG_POINT_RE.exec(fields[i] as string);
    if (m === null) fail(line, "a routing point such as JFKLH", fields[i] as string);
    if (m[2] === undefined) noteSkipped(message, line, `routing point ${m[1]} without its carrier`);
    routing.push({ destination: m[1] as string, carrierCode: m[2] ?? "" });
  }
  return routing;
}

/** Why a line that is no FWB segment was skipped, in words support can read. */
function skippedLineReason(text: string): string {
  if (/^[A-Z]{3}(?:\/|$)/.test(text)) return `segment ${text.slice(0, 3)}, which the FWB does not have`;
  if (/^\.+$/.test(text)) return "an elision mark (...), no FWB content";
  return "free text without its leading / (a continuation of the segment before)";
}

/**
 * IATA FWB AGT: AGT/<account no>/<agent numeric code n7>[/<CASS address n4>[/<participant id>]];
 * the account or the agent code must be there (an account alone names no IATA agent).
 */
function parseAgtLine(line: number, fields: string[]): AgentRef | null {
  const codeField = fields[2];
  if (codeField === undefined || codeField === "") {
    if ((fields[1] ?? "") !== "" && fields.length <= 3) return null;
    fail(line, "an agent line such as AGT//1234567/0001", fields.join("/"));
  }
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
  routing: RoutingPoint[] | null,
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
