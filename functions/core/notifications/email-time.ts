/**
 * Times as a person reads them in an e-mail: a station's local wall clock with its zone's
 * abbreviation ("14:25 CET") and a day when it matters ("14 Mar 14:25 CET"). Intl with the runtime's
 * IANA data; the instant always comes in as a value. Verdicts are verdict-words.ts's.
 */
import type { DateTimePair } from "../route-map/spec-types.ts";
import { stationTimeZone } from "../time/time-zones.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const abbreviationFormatters = new Map<string, Intl.DateTimeFormat>();

function abbreviationIn(locale: string, zone: string, utcMs: number): string {
  const key = `${locale}|${zone}`;
  let formatter = abbreviationFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" });
    abbreviationFormatters.set(key, formatter);
  }
  return formatter.formatToParts(new Date(utcMs)).find((part) => part.type === "timeZoneName")?.value ?? "";
}

/**
 * The zone's short name at that instant: CLDR has American names in en-US (EDT, PST) and European
 * ones in en-GB (CET, BST); where neither has one, the offset ("GMT+8") is what Intl gives, and it is
 * unambiguous. "UTC" for zones that are UTC.
 */
export function zoneAbbreviation(zone: string, utcMs: number): string {
  const american = abbreviationIn("en-US", zone, utcMs);
  if (!american.startsWith("GMT") && !american.startsWith("UTC")) return american;
  const european = abbreviationIn("en-GB", zone, utcMs);
  if (!european.startsWith("GMT+") && !european.startsWith("GMT-")) return european;
  return american === "GMT" ? "UTC" : american;
}

const wallFormatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(
  zone: string,
  utcMs: number,
): { day: number; month: number; hour: string; minute: string } {
  let formatter = wallFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      month: "numeric",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    });
    wallFormatters.set(zone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(new Date(utcMs))) parts[part.type] = part.value;
  return {
    day: Number(parts.day),
    month: Number(parts.month),
    hour: (parts.hour ?? "00").padStart(2, "0"),
    minute: (parts.minute ?? "00").padStart(2, "0"),
  };
}

/**
 * "14:25 CET" (or "14 Mar 14:25 CET" with `withDate`) at the station. A station whose zone is unknown
 * shows the pair's own local wall clock, marked "local", rather than a guessed zone.
 */
export function stationTimeText(
  station: string,
  pair: DateTimePair,
  options: { withDate?: boolean } = {},
): string {
  const zone = stationTimeZone(station);
  const utcMs = Date.parse(pair.Utc);
  if (zone && Number.isFinite(utcMs)) {
    const wall = wallClock(zone, utcMs);
    const time = `${wall.hour}:${wall.minute} ${zoneAbbreviation(zone, utcMs)}`;
    return options.withDate ? `${wall.day} ${MONTHS[wall.month - 1] ?? ""} ${time}` : time;
  }
  const match = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(pair.Local);
  if (!match) return pair.Local;
  const [, month, day, hour, minute] = match;
  const time = `${hour}:${minute} local`;
  return options.withDate ? `${Number(day)} ${MONTHS[Number(month) - 1] ?? ""} ${time}` : time;
}

// How long, and how far from a time: the words every verdict uses (verdict-words.ts).
export { durationText, minutesAfter } from "./verdict-words.ts";
