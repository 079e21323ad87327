import { describe, expect, it } from "vitest";
import {
  addedLateness,
  journeyOf,
  localWeekdayAndHour,
} from "../../../functions/core/predictions/journey.ts";
import { DEFAULT_PLANNING_CONFIG } from "../../../functions/core/route-map/planning-config.ts";
import { booking, FRA_JFK, MUC_FRA, plus, stateAfter, status } from "./support.ts";

const journeyPlan = {
  dep: plus(MUC_FRA.stdUtc, DEFAULT_PLANNING_CONFIG.offsets.depAfterStd),
  arr: plus(MUC_FRA.staUtc, DEFAULT_PLANNING_CONFIG.offsets.arrAfterSta),
};

describe("journeyOf", () => {
  it("lists RCS, DEP/ARR/RCF per leg and NFD, AWD, DLV in order, each following the one before", async () => {
    const journey = journeyOf(await stateAfter([booking()]));
    expect(journey.map((m) => `${m.key} ${m.name} ${m.station} ${m.flight ?? "-"}`)).toEqual([
      "MUC:RCS RCS MUC -",
      "MUC:DEP DEP MUC LH100",
      "MUC:ARR ARR FRA LH100",
      "MUC:RCF RCF FRA LH100",
      "FRA:DEP DEP FRA LH400",
      "FRA:ARR ARR JFK LH400",
      "FRA:RCF RCF JFK LH400",
      "JFK:NFD NFD JFK -",
      "JFK:AWD AWD JFK -",
      "JFK:DLV DLV JFK -",
    ]);
    // Departures and RCS follow their schedule; everything else the milestone before it.
    expect(journey.map((m) => m.after)).toEqual([null, null, 1, 2, null, 4, 5, 6, 7, 8]);
    // The plan: the schedule plus the carrier's offsets (here the defaults: DEP 60 min after STD).
    expect(journey[1]?.plannedUtc).toBe(plus(MUC_FRA.stdUtc, DEFAULT_PLANNING_CONFIG.offsets.depAfterStd));
    expect(journey[5]?.plannedUtc).toBe(plus(FRA_JFK.staUtc, DEFAULT_PLANNING_CONFIG.offsets.arrAfterSta));
  });

  it("learns a leg's milestones on its carrier, its lane, then its flight and weekday", async () => {
    const journey = journeyOf(await stateAfter([booking()]));
    const dep = journey[4];
    expect(dep?.lanes.carrierItem).toBe("CAR|LH");
    expect(dep?.lanes.laneItem).toBe("LEG|LH|FRA|JFK");
    // 2026-11-23 is a Monday.
    expect(dep?.lanes.levels).toEqual(["f=LH400", "d=1"]);
    expect(dep?.lanes.labels).toEqual(["LH FRA-JFK", "LH FRA-JFK LH400", "LH FRA-JFK LH400 Mon"]);
    const nfd = journey.find((m) => m.name === "NFD");
    expect(nfd?.lanes.laneItem).toBe("SHP|020|MUC|JFK");
    expect(nfd?.lanes.levels[0]).toBe("d=1");
    expect(nfd?.lanes.levels[1]).toMatch(/^h=\d{2}$/);
  });

  it("is empty without legs", async () => {
    const state = await stateAfter([booking()]);
    expect(journeyOf({ ...state, legs: [] })).toEqual([]);
  });

  it("counts the weekday and hour in the station's local time", () => {
    // 23:30 UTC on a Monday is 00:30 Tuesday in Frankfurt (UTC+1 in November).
    expect(localWeekdayAndHour("FRA", "2026-11-23T23:30:00Z")).toEqual({ weekday: 2, hour: 0 });
    expect(localWeekdayAndHour("JFK", "2026-11-23T03:00:00Z")).toEqual({ weekday: 0, hour: 22 });
  });
});

describe("addedLateness", () => {
  it("is a departure's lateness against its plan, and an arrival's beyond the flight's own delay", async () => {
    const journey = journeyOf(
      await stateAfter([
        booking(),
        status("DEP", "MUC", plus(journeyPlan.dep, 40), MUC_FRA),
        status("ARR", "FRA", plus(journeyPlan.arr, 50), MUC_FRA),
      ]),
    );
    expect(addedLateness(journey, 1)).toBe(40);
    // Left 40 late, arrived 50 late: the flight itself added 10.
    expect(addedLateness(journey, 2)).toBe(10);
    // Not reported: nothing to learn.
    expect(addedLateness(journey, 3)).toBeNull();
  });

  it("is unknown when the milestone it follows is not reported", async () => {
    const journey = journeyOf(
      await stateAfter([booking(), status("ARR", "FRA", plus(journeyPlan.arr, 50), MUC_FRA)]),
    );
    expect(addedLateness(journey, 2)).toBeNull();
  });
});
