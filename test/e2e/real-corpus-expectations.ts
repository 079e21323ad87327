/**
 * What the real-message corpus (test/fixtures/real, README there) says each file means, turned into
 * checks of what the service answers and shows: the route map (milestones with their actual times as
 * UTC/local pairs, flights) and the history's status messages. Pure: no HTTP here.
 *
 * Dates: Cargo-IMP dates carry no year, and the service reads them in the year nearest receipt, so
 * times are compared by month, day, hour and minute only.
 */
import { readFileSync } from "node:fs";
import { toPair } from "../../functions/core/time/station-time.ts";

const DIRECTORY = new URL("../fixtures/real/", import.meta.url);
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAY_CHANGE: Record<string, number> = { P: -1, N: 1, S: 2, T: 3 };
export const MILESTONE_CODES = new Set(["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]);
/** Codes whose date field gives the status's own time (the manifest's `time` is that field's hhmm). */
const DATE_TIME_CODES = new Set([
  "RCS",
  "RCT",
  "RCF",
  "ARR",
  "AWR",
  "NFD",
  "AWD",
  "CCD",
  "DLV",
  "DDL",
  "DIS",
  "CRC",
  "TGC",
  "TFD",
  "FOH",
  "FIW",
  "FOW",
]);

export interface TimeGroup {
  type: "S" | "E" | "A";
  time: string;
  dayChange: string | null;
  of: "departure" | "arrival";
}

export interface ManifestStatus {
  code: string;
  awb: string;
  station: string;
  flight?: string;
  carrier?: string;
  day?: string;
  month?: string;
  time: string | null;
  timeType?: string | null;
  dayChange?: string | null;
  origin?: string;
  destination?: string;
  pieces?: number;
  times?: TimeGroup[];
}

export interface ManifestEntry {
  file: string;
  source: string;
  format: "cargo-imp" | "cargo-xml" | "one-record";
  type: string;
  version: string;
  expected: "understood" | "refused";
  refusalReason?: string;
  awbs?: string[];
  awbCheckDigitsValid?: boolean;
  origin?: string;
  destination?: string;
  pieces?: number;
  statuses?: ManifestStatus[];
  flights?: { carrier: string; number: string; date: string; from?: string; to?: string | string[] }[];
  agent?: { code: string; cass?: string };
  consignments?: { awb: string; origin?: string; destination?: string; qty?: string }[];
  manifest?: {
    unloading: { airport: string; awbs: { awb: string; origin: string; destination: string }[] }[];
  };
  expectedInContext?: string;
  /** The lines the service skips with a note (in the provenance's SkippedLines), in its words. */
  skipped?: string[];
}

export const manifest: ManifestEntry[] = JSON.parse(
  readFileSync(new URL("manifest.json", DIRECTORY), "utf8"),
) as ManifestEntry[];

/** The file's bytes as the carrier posts them (all files are UTF-8: ASCII but one en dash). */
export const body = (entry: ManifestEntry): string => readFileSync(new URL(entry.file, DIRECTORY), "utf8");

export const contentType = (entry: ManifestEntry): string =>
  entry.format === "cargo-imp"
    ? "text/plain"
    : entry.format === "cargo-xml"
      ? "application/xml"
      : "application/ld+json";

/** The repository a file came from (`owner/name`). */
export const sourceRepository = (entry: ManifestEntry): string =>
  entry.source.split(" @ ")[0] ?? entry.source;

/** A valid AWB: 3-digit prefix, 8-digit serial whose last digit is the first seven mod 7. */
export const validAwb = (awb: string): boolean => {
  const m = /^(\d{3})-(\d{8})$/.exec(awb);
  return m !== null && Number((m[2] as string).slice(0, 7)) % 7 === Number((m[2] as string)[7]);
};

/** The carriers that post the file: one per AWB prefix (a manifest lists other airlines' AWBs too). */
export function postingPrefixes(entry: ManifestEntry): string[] {
  const prefixes = [...new Set((entry.awbs ?? []).map((awb) => awb.slice(0, 3)))];
  if (entry.expected === "refused" || prefixes.length === 0) return [prefixes[0] ?? "020"];
  return prefixes;
}

/** The AWB's origin and destination as the file's consignment lines give them. */
export function awbRoutes(entry: ManifestEntry): Map<string, { origin: string; destination: string }> {
  const routes = new Map<string, { origin: string; destination: string }>();
  // An FSA answering "no record found" gives the AWB alone.
  for (const c of entry.consignments ?? [])
    if (c.origin && c.destination) routes.set(c.awb, { origin: c.origin, destination: c.destination });
  for (const u of entry.manifest?.unloading ?? [])
    for (const a of u.awbs) routes.set(a.awb, { origin: a.origin, destination: a.destination });
  const only = entry.awbs?.length === 1 ? entry.awbs[0] : undefined;
  if (only !== undefined && entry.origin && entry.destination && !routes.has(only))
    routes.set(only, { origin: entry.origin, destination: entry.destination });
  return routes;
}

/**
 * The shipment as the carrier knows it before a status answer or manifest: its air waybill (an FWB
 * with the consignment line's route, no agent, no flights). History lines are kept only for a
 * shipment the service tracks, as a carrier's FWB makes it.
 */
export function waybillSeed(awb: string, route: { origin: string; destination: string }): string {
  return `FWB/16\n${awb}${route.origin}${route.destination}/T1\n`;
}

/** "line 15" from a refusal reason, when it names one. */
export function refusalLine(entry: ManifestEntry): number | null {
  const m = /\bline (\d+)\b/.exec(entry.refusalReason ?? "");
  return m === null ? null : Number(m[1]);
}

// ---- what the route map and history must show ---------------------------------------------------

export interface DateTimePair {
  Utc: string;
  Local: string;
}
interface Milestone {
  Name: string;
  Station: string;
  ActualDateTime: DateTimePair | null;
}
interface FlightView {
  FlightInfo: {
    CarrierCode: string;
    Number: string;
    Date: string;
    Routing: { Origin: string; Destination: string };
  };
  Milestone: Milestone[];
}
export interface RouteMapView {
  Shipment: { Routing: { Origin: string; Destination: string } };
  MilestonePlan: {
    OriginCycle: { Milestone: Milestone[] };
    RoutingCycle: { Flight: FlightView[] };
    DestinationCycle: { Milestone: Milestone[] };
  };
}
interface ProvenanceView {
  SkippedLines?: string[];
}
export interface HistoryView {
  RouteMap: RouteMapView;
  Snapshots: { Provenance: ProvenanceView | null }[];
  StatusMessages: {
    Code: string;
    Station: string;
    DateTime: DateTimePair;
    FlightNumber?: string;
    CarrierCode?: string;
    Provenance?: ProvenanceView;
  }[];
}

/** One thing the corpus says a file means, checked against the AWB's history answer. */
export interface Check {
  awb: string;
  what: string;
  holds(history: HistoryView): boolean;
}

/** `MM-DDTHH:MM` of a local date (`DD` + `MMM`) with its hhmm and day change. */
function expectedLocal(
  day: string,
  month: string,
  hhmm: string,
  dayChange: string | null | undefined,
): string {
  const date = new Date(Date.UTC(2024, MONTHS.indexOf(month), Number(day)));
  date.setUTCDate(date.getUTCDate() + (dayChange ? (DAY_CHANGE[dayChange] ?? 0) : 0));
  const mm = String(date.getUTCMonth() + 1).padStart(2, "0");
  const dd = String(date.getUTCDate()).padStart(2, "0");
  return `${mm}-${dd}T${hhmm.slice(0, 2)}:${hhmm.slice(2)}`;
}

/** The pair is one instant: the local time is the UTC time at the station. */
function consistentPair(station: string, pair: DateTimePair): boolean {
  return toPair(station, pair.Utc).Local === pair.Local;
}

const sameLocal = (pair: DateTimePair, local: string): boolean => pair.Local.slice(5, 16) === local;

export function milestones(map: RouteMapView): Milestone[] {
  return [
    ...map.MilestonePlan.OriginCycle.Milestone,
    ...map.MilestonePlan.RoutingCycle.Flight.flatMap((f) => f.Milestone),
    ...map.MilestonePlan.DestinationCycle.Milestone,
  ];
}

/** The status's own time as the service reads it, or null when the line gives none. */
export function statusLocalTime(s: ManifestStatus): string | null {
  if (s.day === undefined || s.month === undefined) return null;
  if (DATE_TIME_CODES.has(s.code) && s.time !== null && s.timeType === "A")
    return expectedLocal(s.day, s.month, s.time, s.dayChange);
  const actual = s.times?.find((t) => t.type === "A");
  if (actual) return expectedLocal(s.day, s.month, actual.time, actual.dayChange);
  const departure = s.times?.find((t) => t.of === "departure");
  if ((s.code === "MAN" || s.code === "PRE") && departure)
    return expectedLocal(s.day, s.month, departure.time, departure.dayChange);
  return null;
}

/**
 * The checks of one file: each status line (a milestone's actual on the route map, a code beyond the
 * milestones in the history, a BKD's flight), each flight the waybill or manifest books. A history
 * line the service knowingly skips (no date, or no time outside a manifest) has no check.
 */
export function checksOf(entry: ManifestEntry): Check[] {
  const checks: Check[] = [];
  const routes = awbRoutes(entry);
  const manifestLine = entry.type === "FFM" || entry.type === "XFFM";
  for (const s of entry.statuses ?? []) {
    const awb = s.awb;
    if (!validAwb(awb)) continue;
    const route = routes.get(awb);
    if (s.code === "BKD") {
      checks.push(flightCheck(awb, s.flight ?? "", s.day, s.month, s.origin, s.destination));
      continue;
    }
    const local = statusLocalTime(s);
    if (MILESTONE_CODES.has(s.code)) {
      // The route map shows a milestone at the station of the event, or at the AWB's end it stands for.
      const stations = new Set([s.station]);
      if (s.code === "RCS" && route) stations.add(route.origin);
      if ((s.code === "NFD" || s.code === "AWD" || s.code === "DLV") && route)
        stations.add(route.destination);
      checks.push({
        awb,
        what: `${s.code} at ${s.station}${local === null ? " (no time: at receipt)" : ` ${local}`}`,
        holds: (h) =>
          milestones(h.RouteMap).some(
            (m) =>
              m.Name === s.code &&
              stations.has(m.Station) &&
              m.ActualDateTime !== null &&
              consistentPair(m.Station, m.ActualDateTime) &&
              (local === null || sameLocal(m.ActualDateTime, local)),
          ),
      });
      continue;
    }
    if (local === null && !manifestLine) continue; // knowingly skipped: a history line without a time
    checks.push({
      awb,
      what: `${s.code} at ${s.station} in the history${local === null ? " (at receipt)" : ` ${local}`}`,
      holds: (h) =>
        h.StatusMessages.some(
          (m) =>
            m.Code === s.code &&
            m.Station === s.station &&
            consistentPair(m.Station, m.DateTime) &&
            (local === null || sameLocal(m.DateTime, local)),
        ),
    });
    if (manifestLine) checks.push(flightCheck(awb, s.flight ?? "", s.day, s.month, s.station, s.destination));
  }
  const skipped = entry.skipped;
  const first = entry.awbs?.find(validAwb);
  if (skipped !== undefined && first !== undefined) {
    // The lines the service left out are named where the history says which message made a change.
    const same = (p: ProvenanceView | null | undefined) =>
      JSON.stringify(p?.SkippedLines ?? []) === JSON.stringify(skipped);
    checks.push({
      awb: first,
      what: `skipped lines noted in the provenance: ${skipped.join("; ")}`,
      holds: (h) =>
        h.Snapshots.some((x) => same(x.Provenance)) || h.StatusMessages.some((x) => same(x.Provenance)),
    });
  }
  if (entry.type === "FWB" || entry.type === "XFWB" || entry.type === "FFA") {
    const awb = entry.awbs?.[0];
    if (awb !== undefined && entry.flights && (entry.type === "FFA" || legsLineUp(entry)))
      for (const f of entry.flights)
        checks.push(
          flightCheck(awb, `${f.carrier}${f.number}`, dayOf(f.date), monthOf(f.date), f.from, single(f.to)),
        );
  }
  return checks;
}

/** An FWB gives legs only when its FLT flights and RTG points line up (or one flight, no RTG). */
function legsLineUp(entry: ManifestEntry & { route?: unknown[] }): boolean {
  const points = entry.route?.length ?? 0;
  const flights = entry.flights?.length ?? 0;
  return flights > 0 && (points === flights || (points === 0 && flights === 1) || entry.type === "XFWB");
}

const single = (to: string | string[] | undefined) => (Array.isArray(to) ? to[0] : to);
/** `19`, `17APR` or `2021-03-10`: the day, and the month when given. */
const dayOf = (date: string) => (/^\d{4}-/.test(date) ? date.slice(8, 10) : date.slice(0, 2));
const monthOf = (date: string): string | undefined =>
  /^\d{4}-/.test(date)
    ? MONTHS[Number(date.slice(5, 7)) - 1]
    : date.length > 2
      ? date.slice(2, 5)
      : undefined;

function flightCheck(
  awb: string,
  flight: string,
  day: string | undefined,
  month: string | undefined,
  origin: string | undefined,
  destination: string | undefined,
): Check {
  return {
    awb,
    what: `flight ${flight} ${day ?? ""}${month ?? ""} ${origin ?? "?"}-${destination ?? "?"}`,
    holds: (h) =>
      h.RouteMap.MilestonePlan.RoutingCycle.Flight.some(
        ({ FlightInfo: f }) =>
          `${f.CarrierCode}${f.Number}` === flight &&
          (day === undefined || f.Date.startsWith(day)) &&
          (month === undefined || f.Date.endsWith(month)) &&
          (origin === undefined || f.Routing.Origin === origin) &&
          (destination === undefined || f.Routing.Destination === destination),
      ),
  };
}
