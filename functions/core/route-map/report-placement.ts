/**
 * Whether the core can place a report at all: every station it names has a known time zone, and
 * every local time is a date that exists. The ingest use cases ask before anything is stored
 * (assertPlaceable, a 422 naming the line); applyReport asserts the stations again.
 */
import { MONTH_ABBREVIATIONS } from "../carrier-messages/common.ts";
import type { CarrierReport, SourceRef, StationTime } from "../carrier-messages/types.ts";
import { UnplaceableMessageError } from "../errors.ts";
import { nearestYear } from "../time/station-time.ts";
import { requireStationTimeZone, stationTimeZone } from "../time/time-zones.ts";

/**
 * Refuses, before anything is stored, a report the core could not place: a station without a known
 * time zone, or a local time whose date does not exist in the year it is read in (29FEB nearest a
 * common year). Throws UnplaceableMessageError (422) naming the line (and XFSU/JSON path) where the carrier wrote
 * it, like the parsers' own errors. Depends only on the report and the receipt time, not on the state.
 */
export function assertPlaceable(report: CarrierReport, receivedAt: string): void {
  const station = (code: string, at: SourceRef) => {
    if (stationTimeZone(code) === null)
      throw new UnplaceableMessageError(at.line, "a known IATA airport code", code, at.path);
  };
  const time = (code: string, value: StationTime | null, at: SourceRef) => {
    if (value === null) return;
    const year = nearestYear(code, value, receivedAt);
    const date = new Date(Date.UTC(year, value.month - 1, value.day));
    if (date.getUTCMonth() === value.month - 1 && date.getUTCDate() === value.day) return;
    const expected =
      value.year === undefined
        ? `a date that exists in ${year}, the year nearest the time of receipt`
        : "a date that exists";
    throw new UnplaceableMessageError(at.line, expected, describeStationTime(value), at.path);
  };
  station(report.origin, report.sourceAt.origin);
  station(report.destination, report.sourceAt.destination);
  const at = report.sourceAt.report;
  const stationAt = report.sourceAt.station ?? at;
  const timeAt = report.sourceAt.time ?? at;
  switch (report.kind) {
    case "booking":
    case "awb-data":
      for (const leg of report.legs) {
        station(leg.origin, leg.at);
        station(leg.destination, leg.at);
        time(leg.origin, leg.scheduledDeparture, leg.at);
        time(leg.destination, leg.scheduledArrival, leg.at);
      }
      break;
    case "status":
    case "other-status":
      station(report.station, stationAt);
      time(report.station, report.time, timeAt);
      break;
    case "cancellation":
      if (report.station !== null) station(report.station, stationAt);
      time(report.station ?? report.origin, report.time, timeAt);
      break;
  }
}

/** A station time as the carrier wrote it: `29FEB1325` (Cargo-IMP) or `2027-02-29T13:25`. */
function describeStationTime(t: StationTime): string {
  const hhmm = `${String(t.hour).padStart(2, "0")}${String(t.minute).padStart(2, "0")}`;
  if (t.year === undefined)
    return `${String(t.day).padStart(2, "0")}${MONTH_ABBREVIATIONS[t.month - 1] ?? "???"}${hhmm}`;
  const date = `${t.year}-${String(t.month).padStart(2, "0")}-${String(t.day).padStart(2, "0")}`;
  return `${date}T${hhmm.slice(0, 2)}:${hhmm.slice(2)}`;
}

/** Every station the report names must have a time zone, so a bad message is a 400 and never stored. */
export function assertKnownStations(report: CarrierReport): void {
  const stations = [report.origin, report.destination];
  if (report.kind === "booking" || report.kind === "awb-data") {
    for (const l of report.legs) stations.push(l.origin, l.destination);
  }
  if (report.kind === "status" || report.kind === "other-status") stations.push(report.station);
  if (report.kind === "cancellation" && report.station) stations.push(report.station);
  for (const station of stations) requireStationTimeZone(station);
}
