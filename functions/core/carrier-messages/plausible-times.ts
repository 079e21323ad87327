/**
 * Times a carrier sends with a year (XFSU, our JSON form) must lie near the time we receive them.
 * A year 0001 would otherwise be stored as an actual (Date.UTC reads it as 1901)
 * and, because the earliest report of a milestone wins, overwrite a correct one for good.
 *
 * The window: no more than TIME_WINDOW_DAYS (366) days before or after the receipt time, read on the
 * station-local wall clock (a zone is at most 14 h off UTC, nothing next to a year). It covers a
 * booking planned up to a year ahead and a late status resent up to a year after; anything else
 * (and every year 0000-0999) is refused with 400 naming the field or element. Cargo-IMP times carry
 * no year: the core reads them in the year nearest receipt, so they are always inside the window.
 */
import { MessageParseError } from "../errors.ts";
import type { CarrierReport, SourceRef, StationTime } from "./types.ts";

export const TIME_WINDOW_DAYS = 366;
const DAY_MS = 86_400_000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function written(t: StationTime): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${String(t.year).padStart(4, "0")}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}`;
}

/** A field next to `at`: `Legs[0].ScheduledDeparture` (JSON), `.../Movement[1]/DepartureEvent` (XFSU). */
function fieldAt(at: SourceRef, name: string, xmlElement: string): SourceRef {
  if (at.path === null) return at;
  const xml = at.path.startsWith("MasterConsignment");
  return { line: at.line, path: xml ? `${at.path}/${xmlElement}` : `${at.path}.${name}` };
}

/** Throws MessageParseError (400) for the first time with a year outside the window around `receivedAt`. */
export function assertPlausibleTimes(reports: readonly CarrierReport[], receivedAt: string): void {
  const receipt = Date.parse(receivedAt);
  const earliest = receipt - TIME_WINDOW_DAYS * DAY_MS;
  const latest = receipt + TIME_WINDOW_DAYS * DAY_MS;
  const expected = `a date-time within ${TIME_WINDOW_DAYS} days of receipt (${isoDay(earliest)} to ${isoDay(latest)})`;
  const check = (t: StationTime | null, at: SourceRef): void => {
    if (t === null || t.year === undefined) return;
    const wallClock = new Date(0);
    wallClock.setUTCFullYear(t.year, t.month - 1, t.day);
    wallClock.setUTCHours(t.hour, t.minute);
    const ms = wallClock.getTime() + t.dayOffset * DAY_MS;
    if (t.year >= 1000 && ms >= earliest && ms <= latest) return;
    throw new MessageParseError(at.line, expected, written(t), at.path);
  };
  for (const report of reports) {
    const timeAt = report.sourceAt.time ?? report.sourceAt.report;
    switch (report.kind) {
      case "booking":
      case "awb-data":
        for (const leg of report.legs) {
          check(leg.scheduledDeparture, fieldAt(leg.at, "ScheduledDeparture", "DepartureEvent"));
          check(leg.scheduledArrival, fieldAt(leg.at, "ScheduledArrival", "ArrivalEvent"));
        }
        break;
      case "status":
      case "cancellation":
      case "other-status":
        check(report.time, timeAt);
        break;
    }
  }
}
