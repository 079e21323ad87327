/**
 * The flight lists of Cargo-IMP, one grammar: the FFM (airline flight manifest, versions 2 to 8: what
 * one flight carries from its point of loading) and the FBL (freight booked list: what is booked on
 * it), both listed by point of unloading.
 *   <part>/<flight>/<ddMMM[hhmm]>/<loading airport>[/<aircraft registration>][/<country>/<ddMMMhhmm>/<airport>]
 *   then for each point of unloading:
 *     <unloading airport>[/NIL][/<ddMMMhhmm scheduled arrival>][/<ddMMMhhmm scheduled departure>]
 *     consignment lines `<AWB><ORGDST>/<T|P|S|D pieces>[K weight][volume][density][T total]/<goods>`
 *       (an FBL may give the destination alone: `057-12345675IAH/...`, from the point of loading),
 *       each followed by its own lines: `/` special handling, onward movement and booking-agent
 *       lines, DIM, OSI, COR, OCI, SSR (with their `/` lines);
 *     ULD/<type serial owner[-position]>[/<remarks>] (and its `/` lines) before the consignments it holds
 *   CONT or LAST ends the message part.
 * Reports: for every AWB listed under a point of unloading, a booking of this flight leg (loading
 * airport to unloading airport, the scheduled departure and arrival where the list gives them, the
 * pieces and weight of all its lines on the leg: a split AWB is listed once per ULD); a manifest adds
 * MAN at the loading airport, kept in the history (at the scheduled departure, else at receipt). An
 * AWB line that cannot be read (a wrong check digit) refuses the whole list, naming its line: the
 * list is one message, and a corrupt number could be another shipment's.
 */
import type {
  BookingReport,
  CarrierReport,
  MessageOrigin,
  OtherStatusReport,
  StationTime,
} from "../types.ts";
import {
  type Consignment,
  isConsignmentLine,
  type ParsedDate,
  parseConsignmentLine,
  parseDate,
  parseFlight,
  parseStation,
  stationTimeOf,
  totalOf,
} from "./fields.ts";
import { fail, type LineCursor } from "./lexer.ts";

const EXPECT_HEADER = "a manifest header such as 1/LH400/14MAR/FRA";
const EXPECT_LIST_LINE =
  "a point of unloading such as JFK, a consignment, ULD/, DIM/, OSI/, COR/, OCI/, SSR/, LAST or CONT";
/** An AWB line with the destination alone (FBL): `057-12345675IAH/T1K120`. */
const DESTINATION_ONLY_RE = /^(\d{3}-\d{8})([A-Z]{3})(\/|$)/;
const PART_RE = /^\d{1,3}$/;
const UNLOADING_RE = /^[A-Z]{3}$/;
/** Lines that belong to the consignment or ULD before them (their `/` lines follow them). */
const ITEM_LINES: ReadonlySet<string> = new Set(["ULD", "DIM", "OSI", "COR", "OCI", "SSR", "SCI", "OTH"]);

interface ManifestFlight {
  carrierCode: string;
  flightNumber: string;
  date: ParsedDate;
  loading: string;
  /** The header line. */
  line: number;
}

/** A point of unloading: the airport, its line and the scheduled arrival there. */
interface Unloading {
  airport: string;
  line: number;
  arrival: StationTime | null;
}

/** One AWB under one point of unloading: its lines' pieces and weight added up. */
interface ManifestEntry {
  consignment: Consignment;
  unloading: Unloading;
  pieces: number;
  weight: number | null;
  weightCode: "K" | "L" | null;
}

/** What a list reports: a manifest (FFM) books and keeps MAN; a booked list (FBL) books. */
export type FlightListKind = "manifest" | "booked-list";

/** Reads an FFM or FBL after its identifier line. */
export function parseFlightList(
  kind: FlightListKind,
  cursor: LineCursor,
  reports: CarrierReport[],
  message: MessageOrigin,
): void {
  const flight = parseHeader(cursor);
  const entries = new Map<string, ManifestEntry>();
  let unloading: Unloading | null = null;
  let ended = false;
  for (let text = cursor.peekInMessage(); text !== undefined; text = cursor.peekInMessage()) {
    const line = cursor.lineNo;
    cursor.index++;
    if (ended) fail(line, "nothing after LAST or CONT", text);
    if (text === "LAST" || text === "CONT") {
      ended = true;
      continue;
    }
    if (text.charCodeAt(0) === 0x2f) continue; // a `/` line of the item before it
    if (isConsignmentLine(text)) {
      if (unloading === null) fail(line, "a point of unloading such as JFK before the consignments", text);
      add(entries, consignmentOf(line, text, flight.loading), unloading);
      continue;
    }
    const fields = text.split("/");
    const id = fields[0] as string;
    if (ITEM_LINES.has(id)) continue;
    if (!UNLOADING_RE.test(id)) fail(line, EXPECT_LIST_LINE, text);
    unloading = { airport: id, line, arrival: null };
    for (let i = 1; i < fields.length; i++) {
      const field = fields[i] as string;
      if (field === "" || field === "NIL") continue;
      const date = parseDate(line, field, "optional");
      // The first date-time is the scheduled arrival there, a second its onward departure.
      if (unloading.arrival === null && date.hour !== undefined) unloading.arrival = stationTimeOf(date);
    }
  }
  pushReports(kind, flight, entries, reports, message);
}

/** An AWB line; one with the destination alone goes from the point of loading. */
function consignmentOf(line: number, text: string, loading: string): Consignment {
  const rules = { quantityRequired: false, natureOfGoods: "free" } as const;
  const short = DESTINATION_ONLY_RE.exec(text);
  if (short === null) return parseConsignmentLine(line, text, rules);
  return parseConsignmentLine(line, `${short[1]}${loading}${text.slice(12)}`, rules);
}

function parseHeader(cursor: LineCursor): ManifestFlight {
  const text = cursor.expectLine(EXPECT_HEADER);
  const line = cursor.lineNo - 1;
  const fields = text.split("/");
  if (!PART_RE.test(fields[0] ?? "")) fail(line, EXPECT_HEADER, text);
  const designator = parseFlight(line, fields[1]);
  const date = parseDate(line, fields[2], "optional");
  const loading = parseStation(line, fields[3]);
  return { ...designator, date, loading, line };
}

function add(entries: Map<string, ManifestEntry>, consignment: Consignment, unloading: Unloading): void {
  const key = `${consignment.awb.prefix}-${consignment.awb.serial}>${unloading.airport}`;
  const quantity = consignment.quantity?.quantity ?? null;
  const entry = entries.get(key);
  if (entry === undefined) {
    entries.set(key, {
      consignment,
      unloading,
      pieces: quantity?.pieces ?? 0,
      weight: quantity?.weight ?? null,
      weightCode: quantity?.weightCode ?? null,
    });
    return;
  }
  entry.pieces += quantity?.pieces ?? 0;
  if (quantity?.weight != null && (entry.weightCode === null || entry.weightCode === quantity.weightCode)) {
    entry.weight = Math.round(((entry.weight ?? 0) + quantity.weight) * 1000) / 1000;
    entry.weightCode = quantity.weightCode;
  }
}

function pushReports(
  kind: FlightListKind,
  flight: ManifestFlight,
  entries: Map<string, ManifestEntry>,
  reports: CarrierReport[],
  message: MessageOrigin,
): void {
  const departure = flight.date.hour === undefined ? null : stationTimeOf(flight.date);
  const manifestFlight = { carrierCode: flight.carrierCode, flightNumber: flight.flightNumber };
  for (const entry of entries.values()) {
    const { consignment } = entry;
    const sourceAt = {
      report: { line: consignment.at.line, path: null },
      origin: consignment.at,
      destination: consignment.at,
    };
    const total = totalOf(consignment.quantity);
    // Object literals of one shape each, without spreads: the hot path of a long manifest.
    const booking: BookingReport = {
      awb: consignment.awb,
      origin: consignment.origin,
      destination: consignment.destination,
      total,
      message,
      sourceAt,
      kind: "booking",
      source: message.type,
      wholeItinerary: false,
      legs: [
        {
          carrierCode: flight.carrierCode,
          flightNumber: flight.flightNumber,
          flightDay: flight.date.day,
          flightMonth: flight.date.month,
          origin: flight.loading,
          destination: entry.unloading.airport,
          scheduledDeparture: departure,
          scheduledArrival: entry.unloading.arrival,
          roadFeeder: null,
          quantity: {
            pieces: entry.pieces,
            weightCode: entry.weight === null ? null : entry.weightCode,
            weight: entry.weight,
            volumeCode: null,
            volume: null,
          },
          // The point of unloading's line names the leg's end (its start is the header's).
          at: { line: entry.unloading.line, path: null },
        },
      ],
    };
    reports.push(booking);
    if (kind === "booked-list") continue;
    const manifested: OtherStatusReport = {
      awb: consignment.awb,
      origin: consignment.origin,
      destination: consignment.destination,
      total,
      message,
      sourceAt,
      kind: "other-status",
      source: `${message.type}/MAN`,
      code: "MAN",
      station: flight.loading,
      time: departure,
      flight: manifestFlight,
      pieces: entry.pieces,
    };
    reports.push(manifested);
  }
}
