import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  CarrierReport,
  FlightLeg,
  StationTime,
} from "../../../functions/core/carrier-messages/types.ts";
import { applyReport } from "../../../functions/core/route-map/apply-report.ts";
import { DEFAULT_PLANNING_CONFIG } from "../../../functions/core/route-map/planning-config.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { ShipmentState } from "../../../functions/core/route-map/shipment-state.ts";
import { toPair } from "../../../functions/core/time/station-time.ts";
import { at, booking, FLIGHT, fwb, leg, NOW, status, TRUCK } from "./fixtures.ts";

type Step = [CarrierReport, string];

function applyAll(steps: readonly Step[]): ShipmentState {
  let state: ShipmentState | null = null;
  for (const [report, receivedAt] of steps) {
    state = applyReport(state, report, { receivedAt, carrier: DEFAULT_PLANNING_CONFIG }).state;
  }
  if (!state) throw new Error("no state");
  return state;
}

const LH9350 = { carrierCode: "LH", flightNumber: "9350" };
const LH400 = { carrierCode: "LH", flightNumber: "400" };

/** Each report travels with its own receipt time, whatever order it arrives in. */
const statusSteps: Step[] = [
  [status("RCS", "FRA", at(22, 11, "0630")), "2026-11-22T05:31:00Z"],
  [status("DEP", "FRA", at(22, 11, "0830"), LH9350), "2026-11-22T07:31:00Z"],
  [status("ARR", "CGN", at(22, 11, "1030"), LH9350, 6), "2026-11-22T09:31:00Z"],
  [status("ARR", "CGN", at(22, 11, "1035"), LH9350, 10), "2026-11-22T09:36:00Z"],
  [status("RCF", "CGN", at(22, 11, "1040"), LH9350), "2026-11-22T09:41:00Z"],
  [status("DEP", "CGN", at(22, 11, "1320"), LH400), "2026-11-22T12:21:00Z"],
  [status("DEP", "CGN", at(22, 11, "1320"), LH400), "2026-11-22T12:25:00Z"], // repeat
  [status("ARR", "JFK", at(22, 11, "1550"), LH400), "2026-11-22T20:51:00Z"],
  [
    status("RCF", "JFK", at(22, 11, "2000"), { carrierCode: "LH", flightNumber: "8160" }),
    "2026-11-23T01:01:00Z",
  ],
  [status("NFD", "JFK", at(23, 11, "0100")), "2026-11-23T06:01:00Z"],
  [status("DLV", "JFK", at(23, 11, "0900")), "2026-11-23T14:01:00Z"],
];
const planSteps: Step[] = [
  [booking([TRUCK, FLIGHT]), "2026-11-21T10:00:00Z"],
  [fwb(), "2026-11-21T12:00:00Z"],
];

describe("order independence", () => {
  const inOrder = renderRouteMap(applyAll([...planSteps, ...statusSteps]), NOW);

  it("every permutation of the status reports renders the same route map", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(statusSteps, { minLength: statusSteps.length, maxLength: statusSteps.length }),
        (shuffled) => {
          expect(renderRouteMap(applyAll([...planSteps, ...shuffled]), NOW)).toEqual(inOrder);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("statuses arriving before the booking and the FWB end in the same route map too", () => {
    const all = [...planSteps, ...statusSteps];
    fc.assert(
      fc.property(fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }), (shuffled) => {
        // Only one booking here, so its position does not change what the plan is.
        expect(renderRouteMap(applyAll(shuffled), NOW)).toEqual(inOrder);
      }),
      { numRuns: 200 },
    );
  });

  it("the in-order route map shows the reports where they belong", () => {
    const truck = inOrder.MilestonePlan.RoutingCycle.Flight[0];
    expect(truck?.Milestone.find((m) => m.Name === "ARR")).toMatchObject({
      ActualDateTime: { Utc: "2026-11-22T09:30:00Z", Local: "2026-11-22T10:30:00" },
      ActualNoOfPieces: 10,
    });
    expect(inOrder.Status).toBe("AtDestination");
    expect(inOrder.DeliveryDate?.Utc).toBe("2026-11-23T06:00:00Z");
  });
});

/** Stations with different zones (and DST rules) so legs cross offsets. */
const STATIONS = ["FRA", "JFK", "CGN", "HKG", "SYD", "GRU", "DXB", "LHR", "ORD", "NRT"];

/** The local wall-clock time of a UTC instant at a station, with its year (no ambiguity). */
function localTime(station: string, utcMs: number): StationTime {
  const local = toPair(station, new Date(utcMs).toISOString()).Local;
  return {
    year: Number(local.slice(0, 4)),
    month: Number(local.slice(5, 7)),
    day: Number(local.slice(8, 10)),
    hour: Number(local.slice(11, 13)),
    minute: Number(local.slice(14, 16)),
    dayOffset: 0,
  };
}

const itinerary = fc
  .record({
    start: fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2027-12-01T00:00:00Z") }),
    route: fc.uniqueArray(fc.constantFrom(...STATIONS), { minLength: 2, maxLength: 5 }),
    legs: fc.array(
      fc.record({
        blockMinutes: fc.integer({ min: 25, max: 16 * 60 }),
        // Connections of 2 h or more, so a 1 h DST overlap in a local time cannot reorder legs.
        connectionMinutes: fc.integer({ min: 120, max: 30 * 60 }),
        roadFeeder: fc.boolean(),
      }),
      { minLength: 4, maxLength: 4 },
    ),
  })
  .map(({ start, route, legs }) => {
    const flightLegs: FlightLeg[] = [];
    let std = Math.floor(start / 60_000) * 60_000;
    for (let i = 0; i + 1 < route.length; i += 1) {
      const shape = legs[i] ?? { blockMinutes: 60, connectionMinutes: 120, roadFeeder: false };
      const sta = std + shape.blockMinutes * 60_000;
      const origin = route[i] as string;
      const destination = route[i + 1] as string;
      const departure = localTime(origin, std);
      flightLegs.push(
        leg("XX", String(100 + i), origin, destination, departure, localTime(destination, sta), {
          flightDay: departure.day,
          flightMonth: departure.month,
          roadFeeder: shape.roadFeeder,
        }),
      );
      std = sta + shape.connectionMinutes * 60_000;
    }
    return { legs: flightLegs, receivedAt: new Date(start - 86_400_000).toISOString() };
  });

describe("planned times along the legs", () => {
  it("are ordered within each leg and across connecting legs", () => {
    fc.assert(
      fc.property(itinerary, ({ legs, receivedAt }) => {
        const report = {
          ...booking(legs),
          origin: legs[0]?.origin ?? "FRA",
          destination: legs.at(-1)?.destination ?? "JFK",
        };
        const state = applyAll([[report, receivedAt]]);
        const map = renderRouteMap(state, receivedAt);
        const planned = (
          name: string,
          list: readonly { Name: string; PlannedDateTime: { Utc: string } | null }[],
        ) => {
          const utc = list.find((m) => m.Name === name)?.PlannedDateTime?.Utc;
          if (!utc) throw new Error(`no planned ${name}`);
          return utc;
        };
        const origin = map.MilestonePlan.OriginCycle.Milestone;
        const flights = map.MilestonePlan.RoutingCycle.Flight;
        const destination = map.MilestonePlan.DestinationCycle.Milestone;
        expect(planned("FWB", origin) < planned("LAT", origin)).toBe(true);
        expect(planned("LAT", origin) < planned("RCS", origin)).toBe(true);
        expect(planned("RCS", origin) < planned("DEP", flights[0]?.Milestone ?? [])).toBe(true);
        flights.forEach((flight, i) => {
          const dep = planned("DEP", flight.Milestone);
          const arr = planned("ARR", flight.Milestone);
          const rcf = planned("RCF", flight.Milestone);
          expect(dep < arr && arr < rcf).toBe(true);
          const next = flights[i + 1];
          const sched = state.legs[i];
          const nextSched = state.legs[i + 1];
          // DEP of leg i+1 after ARR of leg i (scheduled) implies the planned ones keep that order.
          if (next && sched?.staUtc && nextSched?.stdUtc && nextSched.stdUtc > sched.staUtc) {
            expect(planned("DEP", next.Milestone) > arr).toBe(true);
          }
        });
        const last = flights.at(-1)?.Milestone ?? [];
        expect(planned("RCF", last) < planned("NFD", destination)).toBe(true);
        expect(planned("NFD", destination) < planned("AWD", destination)).toBe(true);
        expect(planned("AWD", destination) < planned("DLV", destination)).toBe(true);
        // Schedules survive the local-time round trip exactly.
        legs.forEach((l, i) => {
          expect(flights[i]?.FlightInfo.Scheduled.DepartureDateTime?.Local.slice(11, 16)).toBe(
            `${String(l.scheduledDeparture?.hour).padStart(2, "0")}:${String(l.scheduledDeparture?.minute).padStart(2, "0")}`,
          );
        });
      }),
      { numRuns: 300 },
    );
  });
});
