/**
 * Cargo-IMP FFR (booking request) and FFA (booking answer): consignment line (`/nature of goods`
 * allowed), optional `/SPH/SPH` line, flight lines
 * `<flight>/<ddMMM>/<ORGDST>/<space allocation code>[/<allotment id>]` and, as an extension, time
 * groups `/S1325/S1555` after the code. Other segments (ULD, SSR, OSI, REF, DIM, PID, SHP, CNE, CUS,
 * SRI) are skipped. XX (cancel) and UU/UN/NO/UC/US (refused) flights are dropped; when every flight is
 * XX the message is a cancellation; when nothing else is left (all refused) it yields no report. The
 * flight lines state the whole itinerary (at most MAX_ITINERARY_LEGS). The report carries the
 * identifier line and the consignment line, each leg its flight line.
 */
import { EXPECT_AT_MOST_LEGS, MAX_ITINERARY_LEGS, splitFlightDesignator } from "../common.ts";
import type { CarrierReport, FlightLeg, MessageOrigin, SourceRef } from "../types.ts";
import {
  type Consignment,
  EXPECT_TIME_GROUP,
  parseConsignment,
  parseDate,
  parseFlight,
  parseRoute,
  parseTimeGroup,
  TIME_GROUP_RE,
  type TimeGroup,
  totalOf,
} from "./fields.ts";
import { fail, type LineCursor } from "./lexer.ts";

const EXPECT_FLIGHT_LINE = "a flight line such as LH400/14MAR/FRAJFK/KK";

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

/** Reads an FFR or FFA after its identifier line: the consignment line, then its flight lines. */
export function parseBookingMessage(
  cursor: LineCursor,
  reports: CarrierReport[],
  message: MessageOrigin,
): void {
  const messageAt: SourceRef = { line: cursor.lineNo - 1, path: null };
  const consignment = parseConsignment(cursor, { quantityRequired: true, natureOfGoods: "one" });
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
  if (flightLines === 0) fail(cursor.endLineNo, EXPECT_FLIGHT_LINE, cursor.endText);
  const base = {
    awb: consignment.awb,
    origin: consignment.origin,
    destination: consignment.destination,
    total: totalOf(consignment.quantity),
    source: message.type,
    message,
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
      carrierCode: designator.carrierCode,
      flightNumber: designator.flightNumber,
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
