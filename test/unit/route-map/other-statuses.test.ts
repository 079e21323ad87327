/**
 * Status codes beyond the route-map milestones: parsed from Cargo-IMP into
 * other-status reports, kept in the shipment state as history (deduplicated, capped), never changing
 * the route map, its LastUpdate or events; rendered as the history's StatusMessages, newest first.
 */
import { describe, expect, it } from "vitest";
import { parseCargoImp } from "../../../functions/core/carrier-messages/cargo-imp/index.ts";
import type { CarrierReport, OtherStatusReport } from "../../../functions/core/carrier-messages/types.ts";
import { MessageParseError } from "../../../functions/core/errors.ts";
import { applyReport } from "../../../functions/core/route-map/apply-report.ts";
import { DEFAULT_PLANNING_CONFIG } from "../../../functions/core/route-map/planning-config.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import { assertPlaceable } from "../../../functions/core/route-map/report-placement.ts";
import { MAX_OTHER_STATUSES, type ShipmentState } from "../../../functions/core/route-map/shipment-state.ts";
import { renderStatusMessages } from "../../../functions/core/route-map/status-messages.ts";
import { booking, FLIGHT, fwb, NOW, TRUCK } from "./fixtures.ts";

const ctx = (receivedAt: string) => ({ receivedAt, carrier: DEFAULT_PLANNING_CONFIG });

function fsu(...lines: string[]): CarrierReport[] {
  return parseCargoImp(["FSU/16", "020-12345675FRAJFK/T10K250.0", ...lines, ""].join("\n"));
}

function other(line: string): OtherStatusReport {
  const [report] = fsu(line);
  if (report?.kind !== "other-status") throw new Error(`not an other status: ${line}`);
  return report;
}

function planned(): ShipmentState {
  let state = applyReport(null, booking([TRUCK, FLIGHT]), ctx(NOW)).state;
  state = applyReport(state, fwb(), ctx(NOW)).state;
  return state;
}

describe("Cargo-IMP: status codes beyond the milestones", () => {
  it("reads the station form (FOH), the flight form (MAN) and the carrier form (TFD)", () => {
    expect(other("FOH/22NOV0700/FRA/T10K250.0/ACME FORWARDING")).toMatchObject({
      code: "FOH",
      station: "FRA",
      time: { month: 11, day: 22, hour: 7, minute: 0, dayOffset: 0 },
      flight: null,
      pieces: 10,
      source: "FSU/FOH",
      sourceAt: { report: { line: 3, path: null } },
    });
    expect(other("MAN/LH400/22NOV/FRAJFK/T10K250.0/S1325/A1310")).toMatchObject({
      code: "MAN",
      station: "FRA",
      time: { day: 22, hour: 13, minute: 10 },
      flight: { carrierCode: "LH", flightNumber: "400" },
    });
    expect(other("TFD/LH/22NOV0930/FRA/T4K100.0/LH")).toMatchObject({
      flight: { carrierCode: "LH", flightNumber: null },
      pieces: 4,
    });
    expect(other("AWR/LH400/22NOV1000/FRAJFK")).toMatchObject({ station: "JFK" });
  });

  it("skips a line of such a code without a time, station or existing date, as before", () => {
    expect(
      fsu("MAN/LH400/22NOV/FRAJFK/T10K250.0", "DEP/LH400/22NOV/FRAJFK/A1341").map((r) => r.source),
    ).toEqual(["FSU/DEP"]);
    expect(
      fsu("FOH/22NOV0700/T10", "CRC/31NOV1000/FRA", "CCD/22NOV2500/FRA", "RCS/22NOV0900/FRA"),
    ).toHaveLength(1);
  });

  it("still refuses a code the standard does not know, naming its line", () => {
    expect(() => fsu("XYZ/22NOV0700/FRA")).toThrow(MessageParseError);
  });

  it("refuses a kept status at a station without a known time zone, naming its line", () => {
    const report = other("FOH/22NOV0700/QQQ/T1");
    expect(() => assertPlaceable(report, NOW)).toThrow(/known IATA airport code/);
  });
});

describe("applyReport: other statuses are history only", () => {
  it("keeps them without changing the rendered route map, LastUpdate or events", () => {
    const before = planned();
    const result = applyReport(before, other("FOH/22NOV0700/FRA/T10"), ctx("2026-11-22T12:30:00Z"));
    expect(result.changed).toBe(true);
    expect(result.historyOnly).toBe(true);
    expect(result.events).toEqual([]);
    expect(result.state.lastUpdate).toBe(before.lastUpdate);
    expect(result.state.otherStatuses).toEqual([
      {
        code: "FOH",
        station: "FRA",
        atUtc: "2026-11-22T06:00:00Z",
        carrierCode: null,
        flightNumber: null,
        pieces: 10,
      },
    ]);
    expect(renderRouteMap(result.state, NOW)).toEqual(renderRouteMap(before, NOW));
    // The tracked milestones keep working afterwards.
    const after = applyReport(result.state, fsu("RCS/22NOV0715/FRA/T10")[0] as CarrierReport, ctx(NOW));
    expect(after.events.map((e) => e.name)).toContain("RCS");
    expect(after.state.otherStatuses).toHaveLength(1);
  });

  it("a repeat (same code, station and time) changes nothing; another code at the same time is kept", () => {
    const once = applyReport(planned(), other("FOH/22NOV0700/FRA/T10"), ctx(NOW)).state;
    const again = applyReport(once, other("FOH/22NOV0700/FRA/T9"), ctx(NOW));
    expect(again.changed).toBe(false);
    expect(again.state).toBe(once);
    const man = applyReport(once, other("MAN/LH400/22NOV0700/FRAJFK"), ctx(NOW));
    expect(man.changed).toBe(true);
    expect(man.state.otherStatuses?.map((o) => o.code)).toEqual(["FOH", "MAN"]);
  });

  it("keeps only the newest MAX_OTHER_STATUSES, in time order whatever the arrival order", () => {
    let state = planned();
    const times = Array.from({ length: MAX_OTHER_STATUSES + 5 }, (_, i) => i);
    for (const i of [...times].reverse()) {
      const hhmm = `${String(Math.floor(i / 60)).padStart(2, "0")}${String(i % 60).padStart(2, "0")}`;
      state = applyReport(state, other(`CRC/22NOV${hhmm}/FRA`), ctx(NOW)).state;
    }
    expect(state.otherStatuses).toHaveLength(MAX_OTHER_STATUSES);
    expect(state.otherStatuses?.[0]?.atUtc).toBe("2026-11-21T23:05:00Z");
    // One older than every kept one is dropped at once: no change.
    expect(applyReport(state, other("CRC/22NOV0000/FRA"), ctx(NOW)).changed).toBe(false);
  });

  it("is not kept for a shipment we do not track yet (creates no route map)", () => {
    const result = applyReport(null, other("FOH/22NOV0700/FRA/T10"), ctx(NOW));
    expect(result.changed).toBe(false);
  });

  it("reads a state stored before other statuses were kept as having none", () => {
    const { otherStatuses: _, ...old } = planned();
    expect(renderStatusMessages(old)).toEqual([]);
    const result = applyReport(old, other("TFD/LH/22NOV0930/FRA/T4"), ctx(NOW));
    expect(result.state.otherStatuses).toHaveLength(1);
  });

  it("renders StatusMessages newest first with the route map's date-time pair, optional members left out", () => {
    let state = planned();
    for (const line of ["FOH/22NOV0700/FRA/T10", "TFD/LH/22NOV0930/FRA/T4", "MAN/LH400/22NOV0815/FRAJFK"])
      state = applyReport(state, other(line), ctx(NOW)).state;
    expect(renderStatusMessages(state)).toEqual([
      {
        Code: "TFD",
        Station: "FRA",
        DateTime: { Utc: "2026-11-22T08:30:00Z", Local: expect.stringContaining("2026-11-22T09:30") },
        CarrierCode: "LH",
        Pieces: 4,
      },
      {
        Code: "MAN",
        Station: "FRA",
        DateTime: { Utc: "2026-11-22T07:15:00Z", Local: expect.stringContaining("2026-11-22T08:15") },
        FlightNumber: "400",
        CarrierCode: "LH",
      },
      {
        Code: "FOH",
        Station: "FRA",
        DateTime: { Utc: "2026-11-22T06:00:00Z", Local: expect.stringContaining("2026-11-22T07:00") },
        Pieces: 10,
      },
    ]);
  });
});
