import { describe, expect, it } from "vitest";
import { type JourneyMilestone, journeyOf } from "../../../functions/core/predictions/journey.ts";
import {
  type LaneIncrements,
  type LaneStats,
  laneItemsOf,
  learnJourney,
  stepDistribution,
} from "../../../functions/core/predictions/lane-stats.ts";
import { binOf, PLAN_POINTS, quantile } from "../../../functions/core/predictions/lateness.ts";
import { booking, plus, stateAfter } from "./support.ts";

const booked = journeyOf(await stateAfter([booking()]));

/** The booked journey with every milestone reported `late(name)` minutes after its plan. */
function completed(late: (m: JourneyMilestone) => number): JourneyMilestone[] {
  return booked.map((m) => ({ ...m, actualUtc: m.plannedUtc ? plus(m.plannedUtc, late(m)) : null }));
}

/** Lane statistics from many journeys, added up as the store does. */
function statsOf(journeys: readonly JourneyMilestone[][]): LaneStats {
  const items = new Map<string, Record<string, number>>();
  for (const journey of journeys) {
    for (const [item, counters] of learnJourney(journey) as LaneIncrements) {
      const stored = items.get(item) ?? {};
      for (const [attribute, amount] of counters) stored[attribute] = (stored[attribute] ?? 0) + amount;
      items.set(item, stored);
    }
  }
  return items;
}

const depOf = (journey: readonly JourneyMilestone[], flight: string) =>
  journey.find((m) => m.name === "DEP" && m.flight === flight) as JourneyMilestone;

describe("learnJourney", () => {
  it("counts each milestone's added lateness in its carrier's and lane's histogram and at each finer level", () => {
    // Every milestone 40 minutes late: DEP adds 40 against its plan, the rest add nothing after it.
    const increments = learnJourney(completed(() => 40));
    const lane = increments.get("LEG|LH|FRA|JFK");
    expect(lane?.get(`DEP|b|${binOf(40)}`)).toBe(1);
    expect(lane?.get(`ARR|b|${binOf(0)}`)).toBe(1);
    expect(lane?.get("DEP|all|n")).toBe(1);
    expect(lane?.get("DEP|all|s")).toBe(40);
    expect(lane?.get("DEP|f=LH400|s")).toBe(40);
    expect(lane?.get("DEP|d=1|n")).toBe(1);
    expect(lane?.get("ARR|all|s")).toBe(0);
    // Two legs of LH: the carrier's item counts both departures.
    expect(increments.get("CAR|LH")?.get(`DEP|b|${binOf(40)}`)).toBe(2);
    expect(increments.get("SHP|020|MUC|JFK")?.get("NFD|all|n")).toBe(1);
  });

  it("clips a disruption in the means but keeps it in the histogram's shape", () => {
    const increments = learnJourney(completed((m) => (m.name === "DEP" ? 900 : 900)));
    const lane = increments.get("LEG|LH|MUC|FRA");
    expect(lane?.get("DEP|all|s")).toBe(360);
    expect(lane?.get(`DEP|b|${binOf(900)}`)).toBe(1);
  });

  it("learns nothing from milestones not reported", () => {
    const increments = learnJourney(booked);
    expect(increments.size).toBe(0);
  });

  it("names the items a journey's predictions read", () => {
    expect(laneItemsOf(booked).sort()).toEqual([
      "CAR|020",
      "CAR|LH",
      "LEG|LH|FRA|JFK",
      "LEG|LH|MUC|FRA",
      "SHP|020|MUC|JFK",
    ]);
  });
});

describe("stepDistribution", () => {
  it("is the plan, with no samples, when nothing was learnt", () => {
    const { points, basis } = stepDistribution(depOf(booked, "LH400"), new Map());
    expect(points).toEqual(PLAN_POINTS);
    expect(basis).toEqual({ lane: null, samples: 0 });
  });

  it("shrinks toward the plan when samples are few and follows the lane when they are many", () => {
    const late60 = completed((m) => (m.name === "DEP" ? 60 : 0));
    const few = stepDistribution(depOf(booked, "LH400"), statsOf([late60, late60]));
    const many = stepDistribution(depOf(booked, "LH400"), statsOf(Array.from({ length: 200 }, () => late60)));
    const fewMedian = quantile(few.points, 0.5);
    const manyMedian = quantile(many.points, 0.5);
    expect(fewMedian).toBeLessThan(30);
    expect(manyMedian).toBeGreaterThan(50);
    expect(manyMedian).toBeLessThanOrEqual(90);
    expect(many.basis.samples).toBe(200);
    expect(few.basis.samples).toBe(2);
  });

  it("falls back to the carrier's history on a lane it has not seen", () => {
    // Only MUC-FRA and FRA-JFK learnt; a journey over AMS reads LH's carrier item.
    const stats = statsOf(Array.from({ length: 50 }, () => completed((m) => (m.name === "DEP" ? 60 : 0))));
    const other = {
      ...depOf(booked, "LH400"),
      lanes: {
        ...depOf(booked, "LH400").lanes,
        laneItem: "LEG|LH|AMS|JFK",
        levels: [],
        labels: ["LH AMS-JFK"],
      },
    };
    const { points, basis } = stepDistribution(other, stats);
    expect(basis).toEqual({ lane: "LH", samples: 100 });
    expect(quantile(points, 0.5)).toBeGreaterThan(40);
  });

  it("moves a flight that runs later than its lane by its own mean, shrunk by its count", () => {
    const a = completed((m) => (m.name === "DEP" ? 0 : 0));
    // The same lane, a second flight 120 minutes late every time.
    const b = a.map((m) =>
      m.name === "DEP" && m.flight === "LH400"
        ? {
            ...m,
            lanes: { ...m.lanes, levels: ["f=LH402", "d=1"] },
            actualUtc: plus(m.plannedUtc as string, 120),
          }
        : m,
    );
    const stats = statsOf([...Array.from({ length: 60 }, () => a), ...Array.from({ length: 60 }, () => b)]);
    const on400 = quantile(stepDistribution(depOf(a, "LH400"), stats).points, 0.5);
    const on402 = quantile(stepDistribution(depOf(b, "LH400"), stats).points, 0.5);
    expect(on402 - on400).toBeGreaterThan(90);
    expect(stepDistribution(depOf(b, "LH400"), stats).basis.lane).toBe("LH FRA-JFK LH400 Mon");
  });
});
