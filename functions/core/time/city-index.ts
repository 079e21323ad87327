/**
 * How OpenTravelData's points of reference become the city -> airports table
 * (station-cities.generated.ts). Shared by the generator (bin/generate-station-cities.ts) and the
 * test that proves the rules on rows in the dataset's own form.
 *
 * OpenTravelData (opentraveldata/opentraveldata on GitHub, CC BY 4.0) lists every IATA location with
 * its type (A airport, C city, CA both under one code, R rail, B bus, H heliport, ...) and the city
 * codes it serves: `ARN-A-2725346^ARN^59.65^17.93^STO^` is Stockholm Arlanda, serving city STO.
 */

/** One row of `optd_por_best_known_so_far.csv`: `pk^iata_code^latitude^longitude^city_code^date_from`. */
export interface PointOfReference {
  /** `IATA-TYPE-GEONAMESID`, e.g. `ARN-A-2725346`. */
  pk: string;
  code: string;
  /** Comma-separated city codes the point serves (its own code for a city, or an airport of one). */
  cities: string;
}

/** One row of `ref_airport_pageranked.csv`: `pk^por_code^pr_seats^pr_freq` (frequency PageRank). */
export interface AirportRank {
  pk: string;
  rank: number;
}

const typeOf = (pk: string): string => pk.split("-")[1] ?? "";
const isAirportType = (type: string) => type.includes("A");

/**
 * City code -> its airports, the main one first (the busiest by OpenTravelData's frequency PageRank,
 * ties by code), the others sorted. A city is a code with a city row (type C or CA); its airports are
 * the airport rows (A or CA) that name it among the cities they serve, other than the city's own
 * code. A city whose code is itself an airport (SHA: Hongqiao, and the city of Pudong) keeps that
 * airport among its members. Cities without any other airport are left out: there is nothing to join.
 */
export function buildCityIndex(
  points: readonly PointOfReference[],
  ranks: readonly AirportRank[],
): Map<string, string[]> {
  const cities = new Set<string>();
  const airports = new Set<string>();
  const members = new Map<string, Set<string>>();
  for (const point of points) {
    if (!/^[A-Z]{3}$/.test(point.code)) continue;
    const type = typeOf(point.pk);
    if (type.includes("C")) cities.add(point.code);
    if (!isAirportType(type)) continue;
    airports.add(point.code);
    for (const city of point.cities.split(",")) {
      if (!/^[A-Z]{3}$/.test(city) || city === point.code) continue;
      const set = members.get(city) ?? new Set<string>();
      set.add(point.code);
      members.set(city, set);
    }
  }
  const rankOf = new Map<string, number>();
  for (const { pk, rank } of ranks) {
    const code = pk.split("-")[0] ?? "";
    if (!isAirportType(typeOf(pk)) || !Number.isFinite(rank)) continue;
    rankOf.set(code, Math.max(rankOf.get(code) ?? 0, rank));
  }
  const index = new Map<string, string[]>();
  for (const city of [...cities].sort()) {
    const others = members.get(city);
    if (!others || others.size === 0) continue;
    const all = [...others, ...(airports.has(city) ? [city] : [])].sort();
    const main = all.reduce((best, code) =>
      (rankOf.get(code) ?? 0) > (rankOf.get(best) ?? 0) ? code : best,
    );
    index.set(city, [main, ...all.filter((code) => code !== main)]);
  }
  return index;
}

/** Reads the caret-separated files: header line first, one record a line. */
export function readCaretRows(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => line.split("^"));
}
