import { describe, expect, it } from "vitest";
import { applyReport } from "../../../functions/core/route-map/apply-report.ts";
import { DEFAULT_PLANNING_CONFIG } from "../../../functions/core/route-map/planning-config.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { ShipmentState } from "../../../functions/core/route-map/shipment-state.ts";
import { at, booking, FLIGHT, fwb, NOW, status, TRUCK } from "./fixtures.ts";

const PAIR = ["Local", "Utc"];
const TOTALS = ["NoOfPieces", "Volume", "VolumeCode", "Weight", "WeightCode"];
const MILESTONE = [
  "ActualDateTime",
  "ActualNoOfPieces",
  "ArchivedStatus",
  "IsReplanned",
  "Name",
  "PlannedDateTime",
  "Station",
  "Status",
];
const keys = (value: unknown) => Object.keys(value as object).sort();

function expectMilestones(list: readonly unknown[]) {
  for (const m of list) {
    expect(keys(m)).toEqual(MILESTONE);
    const { PlannedDateTime, ActualDateTime } = m as { PlannedDateTime: unknown; ActualDateTime: unknown };
    for (const pair of [PlannedDateTime, ActualDateTime]) if (pair !== null) expect(keys(pair)).toEqual(PAIR);
  }
}

function build(): ShipmentState {
  let state: ShipmentState | null = null;
  for (const [report, receivedAt] of [
    [booking([TRUCK, FLIGHT]), "2026-11-21T10:00:00Z"],
    [fwb(), "2026-11-21T12:00:00Z"],
    [status("RCS", "FRA", at(22, 11, "0630")), "2026-11-22T05:31:00Z"],
    [
      status("DEP", "FRA", at(22, 11, "0830"), { carrierCode: "LH", flightNumber: "9350" }),
      "2026-11-22T07:31:00Z",
    ],
    [status("NFD", "JFK", at(23, 11, "0100")), "2026-11-23T06:01:00Z"],
  ] as const) {
    state = applyReport(state, report, { receivedAt, carrier: DEFAULT_PLANNING_CONFIG }).state;
  }
  if (!state) throw new Error("no state");
  return state;
}

describe("rendered route map has exactly the spec's fields", () => {
  const map = renderRouteMap(build(), NOW);

  it("at the top level", () => {
    expect(keys(map)).toEqual(
      [
        "MilestonePlan",
        "LastUpdate",
        "Shipment",
        "DeliveryDate",
        "ReceiptDate",
        "ProductCode",
        "IsRoadFeederService",
        "Status",
        "IsReplanned",
        "RoutingIsReplanned",
        "OriginState",
        "RoutingState",
        "DestinationState",
        "Origin",
        "Routing",
        "Destination",
        "CreationDate",
      ].sort(),
    );
    expect([map.Origin, map.Routing, map.Destination]).toEqual([null, null, null]);
    for (const pair of [map.DeliveryDate, map.ReceiptDate, map.CreationDate])
      expect(keys(pair)).toEqual(PAIR);
    expect(map.LastUpdate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("in the shipment and its totals", () => {
    expect(keys(map.Shipment)).toEqual(["AirlinePrefix", "AwbNumber", "Routing", "Total"]);
    expect(keys(map.Shipment.Routing)).toEqual(["Destination", "Origin"]);
    expect(keys(map.Shipment.Total)).toEqual(TOTALS);
  });

  it("in the cycles, flights and milestones", () => {
    const plan = map.MilestonePlan;
    expect(keys(plan)).toEqual(["DestinationCycle", "OriginCycle", "RoutingCycle"]);
    expect(keys(plan.OriginCycle)).toEqual(["Milestone", "Status", "isReplanned"]);
    expect(keys(plan.RoutingCycle)).toEqual(["Flight", "Status", "isReplanned"]);
    expect(keys(plan.DestinationCycle)).toEqual(["Milestone", "Status", "isReplanned"]);
    expectMilestones(plan.OriginCycle.Milestone);
    expectMilestones(plan.DestinationCycle.Milestone);
    expect(plan.OriginCycle.Milestone.map((m) => m.Name)).toEqual(["FWB", "LAT", "RCS"]);
    expect(plan.DestinationCycle.Milestone.map((m) => m.Name)).toEqual(["NFD", "AWD", "DLV"]);
    for (const flight of plan.RoutingCycle.Flight) {
      expect(keys(flight)).toEqual(["FlightInfo", "Milestone", "PlannedTotal", "Total"]);
      expect(keys(flight.Total)).toEqual(TOTALS);
      if (flight.PlannedTotal) expect(keys(flight.PlannedTotal)).toEqual(TOTALS);
      expectMilestones(flight.Milestone);
      expect(flight.Milestone.map((m) => m.Name)).toEqual(["DEP", "ARR", "RCF"]);
      const info = flight.FlightInfo;
      expect(keys(info)).toEqual(
        ["CarrierCode", "Number", "Date", "Scheduled", "Actual", "Routing", "isRoadFeederService"].sort(),
      );
      expect(info.Date).toMatch(/^\d{2}[A-Z]{3}$/);
      expect(keys(info.Scheduled)).toEqual(["ArrivalDateTime", "DepartureDateTime"]);
      if (info.Actual) expect(keys(info.Actual)).toEqual(["ArrivalDateTime", "DepartureDateTime"]);
      expect(keys(info.Routing)).toEqual(["Destination", "Origin"]);
    }
  });

  it("with UTC stamps without milliseconds everywhere", () => {
    const text = JSON.stringify(map);
    const utcs = [...text.matchAll(/"Utc":"([^"]+)"/g)].map((m) => m[1]);
    expect(utcs.length).toBeGreaterThan(10);
    for (const utc of utcs) expect(utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const locals = [...text.matchAll(/"Local":"([^"]+)"/g)].map((m) => m[1]);
    for (const local of locals) expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });
});
