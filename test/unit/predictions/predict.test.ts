import { describe, expect, it } from "vitest";
import { type JourneyMilestone, journeyOf } from "../../../functions/core/predictions/journey.ts";
import { type LaneStats, learnJourney } from "../../../functions/core/predictions/lane-stats.ts";
import { predictJourney, predictRouteMap } from "../../../functions/core/predictions/predict.ts";
import { booking, FRA_JFK, MUC_FRA, plus, stateAfter, status } from "./support.ts";

const BEFORE = "2026-11-22T00:00:00Z";
const booked = journeyOf(await stateAfter([booking()]));
const planOf = (key: string) => booked.find((m) => m.key === key)?.plannedUtc as string;

function statsOf(journeys: readonly JourneyMilestone[][]): LaneStats {
  const items = new Map<string, Record<string, number>>();
  for (const journey of journeys) {
    for (const [item, counters] of learnJourney(journey)) {
      const stored = items.get(item) ?? {};
      for (const [attribute, amount] of counters) stored[attribute] = (stored[attribute] ?? 0) + amount;
      items.set(item, stored);
    }
  }
  return items;
}

describe("predictJourney", () => {
  it("predicts the plan, saying so, when nothing was learnt", () => {
    const predictions = predictJourney(booked, new Map(), BEFORE);
    for (const p of predictions) {
      expect(p.p50Utc).toBe(p.plannedUtc);
      expect(p.p90Utc).toBe(p.plannedUtc);
      expect(p.method).toBe("plan");
      expect(p.samples).toBe(0);
    }
  });

  it("moves RCF, NFD, AWD and DLV by a reported late arrival, but not the onward departure", async () => {
    const late = 95;
    const state = await stateAfter([booking(), status("ARR", "JFK", plus(planOf("FRA:ARR"), late), FRA_JFK)]);
    const predictions = predictRouteMap(state, new Map(), plus(planOf("FRA:ARR"), late + 5));
    const byKey = new Map(predictions.map((p) => [p.key, p]));
    for (const key of ["FRA:RCF", "JFK:NFD", "JFK:AWD", "JFK:DLV"]) {
      expect(byKey.get(key)?.p50Utc).toBe(plus(planOf(key), late));
    }
    expect(byKey.get("FRA:ARR")).toMatchObject({ method: "actual", p50Utc: null, p90Utc: null });
    // The first leg is not reported yet and its times are past: only "not happened yet" moves it.
    expect(byKey.get("FRA:DEP")?.p50Utc).toBe(plus(planOf("FRA:ARR"), late + 5));
  });

  it("pushes the milestones after an overdue one as far as it is overdue", async () => {
    const now = plus(planOf("MUC:ARR"), 120);
    const state = await stateAfter([booking(), status("DEP", "MUC", planOf("MUC:DEP"), MUC_FRA)]);
    const byKey = new Map(predictRouteMap(state, new Map(), now).map((p) => [p.key, p]));
    expect(byKey.get("MUC:ARR")?.p50Utc).toBe(now);
    expect(byKey.get("MUC:RCF")?.p50Utc).toBe(plus(planOf("MUC:RCF"), 120));
  });

  it("states P50 and P90 from the lane, with the lane and its sample count", () => {
    // 100 journeys whose DLV came 0..990 minutes after plan (after an on-time AWD).
    const journeys = Array.from({ length: 100 }, (_, i) =>
      booked.map((m) => ({
        ...m,
        actualUtc: m.plannedUtc ? plus(m.plannedUtc, m.name === "DLV" ? i * 10 : 0) : null,
      })),
    );
    const predictions = predictJourney(booked, statsOf(journeys), BEFORE);
    const dlv = predictions.find((p) => p.name === "DLV");
    expect(dlv?.method).toBe("lane");
    expect(dlv?.samples).toBeGreaterThan(0);
    expect(dlv?.lane).toMatch(/^020 MUC-JFK/);
    const p50 = (Date.parse(dlv?.p50Utc ?? "") - Date.parse(planOf("JFK:DLV"))) / 60_000;
    const p90 = (Date.parse(dlv?.p90Utc ?? "") - Date.parse(planOf("JFK:DLV"))) / 60_000;
    // The lane's own history is 0..990 (median ~495, P90 ~890), shrunk a little toward the plan.
    expect(p50).toBeGreaterThan(380);
    expect(p50).toBeLessThan(560);
    expect(p90).toBeGreaterThan(p50 + 250);
    expect(p90).toBeLessThan(1000);
  });

  it("adds up the steps: a late departure learnt makes every later milestone's P50 later", () => {
    const journeys = Array.from({ length: 80 }, () =>
      booked.map((m) => ({
        ...m,
        actualUtc: m.plannedUtc ? plus(m.plannedUtc, m.name === "RCS" ? 0 : 60) : null,
      })),
    );
    const byKey = new Map(predictJourney(booked, statsOf(journeys), BEFORE).map((p) => [p.key, p]));
    // Each leg's DEP is 60 late; everything after the last DEP follows it.
    for (const key of ["FRA:DEP", "FRA:ARR", "JFK:NFD", "JFK:DLV"]) {
      const shift = (Date.parse(byKey.get(key)?.p50Utc ?? "") - Date.parse(planOf(key))) / 60_000;
      expect(shift).toBeGreaterThan(45);
      // 60 lies in the histogram bin [60, 90): its mass spreads over the bin.
      expect(shift).toBeLessThanOrEqual(90);
    }
  });
});
