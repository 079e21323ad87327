import { describe, expect, it } from "vitest";
import {
  counterItemBytes,
  documentItemBytes,
  ITEM_OVERHEAD_BYTES,
  laneStatWriteUnits,
  numberBytes,
  writeUnitsOf,
} from "../../../functions/core/predictions/write-cost.ts";

describe("write units", () => {
  it("sizes numbers as DynamoDB does: 1 byte plus 1 per two significant digits", () => {
    expect(numberBytes(1)).toBe(2);
    expect(numberBytes(12)).toBe(2);
    expect(numberBytes(123)).toBe(3);
    expect(numberBytes(-1200)).toBe(2);
  });

  it("sizes an item from its attribute names and values", () => {
    expect(counterItemBytes("CAR|LH", { "DEP|b|30": 12 })).toBe(ITEM_OVERHEAD_BYTES + 6 + 8 + 2);
    expect(documentItemBytes({ a: 1 })).toBe(ITEM_OVERHEAD_BYTES + 7);
  });

  it("charges each updated item a unit per started KB of the larger of its sizes before and after", () => {
    expect(writeUnitsOf(1)).toBe(1);
    expect(writeUnitsOf(1024)).toBe(1);
    expect(writeUnitsOf(1025)).toBe(2);
    const big: Record<string, number> = {};
    for (let i = 0; i < 200; i++) big[`DEP|f=LH${i}|n`] = 3;
    const stored = new Map([["LEG|LH|FRA|JFK", big]]);
    const bytes = counterItemBytes("LEG|LH|FRA|JFK", big);
    const increments = new Map([
      ["LEG|LH|FRA|JFK", new Map([["DEP|all|n", 1]])],
      ["CAR|LH", new Map([["DEP|b|30", 1]])],
    ]);
    // The big item pays for its whole size; the new small one one unit.
    expect(laneStatWriteUnits(stored, increments)).toBe(Math.ceil((bytes + 12) / 1024) + 1);
    expect(laneStatWriteUnits(stored, new Map())).toBe(0);
  });
});
