/**
 * A station's zone abbreviation at an instant ("CET", "EDT"), from the service's own station → IANA
 * zone table (functions/core/time, ~33 KB gzipped) and the browser's Intl. Loaded lazily by the route-map
 * pages only, so the first page stays small; unknown stations fall back to the UTC offset the API's
 * Utc/Local pair implies.
 */
import type { DateTimePair } from "../../../functions/core/route-map/spec-types.ts";
import { STATION_ZONES } from "../../../functions/core/time/station-zones.generated.ts";
import { offsetMinutes, utcOffsetLabel } from "./format.ts";

let index: Map<string, string> | null = null;

export function stationZone(station: string): string | null {
  if (!index) {
    index = new Map();
    for (const [zone, codes] of Object.entries(STATION_ZONES))
      for (const code of codes.split(" ")) index.set(code, zone);
  }
  return index.get(station.toUpperCase()) ?? null;
}

/**
 * Intl names a zone's abbreviation only in the locale that uses it (en-US says "GMT+1" for Berlin,
 * en-GB says "CET"): the first of these locales with a real abbreviation wins.
 */
const ABBREVIATION_LOCALES = ["en-US", "en-GB", "en-AU", "en-IN", "en-NZ"];
const cache = new Map<string, string | null>();

export function zoneAbbreviation(zone: string, utc: string): string | null {
  const key = `${zone} ${utc.slice(0, 13)}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let found: string | null = null;
  for (const locale of ABBREVIATION_LOCALES) {
    try {
      const name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" })
        .formatToParts(new Date(utc))
        .find((part) => part.type === "timeZoneName")?.value;
      if (name && !/^(GMT|UTC)[+-−]/.test(name)) {
        found = name;
        break;
      }
    } catch {
      break; // a zone this browser's Intl does not know
    }
  }
  cache.set(key, found);
  return found;
}

/** The label shown after a station-local time: "CET", else "UTC+1" from the pair itself. */
export function zoneLabel(station: string, pair: DateTimePair): string {
  const zone = stationZone(station);
  const abbreviation = zone ? zoneAbbreviation(zone, pair.Utc) : null;
  // "UTC" itself is a fine abbreviation for zones on UTC, as is "GMT" for London in winter.
  return abbreviation ?? utcOffsetLabel(offsetMinutes(pair));
}
