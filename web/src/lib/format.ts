/**
 * Pure formatting of what the route map says: AWBs and times. One time format everywhere: 24-hour
 * clock with its zone, station-local with the station's zone ("14:25 CET") or UTC ("13:41 UTC") for
 * instants that belong to no station. Verdicts are the core's wording module (lib/route-map.ts).
 * No DOM, no clock: unit tested under test/unit/web.
 */
import type { DateTimePair } from "../../../functions/core/route-map/spec-types.ts";

/** "02012345675" (or "020-12345675") → "020-12345675". */
export function formatAwb(awb11: string): string {
  const digits = awb11.replace(/\D/g, "");
  return digits.length === 11 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : awb11;
}

/** "020-12345675" or "02012345675" → "02012345675"; null when it is not 11 digits. */
export function awbDigits(text: string): string | null {
  const digits = text.replace(/[\s-]/g, "");
  return /^\d{11}$/.test(digits) ? digits : null;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-03-14T14:25:00" → "14:25". */
export const localClock = (local: string): string => local.slice(11, 16);

/** "2026-03-14T14:25:00" → "14 Mar". */
export function localDay(local: string): string {
  const month = MONTHS[Number(local.slice(5, 7)) - 1] ?? "";
  return `${Number(local.slice(8, 10))} ${month}`;
}

/** Offset of a pair's local time from UTC in minutes (the API gives both; no zone data needed). */
export function offsetMinutes(pair: DateTimePair): number {
  const local = Date.parse(`${pair.Local.slice(0, 19)}Z`);
  return Math.round((local - Date.parse(pair.Utc)) / 60_000);
}

/** "UTC+1", "UTC-4", "UTC+5:30", "UTC": the fallback zone label when no abbreviation is known. */
export function utcOffsetLabel(minutes: number): string {
  if (minutes === 0) return "UTC";
  const sign = minutes > 0 ? "+" : "-";
  const abs = Math.abs(minutes);
  const rest = abs % 60;
  return `UTC${sign}${Math.floor(abs / 60)}${rest ? `:${String(rest).padStart(2, "0")}` : ""}`;
}

/**
 * "14:25 CET", with the day when it differs from `referenceLocal`'s ("14:25 CET, 15 Mar"): the local
 * time of a pair and the zone label the caller found for its station (see zones.ts).
 */
export function formatLocal(pair: DateTimePair, zoneLabel: string, referenceLocal?: string): string {
  const time = `${localClock(pair.Local)} ${zoneLabel}`;
  return referenceLocal && referenceLocal.slice(0, 10) === pair.Local.slice(0, 10)
    ? time
    : `${time}, ${localDay(pair.Local)}`;
}

/** "2026-03-14T13:41:05Z" → "14 Mar 13:41 UTC": instants the API gives in UTC only (deliveries, links). */
export function formatUtc(iso: string): string {
  if (Number.isNaN(Date.parse(iso))) return iso;
  const normal = new Date(iso).toISOString();
  return `${localDay(normal)} ${normal.slice(11, 16)} UTC`;
}

/** A moment of this browser's clock as "23:54 UTC" (the 24-hour form with its zone, never a locale's AM/PM). */
export const formatUtcClock = (moment: Date): string => `${moment.toISOString().slice(11, 16)} UTC`;
