/**
 * Cargo-IMP FSU (status update) and FSA (status answer to an FSR, the same layout): a consignment
 * line, then status lines (field separator `/`):
 *   BKD/<flight>/<ddMMM>/<ORGDST>[/<qty>][/<S|E hhmm>[/<S|E hhmm>]]   1 group: departure, 2: dep+arr
 *   DEP/<flight>/<ddMMM[hhmm]>/<ORG[DST]>[/<qty>][/<time group>...]  actual = A group, else hhmm
 *   ARR|RCF/<flight>/<ddMMM[hhmm]>/<[ORG]DST>[/<qty>][/<time group>...] (RCF flight optional)
 *   RCS|NFD|AWD/<ddMMMhhmm>/<STN>[/<qty>][/<name>]     DLV: same, <name> = consignee who took delivery
 *   CAN[/<ddMMMhhmm>/<STN>]   booking cancelled. FSU has no standard cancellation status (DIS is a
 *                             discrepancy, not a cancellation), so this CAN line is our documented
 *                             extension; FFR/FFA with every flight `XX` is the standard way.
 *   Other standard FSU codes beyond the milestones (FOH, MAN, PRE, TFD, DIS, ...) become other-status
 *   reports kept as history (status-lines.ts; a line of theirs without a station or time is skipped);
 *   the optional lines OSI, OCI, ULD, OTH, SSR, SRI, REF, DIM are skipped, with their `/` continuation
 *   lines; an unknown code is an error. Several BKD lines state the whole itinerary (at most
 *   MAX_ITINERARY_LEGS legs).
 * Every report carries its status line and the consignment line (`sourceAt`), each BKD leg its line.
 */
import { EXPECT_AT_MOST_LEGS, MAX_ITINERARY_LEGS, UNTRACKED_FSU_CODES } from "../common.ts";
import type { BookingReport, CarrierReport } from "../types.ts";
import { parseConsignment, totalOf } from "./fields.ts";
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

/** Reads an FSU or FSA after its identifier line: the consignment line, then its status lines. */
export function parseFsu(cursor: LineCursor, reports: CarrierReport[]): void {
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
  if (statusLines === 0) fail(cursor.endLineNo, EXPECT_STATUS, cursor.endText);
}
