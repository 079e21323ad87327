/**
 * Times as carriers mean them, through the parser and the route-map core: a DEP after local midnight
 * without day-change mark is late, not almost a day early, at every hour the message may be received;
 * a status line without a time is placed at the receipt and says so; a scheduled arrival without day
 * change lands after its departure.
 */
import { describe, expect, it } from "vitest";
import type { StatusReport } from "../../../functions/core/carrier-messages/types.ts";
import { applyReport } from "../../../functions/core/route-map/apply-report.ts";
import { DEFAULT_PLANNING_CONFIG } from "../../../functions/core/route-map/planning-config.ts";
import { receiptOf } from "../../../functions/core/route-map/provenance.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import { toPair } from "../../../functions/core/time/station-time.ts";
import { AWB, harness } from "../use-cases/support.ts";
import { at, booking, leg, status } from "./fixtures.ts";

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const ctx = (receivedAt: string) => ({ receivedAt, carrier: DEFAULT_PLANNING_CONFIG });

const consignment = "020-12345675FRAJFK/T10K250.0";
/** LH400 of 14 MAR, scheduled 23:50 at FRA (22:50Z), booked the day before. */
const BOOKING = `FSU/15\n${consignment}\nBKD/LH400/14MAR/FRAJFK/T10K250.0/S2350/S0230-N\n`;
const LATE_DEP = `FSU/15\n${consignment}\nDEP/LH400/14MAR/FRAJFK/T10K250.0/A0020\n`;

describe("a DEP at 00:20 for a flight scheduled at 23:50 the day before", () => {
  it("is 30 min late, received at any quarter hour of the next day", async () => {
    const departed = Date.parse("2026-03-14T23:20:00Z");
    for (let minutes = 15; minutes < 24 * 60; minutes += 15) {
      const h = harness();
      await h.imp(BOOKING, "2026-03-13T10:00:00Z");
      const receivedAt = iso(departed + minutes * MINUTE);
      await h.imp(LATE_DEP, receivedAt);
      const record = await h.routeMaps.get(AWB);
      const flight = renderRouteMap(record?.state ?? fail(), receivedAt).MilestonePlan.RoutingCycle.Flight[0];
      const info = flight?.FlightInfo;
      expect(info?.Scheduled.DepartureDateTime?.Utc).toBe("2026-03-14T22:50:00Z");
      expect(info?.Actual?.DepartureDateTime, receivedAt).toEqual({
        Utc: "2026-03-14T23:20:00Z",
        Local: "2026-03-15T00:20:00",
      });
      // Planned DEP is STD + 60 min: 30 min late on the schedule is Ok on the plan.
      expect(flight?.Milestone.find((m) => m.Name === "DEP")?.Status).toBe("Ok");
    }
  });

  it("is read as written while no plan says otherwise (the time nearest receipt, as before)", async () => {
    const h = harness();
    await h.imp(LATE_DEP, "2026-03-15T00:30:00Z");
    const state = (await h.routeMaps.get(AWB))?.state;
    expect(state?.statuses.map((s) => s.atUtc)).toEqual(["2026-03-13T23:20:00Z"]);
  });

  it("keeps an explicit day change and a time that is near its plan as written", async () => {
    const h = harness();
    await h.imp(BOOKING, "2026-03-13T10:00:00Z");
    await h.imp(`FSU/15\n${consignment}\nDEP/LH400/14MAR/FRAJFK/T10K250.0/A2345\n`, "2026-03-15T01:00:00Z");
    await h.imp(`FSU/15\n${consignment}\nARR/LH400/14MAR/JFK/T10/A0235-N\n`, "2026-03-15T08:00:00Z");
    const state = (await h.routeMaps.get(AWB))?.state;
    expect(state?.statuses.map((s) => [s.status, s.atUtc])).toEqual([
      ["ARR", "2026-03-15T06:35:00Z"],
      ["DEP", "2026-03-14T22:45:00Z"],
    ]);
  });
});

describe("the late DEP of the readable-e-mails test, at every quarter hour it may run", () => {
  /** Its scenario at `now`: STD 90 min ago (JSON booking), DEP 15 min ago on the flight's date, no mark. */
  it("is 15 min late on its plan whatever the hour, also when the DEP is after midnight", async () => {
    const local = (station: string, ms: number) => toPair(station, iso(ms)).Local;
    const months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
    const start = Date.parse("2026-11-22T23:00:00Z"); // 00:00 CET
    for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
      const now = start + minutes * MINUTE;
      const std = now - 90 * MINUTE;
      const stdLocal = local("FRA", std);
      const depLocal = local("FRA", now - 15 * MINUTE);
      const ddmmm = `${stdLocal.slice(8, 10)}${months[Number(stdLocal.slice(5, 7)) - 1]}`;
      const h = harness();
      await h.imp(
        JSON.stringify({
          Type: "BKD",
          AirlinePrefix: "020",
          AwbNumber: "12345675",
          Origin: "FRA",
          Destination: "JFK",
          Pieces: 10,
          Legs: [
            {
              CarrierCode: "LH",
              FlightNumber: "400",
              Date: stdLocal.slice(0, 10),
              Origin: "FRA",
              Destination: "JFK",
              ScheduledDeparture: stdLocal.slice(0, 16),
              ScheduledArrival: local("JFK", now + 7 * 60 * MINUTE).slice(0, 16),
              IsRoadFeederService: false,
            },
          ],
        }),
        iso(now - 60 * MINUTE),
        "application/json",
      );
      const hhmm = `${depLocal.slice(11, 13)}${depLocal.slice(14, 16)}`;
      await h.imp(
        `FSU/13
${consignment}
DEP/LH400/${ddmmm}/FRAJFK/T10K250.0/A${hhmm}
`,
        iso(now),
      );
      const map = renderRouteMap((await h.routeMaps.get(AWB))?.state ?? fail(), iso(now));
      const dep = map.MilestonePlan.RoutingCycle.Flight[0]?.Milestone.find((m) => m.Name === "DEP");
      expect(dep?.ActualDateTime?.Utc, iso(now)).toBe(iso(now - 15 * MINUTE));
      expect(dep?.Status, iso(now)).toBe("Ko");
    }
  });
});

describe("a scheduled arrival without day-change mark", () => {
  it("lands after its departure: S2330/S0115 lands at 01:15 the next morning", () => {
    const report = booking([leg("LH", "400", "FRA", "JFK", at(14, 3, "2330"), at(14, 3, "0115"))]);
    const { state } = applyReport(null, report, ctx("2026-03-13T10:00:00Z"));
    expect(state.legs[0]?.stdUtc).toBe("2026-03-14T22:30:00Z");
    expect(state.legs[0]?.staUtc).toBe("2026-03-15T05:15:00Z");
  });
});

describe("a status line without a time", () => {
  const noTime = (): StatusReport => ({
    ...status("DEP", "FRA", at(14, 3, "0000"), { carrierCode: "LH", flightNumber: "400", day: 14, month: 3 }),
    time: null,
  });

  it("is placed at the message's receipt and says the time was taken from it", () => {
    const receivedAt = "2026-03-14T23:31:07Z";
    const receipt = receiptOf("api", "020", receivedAt, "FSA/15 ...");
    const planned = applyReport(
      null,
      booking([leg("LH", "400", "FRA", "JFK", at(14, 3, "2350"), null)]),
      ctx(receivedAt),
    ).state;
    const { state } = applyReport(planned, noTime(), { ...ctx(receivedAt), receipt });
    const dep = state.statuses.find((s) => s.status === "DEP");
    expect(dep?.atUtc).toBe("2026-03-14T23:31:07Z");
    expect(dep?.p).toEqual({ c: "a", m: expect.stringMatching(/^FSU\//), r: receipt.id, n: 1 });
    expect(toPair("FRA", dep?.atUtc ?? "").Local).toBe("2026-03-15T00:31:07");
  });
});

function fail(): never {
  throw new Error("no route map stored");
}
