import { describe, expect, it } from "vitest";
import type { CarrierReport } from "../../../functions/core/carrier-messages/types.ts";
import type { DomainEventDraft } from "../../../functions/core/events.ts";
import { applyReport } from "../../../functions/core/route-map/apply-report.ts";
import { dueChecks, markMissing } from "../../../functions/core/route-map/due-checks.ts";
import {
  type CarrierPlanningConfig,
  DEFAULT_PLANNING_CONFIG,
} from "../../../functions/core/route-map/planning-config.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { ShipmentState } from "../../../functions/core/route-map/shipment-state.ts";
import type { Milestone, RouteMap } from "../../../functions/core/route-map/spec-types.ts";
import { at, booking, cancellation, FLIGHT, fwb, leg, NOW, qty, status, TRUCK } from "./fixtures.ts";

const ctx = (receivedAt: string, carrier: CarrierPlanningConfig = DEFAULT_PLANNING_CONFIG) => ({
  receivedAt,
  carrier,
});

/** Applies reports in order; returns the final state and every event. */
function run(steps: Array<[CarrierReport, string]>, start: ShipmentState | null = null) {
  let state = start;
  const events: DomainEventDraft[] = [];
  for (const [report, receivedAt] of steps) {
    const result = applyReport(state, report, ctx(receivedAt));
    state = result.state;
    events.push(...result.events);
  }
  if (!state) throw new Error("no state");
  return { state, events };
}

function milestone(map: RouteMap, cycle: "origin" | "destination", name: string): Milestone {
  const list =
    cycle === "origin"
      ? map.MilestonePlan.OriginCycle.Milestone
      : map.MilestonePlan.DestinationCycle.Milestone;
  const found = list.find((m) => m.Name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
}

function flightMilestone(map: RouteMap, flightIndex: number, name: string): Milestone {
  const found = map.MilestonePlan.RoutingCycle.Flight[flightIndex]?.Milestone.find((m) => m.Name === name);
  if (!found) throw new Error(`no ${name} on flight ${flightIndex}`);
  return found;
}

const acceptanceSteps: Array<[CarrierReport, string]> = [
  [booking([TRUCK, FLIGHT]), "2026-11-21T10:00:00Z"],
  [fwb(), "2026-11-21T12:00:00Z"],
  // RCS at 06:30 FRA local (05:30Z): 30 minutes after the RCS deadline.
  [status("RCS", "FRA", at(22, 11, "0630")), "2026-11-22T05:31:00Z"],
  // Truck departs 08:30 FRA local (07:30Z): within DEP planned (STD + 1 h = 08:00Z).
  [
    status("DEP", "FRA", at(22, 11, "0830"), { carrierCode: "LH", flightNumber: "9350" }),
    "2026-11-22T07:31:00Z",
  ],
];

describe("acceptance scenario: road-feeder + flight, FWB, late RCS, DEP on time", () => {
  const { state, events } = run(acceptanceSteps);
  const map = renderRouteMap(state, NOW);

  it("plans every milestone with the DESIGN offsets", () => {
    // First STD 08:00 FRA = 07:00Z; truck STA 10:00 CGN = 09:00Z; LH400 STD 13:00 CGN = 12:00Z, STA 16:00 JFK = 21:00Z.
    expect(milestone(map, "origin", "FWB").PlannedDateTime?.Utc).toBe("2026-11-22T00:55:00Z");
    expect(milestone(map, "origin", "LAT").PlannedDateTime?.Utc).toBe("2026-11-22T01:00:00Z");
    expect(milestone(map, "origin", "RCS").PlannedDateTime).toEqual({
      Utc: "2026-11-22T05:00:00Z",
      Local: "2026-11-22T06:00:00",
    });
    expect(flightMilestone(map, 0, "DEP").PlannedDateTime?.Utc).toBe("2026-11-22T08:00:00Z");
    expect(flightMilestone(map, 0, "ARR").PlannedDateTime?.Utc).toBe("2026-11-22T09:40:00Z"); // road feeder: +40 min
    expect(flightMilestone(map, 0, "RCF").PlannedDateTime?.Utc).toBe("2026-11-22T09:45:00Z"); // road feeder: +45 min
    expect(flightMilestone(map, 1, "DEP").PlannedDateTime?.Utc).toBe("2026-11-22T13:00:00Z");
    expect(flightMilestone(map, 1, "ARR").PlannedDateTime).toEqual({
      Utc: "2026-11-22T22:00:00Z",
      Local: "2026-11-22T17:00:00",
    });
    expect(flightMilestone(map, 1, "RCF").PlannedDateTime?.Utc).toBe("2026-11-23T02:00:00Z");
    expect(milestone(map, "destination", "NFD").PlannedDateTime?.Utc).toBe("2026-11-23T03:00:00Z");
    expect(milestone(map, "destination", "AWD").PlannedDateTime?.Utc).toBe("2026-11-23T05:00:00Z");
    expect(milestone(map, "destination", "DLV").PlannedDateTime?.Utc).toBe("2026-11-25T21:00:00Z");
  });

  it("judges milestones: Ko on late RCS (and LAT), Ok on DEP and FWB, Missing when passed unreported", () => {
    expect(milestone(map, "origin", "RCS").Status).toBe("Ko");
    expect(milestone(map, "origin", "RCS").ActualDateTime).toEqual({
      Utc: "2026-11-22T05:30:00Z",
      Local: "2026-11-22T06:30:00",
    });
    expect(milestone(map, "origin", "LAT").Status).toBe("Ko");
    expect(milestone(map, "origin", "LAT").ActualDateTime?.Utc).toBe("2026-11-22T05:30:00Z");
    expect(milestone(map, "origin", "FWB").Status).toBe("Ok");
    expect(milestone(map, "origin", "FWB").ActualDateTime?.Utc).toBe("2026-11-21T12:00:00Z");
    expect(flightMilestone(map, 0, "DEP").Status).toBe("Ok");
    expect(flightMilestone(map, 0, "DEP").ActualNoOfPieces).toBe(10);
    expect(flightMilestone(map, 0, "ARR").Status).toBe("Missing");
    expect(flightMilestone(map, 0, "ARR").ActualNoOfPieces).toBe(0);
    expect(flightMilestone(map, 1, "DEP").Status).toBe("Planned");
    expect(milestone(map, "destination", "NFD").Status).toBe("Planned");
  });

  it("summarises cycles and the route map", () => {
    // FWB, LAT (by the RCS) and RCS all have actuals: the origin cycle is complete.
    expect(map.MilestonePlan.OriginCycle.Status).toBe("Completed");
    expect(map.MilestonePlan.RoutingCycle.Status).toBe("Partial");
    expect(map.MilestonePlan.DestinationCycle.Status).toBe("Planned");
    expect([map.OriginState, map.RoutingState, map.DestinationState]).toEqual([1, 2, 0]);
    expect(map.Status).toBe("OnAir");
    expect(map.IsRoadFeederService).toBe(true);
    expect(map.MilestonePlan.RoutingCycle.Flight.map((f) => f.FlightInfo.isRoadFeederService)).toEqual([
      true,
      false,
    ]);
    expect(map.ReceiptDate).toEqual({ Utc: "2026-11-22T05:30:00Z", Local: "2026-11-22T06:30:00" });
    expect(map.DeliveryDate).toBeNull();
    expect(map.ProductCode).toBe("GEN");
    expect(map.CreationDate).toEqual({ Utc: "2026-11-21T10:00:00Z", Local: "2026-11-21T11:00:00" });
    expect(map.LastUpdate).toBe("2026-11-22T07:31:00Z");
    expect(map.IsReplanned).toBe(false);
    expect(map.RoutingIsReplanned).toBe(false);
    expect(map.Shipment).toEqual({
      AirlinePrefix: "020",
      AwbNumber: "12345675",
      Routing: { Origin: "FRA", Destination: "JFK" },
      Total: { NoOfPieces: 10, WeightCode: "K", Weight: 250, VolumeCode: "CM", Volume: 1.5 },
    });
  });

  it("renders flights with schedule, actuals, totals and the DDMMM date", () => {
    const [truck, lh400] = map.MilestonePlan.RoutingCycle.Flight;
    expect(truck?.FlightInfo).toEqual({
      CarrierCode: "LH",
      Number: "9350",
      Date: "22NOV",
      Scheduled: {
        DepartureDateTime: { Utc: "2026-11-22T07:00:00Z", Local: "2026-11-22T08:00:00" },
        ArrivalDateTime: { Utc: "2026-11-22T09:00:00Z", Local: "2026-11-22T10:00:00" },
      },
      Actual: {
        DepartureDateTime: { Utc: "2026-11-22T07:30:00Z", Local: "2026-11-22T08:30:00" },
        ArrivalDateTime: null,
      },
      Routing: { Origin: "FRA", Destination: "CGN" },
      isRoadFeederService: true,
    });
    expect(truck?.PlannedTotal?.NoOfPieces).toBe(10);
    expect(lh400?.FlightInfo.Actual).toBeNull();
    expect(lh400?.Milestone.map((m) => [m.Name, m.Station])).toEqual([
      ["DEP", "CGN"],
      ["ARR", "JFK"],
      ["RCF", "JFK"],
    ]);
  });

  it("emits RMP Creation, FWB, RCS + LAT, DEP events with full payload fields", () => {
    expect(events.map((e) => `${e.name}/${e.type}/${e.eventStatus}`)).toEqual([
      "RMP/Event/Creation",
      "FWB/Event/Update",
      "RCS/Event/Update",
      "LAT/Event/Update",
      "DEP/Event/Update",
    ]);
    const dep = events[4];
    expect(dep).toEqual({
      name: "DEP",
      type: "Event",
      eventStatus: "Update",
      awb: { prefix: "020", serial: "12345675" },
      station: "FRA",
      origin: "FRA",
      destination: "JFK",
      flight: { carrierCode: "LH", flightNumber: "9350" },
      piecesReported: 10,
      totalPieces: 10,
      weightReported: 250,
      weightCode: "K",
      reported: { Utc: "2026-11-22T07:30:00Z", Local: "2026-11-22T08:30:00" },
      planned: { Utc: "2026-11-22T08:00:00Z", Local: "2026-11-22T09:00:00" },
      isRM: true,
      milestoneKey: "FRA:DEP",
    });
    const lat = events[3];
    expect(lat?.planned?.Utc).toBe("2026-11-22T01:00:00Z");
    expect(lat?.reported?.Utc).toBe("2026-11-22T05:30:00Z");
    expect(events[1]?.reported?.Utc).toBe("2026-11-21T12:00:00Z");
    expect(events[0]?.milestoneKey).toBeNull();
  });

  it("takes the owner agent from the FWB", () => {
    expect(state.agent).toEqual({ code: "1234567", cass: "1234" });
  });

  it("shows the origin cycle Partial with FWB Missing when no FWB arrived", () => {
    const withoutFwb = run(acceptanceSteps.filter(([r]) => r.kind !== "awb-data"));
    const partial = renderRouteMap(withoutFwb.state, NOW);
    expect(partial.MilestonePlan.OriginCycle.Status).toBe("Partial");
    expect(milestone(partial, "origin", "FWB").Status).toBe("Missing");
    expect(partial.OriginState).toBe(2);
  });

  it("stores a JSON-safe state (no undefined, no Date)", () => {
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    const walk = (v: unknown): void => {
      expect(v).not.toBeUndefined();
      expect(v instanceof Date).toBe(false);
      if (v && typeof v === "object") for (const child of Object.values(v)) walk(child);
    };
    walk(state);
  });
});

describe("replans", () => {
  const base = run(acceptanceSteps.slice(0, 2));

  it("a changed flight sets RoutingIsReplanned, moves that leg's milestones and emits RMP Replan", () => {
    const lh402 = leg("LH", "402", "CGN", "JFK", at(22, 11, "1500"), at(22, 11, "1800"), {
      quantity: qty(10),
    });
    const result = applyReport(base.state, booking([TRUCK, lh402]), ctx("2026-11-22T09:00:00Z"));
    expect(result.changed).toBe(true);
    expect(result.events.map((e) => `${e.name}/${e.eventStatus}`)).toContain("RMP/Replan");
    const map = renderRouteMap(result.state, NOW);
    expect(map.RoutingIsReplanned).toBe(true);
    expect(map.IsReplanned).toBe(false);
    const dep = flightMilestone(map, 1, "DEP");
    expect(dep.IsReplanned).toBe(true);
    expect(dep.PlannedDateTime?.Utc).toBe("2026-11-22T15:00:00Z");
    expect(dep.ArchivedStatus).toBe("Planned");
    expect(flightMilestone(map, 0, "DEP").IsReplanned).toBe(false);
    expect(milestone(map, "destination", "NFD").IsReplanned).toBe(true);
    expect(milestone(map, "origin", "RCS").IsReplanned).toBe(false);
    expect(map.MilestonePlan.RoutingCycle.isReplanned).toBe(true);
    expect(map.MilestonePlan.OriginCycle.isReplanned).toBe(false);
    expect(map.MilestonePlan.RoutingCycle.Flight[1]?.FlightInfo.Number).toBe("402");
  });

  it("ArchivedStatus keeps the status a moved milestone had before the replan", () => {
    // Truck now arrives 13:00 CGN (12:00Z): its ARR moves from 09:40Z (Missing at 10:00Z) to 12:40Z.
    const lateTruck = leg("LH", "9350", "FRA", "CGN", at(22, 11, "0800"), at(22, 11, "1300"), {
      roadFeeder: true,
    });
    const result = applyReport(base.state, booking([lateTruck, FLIGHT]), ctx("2026-11-22T10:00:00Z"));
    const arr = flightMilestone(renderRouteMap(result.state, NOW), 0, "ARR");
    expect(arr.PlannedDateTime?.Utc).toBe("2026-11-22T12:40:00Z");
    expect(arr.Status).toBe("Planned");
    expect(arr.ArchivedStatus).toBe("Missing");
    expect(arr.IsReplanned).toBe(true);
    // Same flights, new times: not a routing replan.
    expect(result.state.routingIsReplanned).toBe(false);
  });

  it("a pieces/weight change sets the route map IsReplanned and emits RMP Replan", () => {
    const result = applyReport(
      base.state,
      booking([TRUCK, FLIGHT], qty(12, 300)),
      ctx("2026-11-22T09:00:00Z"),
    );
    expect(result.changed).toBe(true);
    expect(result.events.map((e) => `${e.name}/${e.eventStatus}`)).toEqual(["RMP/Replan"]);
    expect(result.events[0]?.totalPieces).toBe(12);
    const map = renderRouteMap(result.state, NOW);
    expect(map.IsReplanned).toBe(true);
    expect(map.RoutingIsReplanned).toBe(false);
    expect(map.Shipment.Total.NoOfPieces).toBe(12);
  });

  it("a single-leg BKD upserts only the leg departing from its station", () => {
    const lh404 = leg("LH", "404", "CGN", "JFK", at(22, 11, "1700"), at(22, 11, "2000"));
    const result = applyReport(base.state, booking([lh404], qty(10), false), ctx("2026-11-22T09:00:00Z"));
    const flights = renderRouteMap(result.state, NOW).MilestonePlan.RoutingCycle.Flight;
    expect(flights.map((f) => `${f.FlightInfo.Number}:${f.FlightInfo.Routing.Origin}`)).toEqual([
      "9350:FRA",
      "404:CGN",
    ]);
    expect(result.state.routingIsReplanned).toBe(true);
  });

  it("FWB FLT lines naming the booked flights keep the schedule and change nothing", () => {
    const flt = [
      { ...TRUCK, scheduledDeparture: null, scheduledArrival: null, quantity: null },
      { ...FLIGHT, scheduledDeparture: null, scheduledArrival: null, quantity: null },
    ];
    const result = applyReport(base.state, fwb({ legs: flt }), ctx("2026-11-22T09:00:00Z"));
    expect(result.changed).toBe(false);
    expect(result.events).toEqual([]);
  });

  it("a booking arriving after milestones are overdue records them Missing at once", () => {
    const late = run([[booking([TRUCK, FLIGHT]), NOW]]);
    const missed = late.events.filter((e) => e.type === "Missed").map((e) => e.milestoneKey);
    expect(missed).toEqual(["FRA:FWB", "FRA:LAT", "FRA:RCS", "FRA:DEP", "FRA:ARR", "FRA:RCF"]);
    expect(late.events.every((e) => e.type !== "Missed" || (e.reported === null && e.planned !== null))).toBe(
      true,
    );
    // The scheduled check that fires later for one of them changes nothing.
    const fwbDue = late.state.planned["FRA:FWB"];
    expect(markMissing(late.state, "FRA:FWB", fwbDue?.plannedUtc ?? "", NOW).changed).toBe(false);
  });
});

describe("duplicates and repeats", () => {
  it("applying any report a second time changes nothing and emits nothing", () => {
    const steps: Array<[CarrierReport, string]> = [
      ...acceptanceSteps,
      [
        status("ARR", "CGN", at(22, 11, "1030"), { carrierCode: "LH", flightNumber: "9350" }),
        "2026-11-22T09:31:00Z",
      ],
      [cancellation(), "2026-11-22T11:00:00Z"],
    ];
    let state: ShipmentState | null = null;
    for (const [report, receivedAt] of steps) {
      state = applyReport(state, report, ctx(receivedAt)).state;
      const again = applyReport(state, report, ctx("2026-11-22T11:59:00Z"));
      expect(again.changed).toBe(false);
      expect(again.events).toEqual([]);
      expect(again.state).toBe(state);
    }
  });

  it("a state read back with another key order is still recognised as unchanged", () => {
    const { state } = run(acceptanceSteps);
    // DynamoDB maps come back in any key order: reverse it at every level.
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverseKeys)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, c]) => [k, reverseKeys(c)]),
            )
          : v;
    const readBack = reverseKeys(state) as ShipmentState;
    expect(Object.keys(readBack)[0]).not.toBe(Object.keys(state)[0]);
    const again = applyReport(readBack, acceptanceSteps[3]?.[0] as CarrierReport, ctx(NOW));
    expect(again.changed).toBe(false);
    expect(renderRouteMap(readBack, NOW)).toEqual(renderRouteMap(state, NOW));
  });
});

describe("Simple route map (statuses without a booking)", () => {
  const steps: Array<[CarrierReport, string]> = [
    [status("RCS", "FRA", at(22, 11, "0630")), "2026-11-22T05:31:00Z"],
    [
      status("DEP", "FRA", at(22, 11, "0830"), { carrierCode: "LH", flightNumber: "400" }),
      "2026-11-22T07:31:00Z",
    ],
    [
      status("ARR", "JFK", at(22, 11, "1100"), { carrierCode: "LH", flightNumber: "400" }),
      "2026-11-22T16:01:00Z",
    ],
  ];
  const { state, events } = run(steps);

  it("stores the statuses and renders without planned times", () => {
    const map = renderRouteMap(state, NOW);
    const all = [
      ...map.MilestonePlan.OriginCycle.Milestone,
      ...map.MilestonePlan.RoutingCycle.Flight.flatMap((f) => f.Milestone),
      ...map.MilestonePlan.DestinationCycle.Milestone,
    ];
    expect(all.every((m) => m.PlannedDateTime === null)).toBe(true);
    expect(map.MilestonePlan.RoutingCycle.Flight.map((f) => f.FlightInfo.Routing)).toEqual([
      { Origin: "FRA", Destination: "JFK" },
    ]);
    expect(flightMilestone(map, 0, "ARR").ActualDateTime).toEqual({
      Utc: "2026-11-22T16:00:00Z",
      Local: "2026-11-22T11:00:00",
    });
    expect(flightMilestone(map, 0, "DEP").Status).toBe("Ok");
    expect(flightMilestone(map, 0, "RCF").Status).toBe("Planned");
    expect(map.Status).toBe("AtDestination");
    expect(map.ReceiptDate?.Utc).toBe("2026-11-22T05:30:00Z");
    expect(map.MilestonePlan.RoutingCycle.Flight[0]?.FlightInfo.Scheduled).toEqual({
      DepartureDateTime: null,
      ArrivalDateTime: null,
    });
  });

  it("emits status events with isRM false and no planned time", () => {
    expect(events.map((e) => e.name)).toEqual(["RCS", "LAT", "DEP", "ARR"]);
    expect(events.every((e) => !e.isRM && e.planned === null)).toBe(true);
  });

  it("becomes a planned route map when the booking arrives (RMP Creation)", () => {
    const lh400 = leg("LH", "400", "FRA", "JFK", at(22, 11, "0800"), at(22, 11, "1030"));
    const result = applyReport(state, booking([lh400], qty(10), true), ctx("2026-11-22T16:30:00Z"));
    expect(result.events[0]).toMatchObject({ name: "RMP", eventStatus: "Creation", isRM: true });
    const map = renderRouteMap(result.state, NOW);
    expect(flightMilestone(map, 0, "DEP").PlannedDateTime?.Utc).toBe("2026-11-22T08:00:00Z");
    expect(flightMilestone(map, 0, "ARR").Status).toBe("Ok"); // 16:00Z <= 15:30Z + 1 h
    expect(map.RoutingIsReplanned).toBe(false);
  });
});

describe("status for a flight not in the plan", () => {
  it("is stored and shown on the leg departing from its station", () => {
    const { state } = run([
      ...acceptanceSteps.slice(0, 2),
      [
        status("DEP", "CGN", at(22, 11, "1310"), { carrierCode: "LH", flightNumber: "408" }),
        "2026-11-22T12:11:00Z",
      ],
    ]);
    const map = renderRouteMap(state, "2026-11-22T12:30:00Z");
    expect(flightMilestone(map, 1, "DEP").ActualDateTime?.Utc).toBe("2026-11-22T12:10:00Z");
    expect(map.MilestonePlan.RoutingCycle.Flight[1]?.FlightInfo.Number).toBe("400");
    expect(state.statuses).toHaveLength(1);
  });
});

describe("unknown stations", () => {
  it("are a typed error before anything is stored", () => {
    const bad = { ...status("DEP", "QQQ", at(22, 11, "0830")), destination: "JFK" };
    expect(() => applyReport(null, bad, ctx(NOW))).toThrow(
      expect.objectContaining({ name: "UnknownStationError" }),
    );
    const badOrigin = { ...booking([TRUCK, FLIGHT]), origin: "QQQ" };
    expect(() => applyReport(null, badOrigin, ctx(NOW))).toThrow(expect.objectContaining({ station: "QQQ" }));
  });
});

describe("cancellation", () => {
  it("sets Status Cancelled, emits CAN once and stops the scheduled checks", () => {
    const { state } = run(acceptanceSteps);
    const result = applyReport(state, cancellation(), ctx("2026-11-22T11:00:00Z"));
    expect(result.changed).toBe(true);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({
      name: "CAN",
      type: "Event",
      eventStatus: "Update",
      station: "FRA",
    });
    expect(renderRouteMap(result.state, NOW).Status).toBe("Cancelled");
    expect(dueChecks(result.state)).toEqual([]);
    expect(applyReport(result.state, cancellation(), ctx(NOW)).changed).toBe(false);
  });
});

describe("road-feeder rule by flight number", () => {
  it("marks legs whose flight number matches the carrier's rule when the message is silent", () => {
    const config: CarrierPlanningConfig = {
      ...DEFAULT_PLANNING_CONFIG,
      roadFeederFlightNumbers: [{ carrierCode: "LH", pattern: "9\\d{3}" }],
    };
    const silentTruck = { ...TRUCK, roadFeeder: null };
    const result = applyReport(null, booking([silentTruck, FLIGHT]), ctx("2026-11-21T10:00:00Z", config));
    expect(result.state.legs.map((l) => l.roadFeeder)).toEqual([true, false]);
    const byDefault = applyReport(null, booking([silentTruck, FLIGHT]), ctx("2026-11-21T10:00:00Z"));
    expect(byDefault.state.legs.map((l) => l.roadFeeder)).toEqual([false, false]);
  });
});

describe("scheduled checks", () => {
  const { state } = run(acceptanceSteps.slice(0, 2));

  it("lists planned milestones without actual, in planned order", () => {
    const due = dueChecks(state);
    expect(due[0]).toEqual({
      milestoneKey: "FRA:LAT",
      name: "LAT",
      station: "FRA",
      plannedUtc: "2026-11-22T01:00:00Z",
    });
    expect(due.map((d) => d.milestoneKey)).not.toContain("FRA:FWB");
    expect(due).toHaveLength(11); // 12 planned, FWB reported
  });

  it("markMissing records a passed, unreported, unchanged milestone once", () => {
    const early = markMissing(state, "FRA:DEP", "2026-11-22T08:00:00Z", "2026-11-22T07:59:00Z");
    expect(early.changed).toBe(false);
    const stale = markMissing(state, "FRA:DEP", "2026-11-22T07:00:00Z", NOW);
    expect(stale.changed).toBe(false);
    const missing = markMissing(state, "FRA:DEP", "2026-11-22T08:00:00Z", NOW);
    expect(missing.changed).toBe(true);
    expect(missing.events).toEqual([
      expect.objectContaining({
        name: "DEP",
        type: "Missed",
        eventStatus: "Update",
        reported: null,
        planned: { Utc: "2026-11-22T08:00:00Z", Local: "2026-11-22T09:00:00" },
        flight: { carrierCode: "LH", flightNumber: "9350" },
        milestoneKey: "FRA:DEP",
        isRM: true,
      }),
    ]);
    expect(markMissing(missing.state, "FRA:DEP", "2026-11-22T08:00:00Z", NOW).changed).toBe(false);
    // Reported in the meantime: nothing to record.
    const reported = run([acceptanceSteps[3] as [CarrierReport, string]], state).state;
    expect(markMissing(reported, "FRA:DEP", "2026-11-22T08:00:00Z", NOW).changed).toBe(false);
  });

  it("a replan re-arms the check for the new planned time", () => {
    const first = markMissing(state, "CGN:DEP", "2026-11-22T13:00:00Z", "2026-11-22T13:01:00Z").state;
    const lh402 = leg("LH", "402", "CGN", "JFK", at(22, 11, "1500"), at(22, 11, "1800"));
    const replanned = applyReport(first, booking([TRUCK, lh402]), ctx("2026-11-22T13:02:00Z")).state;
    const again = markMissing(replanned, "CGN:DEP", "2026-11-22T15:00:00Z", "2026-11-22T15:01:00Z");
    expect(again.changed).toBe(true);
  });
});

/** Every milestone of a rendered route map, in cycle order. */
function allMilestones(map: RouteMap): Milestone[] {
  return [
    ...map.MilestonePlan.OriginCycle.Milestone,
    ...map.MilestonePlan.RoutingCycle.Flight.flatMap((f) => f.Milestone),
    ...map.MilestonePlan.DestinationCycle.Milestone,
  ];
}

const plannedCount = (map: RouteMap) => allMilestones(map).filter((m) => m.PlannedDateTime !== null).length;
const flightsOf = (map: RouteMap) =>
  map.MilestonePlan.RoutingCycle.Flight.map(
    (f) => `${f.FlightInfo.Number}:${f.FlightInfo.Routing.Origin}-${f.FlightInfo.Routing.Destination}`,
  );
const eventNames = (events: readonly DomainEventDraft[]) =>
  events.map((e) => (e.name === "RMP" ? `RMP/${e.eventStatus}` : `${e.name}/${e.type}`));

describe("FWB FLT lines and a scheduled booking (DESIGN.md section 9, Itinerary)", () => {
  // BKD LH400/23NOV/FRAJFK/S1325/S1555, received the day before.
  const LH400 = leg("LH", "400", "FRA", "JFK", at(23, 11, "1325"), at(23, 11, "1555"));
  const bkd = booking([LH400], qty(10), false);
  /** FLT/LH<number>/23: the flight by day only, no schedule. */
  const fwbNaming = (flightNumber: string) =>
    fwb({ legs: [leg("LH", flightNumber, "FRA", "JFK", null, null, { flightDay: 23, flightMonth: 0 })] });

  it("an FWB naming another flight after the booking keeps the schedule and the plan", () => {
    const { state } = run([[bkd, "2026-11-22T09:00:00Z"]]);
    expect(plannedCount(renderRouteMap(state, NOW))).toBe(9);
    const result = applyReport(state, fwbNaming("402"), ctx("2026-11-22T10:00:00Z"));
    const map = renderRouteMap(result.state, NOW);
    expect(plannedCount(map)).toBe(9);
    expect(flightsOf(map)).toEqual(["400:FRA-JFK"]);
    expect(map.RoutingIsReplanned).toBe(false);
    expect(eventNames(result.events)).toEqual(["FWB/Event"]);
    expect(result.events[0]?.isRM).toBe(true);
  });

  it("an FWB naming the booked flight changes nothing but the FWB milestone", () => {
    const { state } = run([[bkd, "2026-11-22T09:00:00Z"]]);
    const result = applyReport(state, fwbNaming("400"), ctx("2026-11-22T10:00:00Z"));
    expect(result.state.legs).toEqual(state.legs);
    expect(result.state.planned).toEqual(state.planned);
    expect(eventNames(result.events)).toEqual(["FWB/Event"]);
  });

  it("an FWB before the booking gives the flights; the booking then plans them (RMP Creation)", () => {
    const fwbFirst = run([[fwbNaming("402"), "2026-11-22T08:00:00Z"]]);
    const simple = renderRouteMap(fwbFirst.state, NOW);
    expect(flightsOf(simple)).toEqual(["402:FRA-JFK"]);
    expect(plannedCount(simple)).toBe(0);
    const booked = applyReport(fwbFirst.state, bkd, ctx("2026-11-22T09:00:00Z"));
    expect(eventNames(booked.events)).toEqual(["RMP/Creation"]);
    const map = renderRouteMap(booked.state, NOW);
    expect(flightsOf(map)).toEqual(["400:FRA-JFK"]);
    expect(plannedCount(map)).toBe(9);
    expect(map.RoutingIsReplanned).toBe(false);
  });

  it.each(["400", "402"])("FWB (FLT LH%s) and BKD end in the same plan in either order", (flightNumber) => {
    const fwbThenBkd = run([
      [fwbNaming(flightNumber), "2026-11-22T08:00:00Z"],
      [bkd, "2026-11-22T09:00:00Z"],
    ]).state;
    const bkdThenFwb = run([
      [bkd, "2026-11-22T08:00:00Z"],
      [fwbNaming(flightNumber), "2026-11-22T09:00:00Z"],
    ]).state;
    expect(bkdThenFwb.legs).toEqual(fwbThenBkd.legs);
    expect(bkdThenFwb.planned).toEqual(fwbThenBkd.planned);
    expect(bkdThenFwb.routingIsReplanned).toBe(false);
  });

  it("a booking that leaves a planned route map without planned times still emits RMP Replan", () => {
    const { state } = run([[bkd, "2026-11-22T09:00:00Z"]]);
    // An FFR rebooking onto LH402 without time groups: the booking says so, but gives no schedule.
    const unscheduled = booking(
      [leg("LH", "402", "FRA", "JFK", null, null, { flightDay: 23 })],
      qty(10),
      true,
    );
    const result = applyReport(state, unscheduled, ctx("2026-11-22T10:00:00Z"));
    expect(plannedCount(renderRouteMap(result.state, NOW))).toBe(0);
    expect(eventNames(result.events)).toEqual(["RMP/Replan"]);
    expect(result.events[0]?.isRM).toBe(false);
    expect(result.state.routingIsReplanned).toBe(true);
  });
});

describe("single-leg BKD reroute (legs it cuts off)", () => {
  const base = run(acceptanceSteps.slice(0, 2)); // TRUCK FRA-CGN + LH400 CGN-JFK, FWB
  const LH402 = leg("LH", "402", "FRA", "JFK", at(22, 11, "0900"), at(22, 11, "1200"));

  it("a new leg from the origin to the destination drops the leg it bypasses, with its milestones", () => {
    const result = applyReport(base.state, booking([LH402], qty(10), false), ctx("2026-11-22T06:00:00Z"));
    const map = renderRouteMap(result.state, NOW);
    expect(flightsOf(map)).toEqual(["402:FRA-JFK"]);
    expect(Object.keys(result.state.planned).filter((k) => k.startsWith("CGN:"))).toEqual([]);
    // Destination milestones follow the new last arrival: STA 12:00 JFK = 17:00Z, NFD + 6 h.
    expect(milestone(map, "destination", "NFD").PlannedDateTime?.Utc).toBe("2026-11-22T23:00:00Z");
    expect(milestone(map, "destination", "NFD").IsReplanned).toBe(true);
    expect(map.RoutingIsReplanned).toBe(true);
    expect(eventNames(result.events)).toContain("RMP/Replan");
  });

  it("keeps a cut-off leg that already has a reported actual, with that actual", () => {
    const flown = run(
      [
        [
          status("ARR", "JFK", at(22, 11, "1610"), { carrierCode: "LH", flightNumber: "400" }),
          "2026-11-22T21:11:00Z",
        ],
      ],
      base.state,
    ).state;
    const result = applyReport(flown, booking([LH402], qty(10), false), ctx("2026-11-22T21:30:00Z"));
    const map = renderRouteMap(result.state, NOW);
    expect(flightsOf(map)).toEqual(["402:FRA-JFK", "400:CGN-JFK"]);
    expect(flightMilestone(map, 1, "ARR").ActualDateTime?.Utc).toBe("2026-11-22T21:10:00Z");
  });

  it("keeps legs of a booking that arrives piece by piece, not yet joined up", () => {
    const start = run([[booking([FLIGHT], qty(10), false), "2026-11-21T10:00:00Z"]]).state; // CGN-JFK
    const joined = applyReport(start, booking([TRUCK], qty(10), false), ctx("2026-11-21T10:05:00Z")).state;
    expect(flightsOf(renderRouteMap(joined, NOW))).toEqual(["9350:FRA-CGN", "400:CGN-JFK"]);
  });

  it("drops only the legs between the new leg's ends: FRA-AMS replaces FRA-CGN and CGN-AMS, keeps AMS-JFK", () => {
    const three = [
      leg("LH", "9350", "FRA", "CGN", at(22, 11, "0800"), at(22, 11, "1000")),
      leg("KL", "1802", "CGN", "AMS", at(22, 11, "1100"), at(22, 11, "1200")),
      leg("KL", "643", "AMS", "JFK", at(22, 11, "1400"), at(22, 11, "1600")),
    ];
    const start = run([[booking(three), "2026-11-21T10:00:00Z"]]).state;
    const direct = leg("KL", "1764", "FRA", "AMS", at(22, 11, "0900"), at(22, 11, "1020"));
    const result = applyReport(start, booking([direct], qty(10), false), ctx("2026-11-21T11:00:00Z"));
    expect(flightsOf(renderRouteMap(result.state, NOW))).toEqual(["1764:FRA-AMS", "643:AMS-JFK"]);
  });
});

describe("FWB changing the AWB origin or destination of a planned route map", () => {
  const base = run([[booking([TRUCK, FLIGHT]), "2026-11-21T10:00:00Z"]]);

  it("moves the origin milestones to the new origin with their planned times (RMP Replan)", () => {
    const result = applyReport(base.state, fwb({ origin: "HHN" }), ctx("2026-11-21T12:00:00Z"));
    const map = renderRouteMap(result.state, "2026-11-21T12:00:00Z");
    expect(
      map.MilestonePlan.OriginCycle.Milestone.map((m) => [m.Name, m.Station, m.PlannedDateTime?.Utc]),
    ).toEqual([
      ["FWB", "HHN", "2026-11-22T00:55:00Z"],
      ["LAT", "HHN", "2026-11-22T01:00:00Z"],
      ["RCS", "HHN", "2026-11-22T05:00:00Z"],
    ]);
    // Same times: not replanned milestones, but the route map changed.
    expect(map.MilestonePlan.OriginCycle.isReplanned).toBe(false);
    expect(eventNames(result.events)).toEqual(["RMP/Replan", "FWB/Event"]);
  });

  it("moves the destination milestones to the new destination", () => {
    const result = applyReport(base.state, fwb({ destination: "EWR" }), ctx("2026-11-21T12:00:00Z"));
    const map = renderRouteMap(result.state, "2026-11-21T12:00:00Z");
    expect(
      map.MilestonePlan.DestinationCycle.Milestone.map((m) => [m.Name, m.Station, m.PlannedDateTime?.Utc]),
    ).toEqual([
      ["NFD", "EWR", "2026-11-23T03:00:00Z"],
      ["AWD", "EWR", "2026-11-23T05:00:00Z"],
      ["DLV", "EWR", "2026-11-25T21:00:00Z"],
    ]);
    expect(map.Shipment.Routing).toEqual({ Origin: "FRA", Destination: "EWR" });
  });
});

describe("an overnight flight's DEP and ARR (flight day from the schedule)", () => {
  // LH400 departs FRA 22 NOV 22:30 and arrives JFK after midnight local; the ARR names its own date, 23NOV.
  const dep = status("DEP", "FRA", at(22, 11, "2230"), { carrierCode: "LH", flightNumber: "400", day: 22 });
  const arr = status("ARR", "JFK", at(23, 11, "0110"), { carrierCode: "LH", flightNumber: "400", day: 23 });
  const later = "2026-11-23T07:00:00Z";

  it.each([
    ["DEP first", [dep, arr]],
    ["ARR first", [arr, dep]],
  ])("is one leg of a Simple route map (%s)", (_order, reports) => {
    const { state } = run(reports.map((r): [CarrierReport, string] => [r, later]));
    const map = renderRouteMap(state, later);
    expect(flightsOf(map)).toEqual(["400:FRA-JFK"]);
    expect(map.MilestonePlan.RoutingCycle.Flight[0]?.FlightInfo.Date).toBe("22NOV");
    expect(map.MilestonePlan.RoutingCycle.Flight[0]?.FlightInfo.Actual).toEqual({
      DepartureDateTime: { Utc: "2026-11-22T21:30:00Z", Local: "2026-11-22T22:30:00" },
      ArrivalDateTime: { Utc: "2026-11-23T06:10:00Z", Local: "2026-11-23T01:10:00" },
    });
  });

  it("an ARR of the same flight number two days later is another flight", () => {
    const twoDays = status("ARR", "JFK", at(24, 11, "0110"), {
      carrierCode: "LH",
      flightNumber: "400",
      day: 24,
    });
    const { state } = run([
      [dep, later],
      [twoDays, later],
    ]);
    expect(renderRouteMap(state, later).MilestonePlan.RoutingCycle.Flight).toHaveLength(2);
  });

  it("in a planned route map, attaches to the leg of that flight departing the day before", () => {
    // Two daily LH400 legs booked (a rebooking kept both days apart): the ARR of 24NOV belongs to the 23rd's.
    const day22 = leg("LH", "400", "FRA", "JFK", at(22, 11, "2230"), at(23, 11, "0110"));
    const day23 = leg("LH", "400", "CGN", "JFK", at(23, 11, "2230"), at(24, 11, "0110"));
    const arr24 = status("ARR", "JFK", at(24, 11, "0115"), {
      carrierCode: "LH",
      flightNumber: "400",
      day: 24,
    });
    const { state } = run([
      [booking([day22, day23]), "2026-11-21T10:00:00Z"],
      [arr24, "2026-11-24T07:00:00Z"],
    ]);
    const map = renderRouteMap(state, "2026-11-24T07:00:00Z");
    expect(flightMilestone(map, 0, "ARR").ActualDateTime).toBeNull();
    expect(flightMilestone(map, 1, "ARR").ActualDateTime?.Local).toBe("2026-11-24T01:15:00");
  });
});
