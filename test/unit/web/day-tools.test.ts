/**
 * The app's tools for a forwarder's day, as pure logic: the AWB lookup, what a shipment expects next,
 * and the CSV export of a whole list (every page, progress, cancel, RFC 4180 quoting).
 */
import { describe, expect, it } from "vitest";
import { lookupAwb } from "../../../web/src/lib/awb-lookup.ts";
import { readAllPages } from "../../../web/src/lib/export-pages.ts";
import { nextMilestone, type RouteMap, type RouteMapSearchResult } from "../../../web/src/lib/route-map.ts";
import { CSV_COLUMNS, csvField, csvFileName, shipmentsCsv } from "../../../web/src/lib/shipments-csv.ts";
import { milestone, pair, routeMap } from "./fixtures.ts";

describe("AWB lookup", () => {
  it("takes an AWB typed or pasted with or without its dash, or spaced", () => {
    for (const typed of ["020-12345675", "02012345675", " 020 1234 5675 ", "020-1234 5675\n"])
      expect(lookupAwb(typed), typed).toEqual({ ok: true, awb: "02012345675" });
  });

  it("says what is wrong, in words: nothing typed, not 11 digits, a wrong check digit", () => {
    expect(lookupAwb("  ")).toEqual({ ok: false, message: "Type an AWB, e.g. 020-12345675." });
    expect(lookupAwb("020-1234567")).toEqual({
      ok: false,
      message: "020-1234567 is not an AWB: type 11 digits, e.g. 020-12345675.",
    });
    expect(lookupAwb("LH400")).toMatchObject({ ok: false });
    expect(lookupAwb("020-12345670")).toEqual({
      ok: false,
      message: "020-12345670 is not a valid AWB: its last digit should be 5.",
    });
  });
});

describe("the next milestone", () => {
  it("is the first not reported, in the order they happen, with its station, plan and leg", () => {
    // RCS and the truck's DEP are reported; LH400's DEP at FRA is next.
    expect(nextMilestone(routeMap())).toMatchObject({
      label: "Departed (DEP)",
      station: "FRA",
      planned: pair("2026-03-14T14:25:00Z", "2026-03-14T15:25:00"),
      leg: "LH400 FRA → JFK",
    });
  });

  it("skips LAT (a deadline, never reported), keeps a Missing one, and is none once all is reported", () => {
    const map = routeMap();
    for (const flight of map.MilestonePlan.RoutingCycle.Flight)
      for (const m of flight.Milestone) m.ActualDateTime = null;
    map.MilestonePlan.OriginCycle.Milestone = [
      milestone("LAT", "HAJ", "Ok", pair("2026-03-14T07:00:00Z", "2026-03-14T08:00:00")),
      milestone("RCS", "HAJ", "Missing", pair("2026-03-14T08:00:00Z", "2026-03-14T09:00:00")),
    ];
    expect(nextMilestone(map)).toMatchObject({ label: "Accepted (RCS)", station: "HAJ", leg: null });
    expect(nextMilestone(map)?.milestone.Status).toBe("Missing");

    // Behind the last one reported is behind the shipment: an RCS never sent is not what comes next.
    const moved = structuredClone(map);
    const truckDeparture = moved.MilestonePlan.RoutingCycle.Flight[0]?.Milestone[0];
    if (!truckDeparture) throw new Error("fixture has no truck DEP");
    truckDeparture.ActualDateTime = pair("2026-03-14T10:50:00Z", "2026-03-14T11:50:00");
    expect(nextMilestone(moved)).toMatchObject({ label: "Departed (DEP)", station: "FRA" });

    const done: RouteMap = structuredClone(routeMap());
    for (const flight of done.MilestonePlan.RoutingCycle.Flight)
      for (const m of flight.Milestone) m.ActualDateTime = m.PlannedDateTime;
    for (const m of done.MilestonePlan.DestinationCycle.Milestone) m.ActualDateTime = m.PlannedDateTime;
    expect(nextMilestone(done)).toBeNull();
    expect(nextMilestone({ ...routeMap(), Status: "Cancelled" })).toBeNull();
  });
});

describe("CSV", () => {
  it("quotes what needs it and defuses formulas", () => {
    expect(csvField("FRA")).toBe("FRA");
    expect(csvField("LH400, Truck LH9350")).toBe('"LH400, Truck LH9350"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-1")).toBe("'-1");
  });

  it("one header, one row per shipment, CRLF line ends", () => {
    const csv = shipmentsCsv([routeMap()]);
    const lines = csv.split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines[1]).toBe(
      [
        "020-12345675",
        "In transit",
        "HAJ",
        "JFK",
        '"Truck LH9350, LH400"',
        "1 Ko",
        "Departed (DEP)",
        "FRA",
        "2026-03-14T14:25:00Z",
        "2026-03-14T15:25:00",
        "2026-03-13T08:00:00Z",
        "2026-03-14T10:50:00Z",
      ].join(","),
    );
    expect(csvFileName(new Date("2026-03-14T23:54:39Z"))).toBe("shipments-2026-03-14T2354Z.csv");
  });

  it("reads every page of the list, saying how far it is, and stops when cancelled", async () => {
    const pages = [1, 2, 3].map(
      (n): RouteMapSearchResult => ({
        TotalItems: 5,
        TotalItemsExact: true,
        NextCursor: null,
        TotalPages: 3,
        PageSize: 2,
        CurrentPage: n,
        Items: n === 3 ? [routeMap()] : [routeMap(), routeMap()],
      }),
    );
    const asked: number[] = [];
    const seen: unknown[] = [];
    const read = (page: number) => {
      asked.push(page);
      return Promise.resolve(pages[page - 1] as RouteMapSearchResult);
    };
    const all = await readAllPages(
      read,
      false,
      (progress) => seen.push(progress),
      () => false,
    );
    expect(all).toHaveLength(5);
    expect(asked).toEqual([1, 2, 3]);
    expect(seen).toEqual([
      { page: 1, pages: 3, read: 2, total: 5 },
      { page: 2, pages: 3, read: 4, total: 5 },
      { page: 3, pages: 3, read: 5, total: 5 },
    ]);

    asked.length = 0;
    const cancelled = await readAllPages(
      read,
      false,
      () => {},
      () => asked.length >= 2,
    );
    expect(cancelled).toBeNull();
    expect(asked).toEqual([1, 2]);

    // The Exceptions view exports its exceptions only (the fixture's map has a Ko).
    const onPlan = structuredClone(routeMap());
    onPlan.MilestonePlan.OriginCycle.Milestone = [];
    const mixed = () =>
      Promise.resolve<RouteMapSearchResult>({
        TotalItems: 2,
        TotalItemsExact: true,
        NextCursor: null,
        TotalPages: 1,
        PageSize: 2,
        CurrentPage: 1,
        Items: [routeMap(), onPlan],
      });
    expect(
      await readAllPages(
        mixed,
        true,
        () => {},
        () => false,
      ),
    ).toHaveLength(1);
  });
});
