/**
 * Pure formatting of what the route map says: AWBs, station-local times with the station's zone, and
 * the verdict of a milestone ("late by 45 min"). No DOM, no clock: unit tested under test/unit/web.
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

/** "1 h 5 min", "45 min", "2 d 3 h": a duration in whole minutes, for verdicts. */
export function formatMinutes(totalMinutes: number): string {
  const minutes = Math.abs(Math.round(totalMinutes));
  if (minutes < 60) return `${minutes} min`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
}

/**
 * The verdict of an actual time against its plan, in whole minutes (carrier messages carry minutes):
 * "on time", "late by 45 min", "early by 10 min"; null when either time is missing.
 */
export function verdict(planned: DateTimePair | null, actual: DateTimePair | null): string | null {
  if (!planned || !actual) return null;
  const minutes = Math.round((Date.parse(actual.Utc) - Date.parse(planned.Utc)) / 60_000);
  if (Number.isNaN(minutes)) return null;
  if (minutes === 0) return "on time";
  return minutes > 0 ? `late by ${formatMinutes(minutes)}` : `early by ${formatMinutes(minutes)}`;
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
  return `${localDay(iso)} ${iso.slice(11, 16)} UTC`;
}
