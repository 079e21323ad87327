/** Events without a flight of their own name the itinerary's first (or, at destination, last) leg. */
import { expect, it } from "vitest";
import { applyReport } from "../../../functions/core/route-map/apply-report.ts";
import { DEFAULT_PLANNING_CONFIG } from "../../../functions/core/route-map/planning-config.ts";
import { at, booking, FLIGHT, status, TRUCK } from "./fixtures.ts";

const ctx = (receivedAt: string) => ({ receivedAt, carrier: DEFAULT_PLANNING_CONFIG });

it("names the first leg on RMP and origin milestones, the last leg at destination", () => {
  const planned = applyReport(null, booking([TRUCK, FLIGHT]), ctx("2026-11-21T08:00:00Z"));
  const rmp = planned.events.find((event) => event.name === "RMP");
  expect(rmp?.flight).toEqual({ carrierCode: "LH", flightNumber: "9350" });

  const received = applyReport(
    planned.state,
    status("RCS", "FRA", at(22, 11, "0500")),
    ctx("2026-11-22T04:10:00Z"),
  );
  expect(received.events.find((event) => event.name === "RCS")?.flight).toEqual({
    carrierCode: "LH",
    flightNumber: "9350",
  });

  const notified = applyReport(
    received.state,
    status("NFD", "JFK", at(22, 11, "2000")),
    ctx("2026-11-23T01:10:00Z"),
  );
  expect(notified.events.find((event) => event.name === "NFD")?.flight).toEqual({
    carrierCode: "LH",
    flightNumber: "400",
  });
});
