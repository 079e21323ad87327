/**
 * How the airport dataset becomes a station -> zone index. Shared by the generator
 * (bin/generate-station-zones.ts) and the test that keeps the generated module in step with the
 * installed dataset.
 */

export interface AirportZoneRecord {
  code?: unknown;
  timezone?: unknown;
}

/**
 * The dataset repeats some codes (a city and its airport, or a code reused elsewhere in the world);
 * the zone named most often wins, ties go to the first one listed, so the choice is deterministic and
 * the big hubs (one zone each) are unaffected.
 */
export function buildZoneIndex(records: readonly AirportZoneRecord[]): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const { code, timezone } of records) {
    if (
      typeof code !== "string" ||
      typeof timezone !== "string" ||
      !/^[A-Z]{3}$/.test(code) ||
      timezone === ""
    )
      continue;
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
  return index;
}

/** Compact form: zone -> space-separated station codes, zones and codes sorted. */
export function groupByZone(index: ReadonlyMap<string, string>): Record<string, string> {
  const grouped = new Map<string, string[]>();
  for (const [code, zone] of index) grouped.set(zone, [...(grouped.get(zone) ?? []), code]);
  return Object.fromEntries(
    [...grouped.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([zone, codes]) => [zone, codes.sort().join(" ")]),
  );
}
