import { describe, expect, it } from "vitest";
import {
  addIndependent,
  atLeast,
  BIN_COUNT,
  binOf,
  PLAN_POINTS,
  POINTS,
  quantile,
  shrunkPoints,
} from "../../../functions/core/predictions/lateness.ts";

const spread = (low: number, high: number) =>
  Array.from({ length: POINTS }, (_, i) => low + ((high - low) * (i + 0.5)) / POINTS);

describe("binOf", () => {
  it("puts early and late minutes on their own side, fine near the plan", () => {
    expect(binOf(0)).toBe(BIN_COUNT / 2);
    expect(binOf(4)).toBe(BIN_COUNT / 2);
    expect(binOf(5)).toBe(BIN_COUNT / 2 + 1);
    expect(binOf(-1)).toBe(BIN_COUNT / 2 - 1);
    expect(binOf(-7)).toBe(BIN_COUNT / 2 - 2);
    // Beyond the last edge: the outermost bins.
    expect(binOf(1e7)).toBe(BIN_COUNT - 1);
    expect(binOf(-1e7)).toBe(0);
  });
});

describe("shrunkPoints", () => {
  it("is the parent without samples and moves toward the samples as they grow", () => {
    expect(shrunkPoints({}, PLAN_POINTS, 8)).toBe(PLAN_POINTS);
    const bin = binOf(100); // [90, 120)
    const two = quantile(shrunkPoints({ [bin]: 2 }, PLAN_POINTS, 8), 0.5);
    const eight = quantile(shrunkPoints({ [bin]: 8 }, PLAN_POINTS, 8), 0.9);
    const many = quantile(shrunkPoints({ [bin]: 800 }, PLAN_POINTS, 8), 0.5);
    expect(two).toBe(0);
    // Half the mass at the plan, half in [90, 120): the P90 lies in the bin.
    expect(eight).toBeGreaterThanOrEqual(90);
    expect(eight).toBeLessThan(120);
    expect(many).toBeGreaterThan(100);
    expect(many).toBeLessThan(110);
  });
});

describe("addIndependent and atLeast", () => {
  it("adds two steps: medians add for symmetric steps, spreads widen", () => {
    const a = spread(0, 60);
    const sum = addIndependent(a, a);
    expect(sum).toHaveLength(POINTS);
    // Reduced back to POINTS points: the median within a couple of minutes.
    expect(Math.abs(quantile(sum, 0.5) - 60)).toBeLessThan(2);
    expect(quantile(sum, 0.9) - quantile(sum, 0.5)).toBeGreaterThan(15);
    expect(quantile(sum, 0.9) - quantile(sum, 0.5)).toBeLessThan(quantile(a, 0.9) - quantile(a, 0.5) + 30);
  });

  it("keeps only what lies at or after a floor, or the floor itself when all lies before", () => {
    const given = atLeast(spread(0, 100), 50);
    expect(Math.min(...given)).toBeGreaterThanOrEqual(50);
    expect(quantile(given, 0.5)).toBeCloseTo(75, 0);
    expect(atLeast(spread(0, 100), 500)).toEqual(Array.from({ length: POINTS }, () => 500));
    const unchanged = spread(0, 100);
    expect(atLeast(unchanged, -10)).toBe(unchanged);
  });

  it("interpolates quantiles between points", () => {
    expect(quantile(spread(0, 100), 0.5)).toBeCloseTo(50, 5);
    expect(quantile(spread(0, 100), 0.9)).toBeCloseTo(90, 5);
    expect(quantile([], 0.5)).toBe(0);
  });
});
