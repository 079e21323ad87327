/** Reading a route map for the app: timeline sections, exceptions, and the changes between two maps. */
import { describe, expect, it } from "vitest";
import {
  exceptionSummary,
  flightTitle,
  isException,
  type RouteMap,
  routeMapChanges,
  timelineSections,
} from "../../../web/src/lib/route-map.ts";
import { milestone, pair, routeMap } from "./fixtures.ts";

const clone = (map: RouteMap): RouteMap => structuredClone(map);
/** The zone labels the lazily loaded table gives these stations in March. */
const zones = (station: string) => (station === "JFK" ? "EDT" : "CET");

describe("timeline", () => {
  it("is origin, each leg (trucks marked), destination", () => {
    const sections = timelineSections(routeMap());
    expect(sections.map((section) => section.title)).toEqual([
      "Origin",
      "Truck LH9350 HAJ → FRA",
      "LH400 FRA → JFK",
      "Destination",
    ]);
    expect(sections.map((section) => section.milestones.map((m) => m.Name))).toEqual([
      ["RCS"],
      ["DEP"],
      ["DEP"],
      ["DLV"],
    ]);
    const flight = routeMap().MilestonePlan.RoutingCycle.Flight[1];
    expect(flight && flightTitle(flight)).toBe("LH400 FRA → JFK");
  });
});

describe("exceptions", () => {
  it("a Ko milestone makes an exception", () => {
    expect(isException(routeMap())).toBe(true);
    expect(exceptionSummary(routeMap())).toBe("1 Ko");
  });

  it("so does a Missing milestone or a replan; a map on plan is none", () => {
    const onPlan = clone(routeMap());
    onPlan.MilestonePlan.OriginCycle.Milestone = [];
    expect(isException(onPlan)).toBe(false);
    expect(exceptionSummary(onPlan)).toBe("");

    const missing = clone(onPlan);
    missing.MilestonePlan.DestinationCycle.Milestone = [
      milestone("DLV", "JFK", "Missing", pair("2026-03-16T14:00:00Z", "2026-03-16T10:00:00")),
    ];
    expect(isException(missing)).toBe(true);
    expect(exceptionSummary(missing)).toBe("1 Missing");

    const replanned = clone(onPlan);
    replanned.RoutingIsReplanned = true;
    expect(isException(replanned)).toBe(true);
    expect(exceptionSummary(replanned)).toBe("replanned");
  });
});

describe("changes between snapshots", () => {
  it("none between a map and itself", () => {
    expect(routeMapChanges(routeMap(), routeMap(), zones)).toEqual([]);
  });

  it("names a status change, a milestone reported, pieces and a new leg", () => {
    const before = routeMap();
    const after = clone(before);
    after.Status = "AtDestination";
    const dep = after.MilestonePlan.RoutingCycle.Flight[1]?.Milestone[0];
    if (!dep) throw new Error("fixture has no LH400 DEP");
    dep.Status = "Ko";
    dep.ActualDateTime = pair("2026-03-14T15:10:00Z", "2026-03-14T16:10:00");
    dep.ActualNoOfPieces = 10;
    dep.IsReplanned = true;
    const extra = structuredClone(after.MilestonePlan.RoutingCycle.Flight[1]);
    if (!extra) throw new Error("fixture has no second leg");
    extra.FlightInfo.Number = "402";
    after.MilestonePlan.RoutingCycle.Flight.push(extra);
    expect(routeMapChanges(before, after, zones)).toEqual([
      "Status In transit → At destination",
      "LH400 FRA → JFK · Departed (DEP): Planned → Ko",
      "LH400 FRA → JFK · Departed (DEP): actual none → 16:10 CET, 14 Mar",
      "LH400 FRA → JFK · Departed (DEP): pieces 0 → 10",
      "LH400 FRA → JFK · Departed (DEP): replanned",
      "LH402 FRA → JFK added",
    ]);
  });

  it("names a leg removed, a rescheduled flight and a replanned time", () => {
    const before = routeMap();
    const after = clone(before);
    after.MilestonePlan.RoutingCycle.Flight.splice(0, 1);
    const lh400 = after.MilestonePlan.RoutingCycle.Flight[0];
    if (!lh400) throw new Error("fixture has no LH400");
    lh400.FlightInfo.Scheduled.DepartureDateTime = pair("2026-03-14T15:25:00Z", "2026-03-14T16:25:00");
    const dlv = after.MilestonePlan.DestinationCycle.Milestone[0];
    if (!dlv) throw new Error("fixture has no DLV");
    dlv.PlannedDateTime = pair("2026-03-17T14:00:00Z", "2026-03-17T10:00:00");
    expect(routeMapChanges(before, after, zones)).toEqual([
      "Truck LH9350 HAJ → FRA removed",
      "LH400 FRA → JFK: scheduled departure 14:25 CET, 14 Mar → 16:25 CET, 14 Mar",
      "Delivered (DLV) at JFK: planned 10:00 EDT, 16 Mar → 10:00 EDT, 17 Mar",
    ]);
  });
});
