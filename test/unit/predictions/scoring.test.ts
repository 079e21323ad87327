import { describe, expect, it } from "vitest";
import { journeyOf } from "../../../functions/core/predictions/journey.ts";
import { predictRouteMap } from "../../../functions/core/predictions/predict.ts";
import {
  accuracyOf,
  completedBy,
  type HorizonPrediction,
  horizonPrediction,
  reachedHorizons,
  type ScoredMilestone,
  scoreJourney,
} from "../../../functions/core/predictions/scoring.ts";
import type { ShipmentState } from "../../../functions/core/route-map/shipment-state.ts";
import { booking, FRA_JFK, MUC_FRA, plus, stateAfter, status } from "./support.ts";

const booked = await stateAfter([booking()]);
const planOf = (key: string) => journeyOf(booked).find((m) => m.key === key)?.plannedUtc as string;

describe("reachedHorizons and completedBy", () => {
  it("reach the booking, the first departure and the last arrival once each, and complete on DLV", async () => {
    const dep1 = status("DEP", "MUC", planOf("MUC:DEP"), MUC_FRA);
    const arr1 = status("ARR", "FRA", planOf("MUC:ARR"), MUC_FRA);
    const dep2 = status("DEP", "FRA", planOf("FRA:DEP"), FRA_JFK);
    const arr2 = status("ARR", "JFK", planOf("FRA:ARR"), FRA_JFK);
    const dlv = status("DLV", "JFK", planOf("JFK:DLV"));
    const steps = [booking(), dep1, arr1, dep2, arr2, dlv];
    const states: ShipmentState[] = [];
    for (let i = 1; i <= steps.length; i++) states.push(await stateAfter(steps.slice(0, i)));
    const reached = states.map((next, i) => reachedHorizons(states[i - 1] ?? null, next));
    expect(reached).toEqual([["Booking"], ["FirstDeparture"], [], [], ["LastArrival"], []]);
    const completed = states.map((next, i) => completedBy(states[i - 1] ?? null, next));
    expect(completed).toEqual([false, false, false, false, false, true]);
  });
});

describe("scoreJourney", () => {
  it("scores each kept prediction against the actual, the plan alone beside it", () => {
    const predictions = predictRouteMap(booked, new Map(), "2026-11-22T00:00:00Z");
    const made: HorizonPrediction = horizonPrediction("Booking", "2026-11-22T00:00:00Z", predictions);
    // Pretend the service predicted NFD 30 minutes after plan, P90 90 minutes after.
    const nfd = made.milestones["JFK:NFD"];
    if (!nfd) throw new Error("no NFD prediction");
    made.milestones["JFK:NFD"] = { ...nfd, p50: plus(nfd.planned, 30), p90: plus(nfd.planned, 90) };
    const journey = journeyOf(booked).map((m) =>
      m.key === "JFK:NFD" ? { ...m, actualUtc: plus(planOf("JFK:NFD"), 60) } : m,
    );
    expect(scoreJourney(journey, [made])).toEqual([
      {
        horizon: "Booking",
        name: "NFD",
        errorMinutes: 30,
        covered: true,
        planErrorMinutes: 60,
        planCovered: false,
      },
    ]);
  });
});

describe("accuracyOf", () => {
  it("gives count, median and P90 absolute error and coverage per milestone and horizon", () => {
    const scores: ScoredMilestone[] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((e, i) => ({
      horizon: "FirstDeparture",
      name: "NFD",
      errorMinutes: e,
      covered: i < 9,
      planErrorMinutes: e * 2,
      planCovered: i < 5,
    }));
    scores.push({
      horizon: "Booking",
      name: "DLV",
      errorMinutes: 7,
      covered: false,
      planErrorMinutes: 9,
      planCovered: true,
    });
    expect(accuracyOf(scores)).toEqual([
      {
        Milestone: "NFD",
        Horizon: "FirstDeparture",
        Service: { Count: 10, MedianAbsoluteErrorMinutes: 50, P90AbsoluteErrorMinutes: 90, Coverage: 0.9 },
        Plan: { Count: 10, MedianAbsoluteErrorMinutes: 100, P90AbsoluteErrorMinutes: 180, Coverage: 0.5 },
      },
      {
        Milestone: "DLV",
        Horizon: "Booking",
        Service: { Count: 1, MedianAbsoluteErrorMinutes: 7, P90AbsoluteErrorMinutes: 7, Coverage: 0 },
        Plan: { Count: 1, MedianAbsoluteErrorMinutes: 9, P90AbsoluteErrorMinutes: 9, Coverage: 1 },
      },
    ]);
  });

  it("is empty without scores", () => {
    expect(accuracyOf([])).toEqual([]);
  });
});
