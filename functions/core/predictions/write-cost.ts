/**
 * What keeping predictions costs in DynamoDB write units, computed the way DynamoDB bills them: a
 * write is charged one unit per started KB of the item, the larger of its size before and after (an
 * update of a lane's counters pays for the whole item, not for the counters it adds). Item size is
 * the UTF-8 length of every attribute name plus its value (a number: 1 byte plus 1 per 2 significant
 * digits; a string: its length). The predictions benchmark sums these over a replay; an adapter can
 * check its own items against them.
 */
import type { LaneCounters, LaneIncrements, LaneStats } from "./lane-stats.ts";

/** Bytes of an item's key attributes and bookkeeping beside the counters (pk, sk, a version). */
export const ITEM_OVERHEAD_BYTES = 100;
const KB = 1024;

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** DynamoDB's size of a number: 1 byte plus 1 per two significant digits. */
export function numberBytes(value: number): number {
  const digits = String(Math.abs(value)).replace(/[.-]/g, "").replace(/^0+/, "").replace(/0+$/, "");
  return 1 + Math.ceil(Math.max(1, digits.length) / 2);
}

/** Size of a lane item holding these counters. */
export function counterItemBytes(item: string, counters: LaneCounters): number {
  let bytes = ITEM_OVERHEAD_BYTES + utf8Length(item);
  for (const [attribute, value] of Object.entries(counters))
    bytes += utf8Length(attribute) + numberBytes(value);
  return bytes;
}

/** Size of an item stored as JSON-like data (a kept horizon's predictions, a scored route map). */
export function documentItemBytes(value: unknown): number {
  return ITEM_OVERHEAD_BYTES + utf8Length(JSON.stringify(value));
}

/** Units of one write of an item this large (at least one). */
export const writeUnitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));

/**
 * Units of adding the increments to the stored items, one update per item: each charged on the
 * larger of the item's size before and after.
 */
export function laneStatWriteUnits(stored: LaneStats, increments: LaneIncrements): number {
  let units = 0;
  for (const [item, counters] of increments) {
    const before = stored.get(item) ?? {};
    const after: Record<string, number> = { ...before };
    for (const [attribute, amount] of counters) after[attribute] = (after[attribute] ?? 0) + amount;
    const bytes = Math.max(
      stored.has(item) ? counterItemBytes(item, before) : 0,
      counterItemBytes(item, after),
    );
    units += writeUnitsOf(bytes);
  }
  return units;
}
