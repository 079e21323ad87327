/**
 * Cargo-IMP FSU (status update) and FSA (status answer to an FSR, the same layout): a consignment
 * line, then status lines (field separator `/`):
 *   BKD/<flight>/<ddMMM>/<ORGDST>[/<qty>][/<S|E dep>][/<S|E arr>][/<volume>]  the carrier alone: no number yet;
 *                             an A group there is no schedule: left out with a note
 *   DEP/<flight>/<ddMMM[hhmm]>/<ORG[DST]>[/<qty>][/<dep group>][/<arr group>]  actual = A group, else hhmm
 *   ARR|RCF/[<flight>]/<ddMMM[hhmm[-x]]>/<[ORG]DST>[/<qty>][/<dep>][/<arr>]   (RCF may leave the field out)
 *   RCS|NFD|AWD|DLV/<ddMMMhhmm[-x]>/<STN>[/<qty>][/<name>]   DLV: <name> = who took delivery
 *   CAN[/<ddMMMhhmm>/<STN>]   booking cancelled. FSU has no standard cancellation status (DIS is a
 *                             discrepancy, not a cancellation), so this CAN line is our documented
 *                             extension; FFR/FFA with every flight `XX` is the standard way.
 *   A time group is S, E or A + hhmm and a day change indicator (`-N`, `-P`, `-S`, `-T`, ...). A
 *   status line without a time (a bulk or ULD-level DEP) is reported at the message's receipt.
 *   Other standard FSU codes beyond the milestones (FOH, MAN, PRE, TFD, DIS, FIW, ...) become
 *   other-status reports kept as history (status-lines.ts; a line of theirs without a station or
 *   time is skipped); the optional lines OSI, OCI, ULD, OTH, SSR, SRI, REF, DIM are skipped, with
 *   their `/` continuation lines (a status's own volume and density line among them); an unknown
 *   code is an error. Several BKD lines state the whole itinerary (at most MAX_ITINERARY_LEGS legs).
 * An FSA may repeat the consignment line (each part of a consignment carried by several carriers
 * with its own, `P20T30` then `P10T30`), and may answer "no record found" with the AWB alone and an
 * OSI line. An FSU carries a status line or an OCI line (the Cargo-IMP manual, FSU 5.2); an FSA a
 * status line or an OSI line.
 * Every report carries its status line and the consignment line (`sourceAt`), each BKD leg its line.
 */
import { EXPECT_AT_MOST_LEGS, MAX_ITINERARY_LEGS, UNTRACKED_FSU_CODES } from "../common.ts";
import type { BookingReport, CarrierReport, MessageOrigin } from "../types.ts";
import {
  type Consignment,
  isConsignmentLine,
  parseConsignment,
  parseConsignmentLine,
  totalOf,
} from "./fields.ts";
import { fail, type LineCursor } from "./lexer.ts";
import {
  EXPECT_STATUS,
  parseBkdLeg,
  parseCancellation,
  parseFlightStatus,
  parseOtherStatus,
  parseStationStatus,
  type ReportBase,
  reportBase,
} from "./status-lines.ts";

const SEGMENT_ID_RE = /^[A-Z]{3}$/;

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

const CONSIGNMENT_RULES = { quantityRequired: false, natureOfGoods: "none", routeOptional: true } as const;
const EXPECT_ROUTE_FOR_STATUS = "AWB origin and destination such as FRAJFK (a status line follows)";

function baseOf(consignment: Consignment, message: MessageOrigin): ReportBase {
  return {
    awb: consignment.awb,
    origin: consignment.origin,
    destination: consignment.destination,
    total: totalOf(consignment.quantity),
    consignmentAt: consignment.at,
    message,
  };
}

/** Reads an FSU or FSA after its identifier line: the consignment line, then its status lines. */
export function parseFsu(cursor: LineCursor, reports: CarrierReport[], message: MessageOrigin): void {
  const answer = message.type === "FSA";
  let consignment = parseConsignment(cursor, CONSIGNMENT_RULES);
  let base = baseOf(consignment, message);
  let booking: BookingReport | null = null;
  let statusLines = 0;
  let content = 0;
  for (let text = cursor.peekInMessage(); text !== undefined; text = cursor.peekInMessage()) {
    const line = cursor.lineNo;
    cursor.index++;
    if (isConsignmentLine(text)) {
      // The next part of the consignment, with its own quantity (FSA 6.19).
      consignment = parseConsignmentLine(line, text, CONSIGNMENT_RULES);
      base = baseOf(consignment, message);
      booking = null;
      continue;
    }
    const fields = text.split("/");
    const code = fields[0] as string;
    if (code === "" && statusLines > 0) continue; // continuation line of the previous status
    if (!SEGMENT_ID_RE.test(code)) fail(line, EXPECT_STATUS, text);
    if (SKIPPED_FSU_SEGMENTS.has(code)) {
      if ((answer && code === "OSI") || (!answer && code === "OCI")) content++;
      cursor.skipContinuations();
      continue;
    }
    if (!UNTRACKED_FSU_CODES.has(code) && !TRACKED_CODES.has(code)) fail(line, EXPECT_STATUS, text);
    if (base.origin === "") fail(consignment.at.line, EXPECT_ROUTE_FOR_STATUS, "the AWB alone");
    statusLines++;
    content++;
    switch (code) {
      case "BKD": {
        const leg = parseBkdLeg(line, fields, message);
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
        const other = parseOtherStatus(line, code, fields, base);
        if (other !== null) reports.push(other);
        cursor.skipContinuations();
      }
    }
  }
  if (content === 0) fail(cursor.endLineNo, EXPECT_STATUS, cursor.endText);
}

const TRACKED_CODES: ReadonlySet<string> = new Set([
  "BKD",
  "DEP",
  "ARR",
  "RCF",
  "RCS",
  "NFD",
  "AWD",
  "DLV",
  "CAN",
]);
