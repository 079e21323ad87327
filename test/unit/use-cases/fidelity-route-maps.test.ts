/**
 * Issue 11 in the core: readers that learn late get one RMP Creation addressed to them alone; a
 * flight keeps its booked volume; reversed search ranges are refused; history and search pages are
 * bounded by construction below Lambda's 6 MB response limit.
 */
import { describe, expect, it } from "vitest";
import type { RouteMap } from "../../../functions/core/route-map/spec-types.ts";
import { getRouteMap } from "../../../functions/core/use-cases/get-route-map.ts";
import { getRouteMapHistory } from "../../../functions/core/use-cases/get-route-map-history.ts";
import { parseSort, searchRouteMaps } from "../../../functions/core/use-cases/search-route-maps.ts";
import {
  MAX_ROUTE_MAP_JSON_BYTES,
  MAX_ROUTE_MAPS_PER_PAGE,
} from "../../../functions/core/use-cases/shared/read-access.ts";
import { triggerRouteMap } from "../../../functions/core/use-cases/trigger-route-map.ts";
import { ProblemError } from "../../../functions/http/problems.ts";
import { searchOf } from "../../../functions/http/request-mapping.ts";
import { AWB, BKD_TWO_LEGS, carrier020, FWB, fsu, harness, OTHER, OWNER, T0 } from "./support.ts";

const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;
const OWNER_AGENT = { code: OWNER.agentCode, cass: OWNER.agentCass };
const xtd = (h: ReturnType<typeof harness>, reader = OTHER) =>
  triggerRouteMap(h, {
    reader,
    awb: AWB,
    agentCode: reader.agentCode,
    agentCass: reader.agentCass,
    isXtd: true,
    now: T0,
  });
const rmps = (h: ReturnType<typeof harness>) =>
  h.routeMaps.events
    .filter((e) => e.name === "RMP")
    .map((e) => [e.eventStatus, e.audience.ownerAgent, e.audience.xtdForwarders]);

describe("owners learn late: one RMP Creation for a new reader", () => {
  it("the owner an FWB names after the booking gets its own Creation; a repeated FWB sends none", async () => {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, T0);
    await h.imp(FWB, T0);
    expect(rmps(h)).toEqual([
      ["Creation", null, []],
      ["Creation", OWNER_AGENT, []],
    ]);
    const late = h.routeMaps.events.at(-1);
    expect(late).toMatchObject({ flight: { carrierCode: "LH", flightNumber: "9350" }, isRM: true });
  });

  it("no extra Creation when the owner is known before the plan, or while the route map is Simple", async () => {
    const h = harness();
    await h.imp(FWB, T0);
    await h.imp(fsu("RCS/13MAR0900/HAJ/T10"), T0);
    await h.imp(BKD_TWO_LEGS, T0);
    expect(rmps(h)).toEqual([["Creation", OWNER_AGENT, []]]);
  });

  it("an FWB naming another agent gives the new owner its Creation", async () => {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, T0);
    await h.imp(FWB.replace("AGT//1234567/0001", "AGT//7654321/0042"), T0);
    expect(rmps(h).at(-1)).toEqual(["Creation", { code: "7654321", cass: "0042" }, []]);
  });

  it("an XTD grant on a planned route map addresses one Creation to the new forwarder alone", async () => {
    const h = harness();
    carrier020(h);
    await h.imp(`${BKD_TWO_LEGS}${FWB}`, T0);
    await xtd(h);
    await xtd(h);
    expect(rmps(h)).toEqual([
      ["Creation", null, []],
      ["Creation", OWNER_AGENT, []],
      ["Creation", null, ["FWD2"]],
    ]);
    // The owner asking for XTD on its own AWB heard its creation already.
    await xtd(h, OWNER);
    expect(rmps(h)).toHaveLength(3);
    await expect(getRouteMap(h, { awb: AWB, reader: OTHER, now: T0 })).resolves.toContain("12345675");
  });
});

describe("no invented values in the route map", () => {
  it("a DEP without volume keeps the flight's booked VolumeCode and Volume", async () => {
    const h = harness();
    await h.imp("FFR/8\n020-12345675HAJJFK/T10K250.0MC1.5/PARTS\nLH400/14MAR/HAJJFK/NN/S1325/S1555\n", T0);
    await h.imp(FWB, T0);
    await h.imp(fsu("DEP/LH400/14MAR/HAJJFK/T10K250.0/A1341"), "2026-03-14T13:00:00.000Z");
    const map = JSON.parse(
      await getRouteMap(h, { awb: AWB, reader: OWNER, now: "2026-03-14T13:00:00.000Z" }),
    ) as RouteMap;
    expect(map.MilestonePlan.RoutingCycle.Flight[0]?.Total).toEqual({
      NoOfPieces: 10,
      WeightCode: "K",
      Weight: 250,
      VolumeCode: "CM",
      Volume: 1.5,
    });
  });
});

describe("search ranges", () => {
  it("refuses a To before its From with a 400 naming the field", () => {
    const paging = { page: 1, pageSize: 100 };
    for (const [name, body] of [
      ["CreationDate.To", { CreationDate: { From: "2026-03-15", To: "2026-03-14" } }],
      ["ReceiptDate.To", { ReceiptDate: { From: "2026-03-15T10:00:00Z", To: "2026-03-15T09:00:00Z" } }],
    ] as const) {
      try {
        searchOf(body, paging);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ProblemError);
        expect((error as ProblemError).status).toBe(400);
        expect((error as ProblemError).errors.map((e) => e.field)).toEqual([name]);
      }
    }
    // One day (From = To) is a valid range.
    expect(
      searchOf({ CreationDate: { From: "2026-03-15", To: "2026-03-15" } }, paging).filters.creationDate,
    ).toEqual({ from: "2026-03-15T00:00:00Z", to: "2026-03-15T23:59:59Z" });
  });
});

const STATIONS = ["HAJ", "MUC", "CDG", "AMS", "LHR", "MAD", "FCO", "VIE", "ZRH", "CPH", "ARN", "HEL", "JFK"];
const check = (head: number) => `${head}${head % 7}`;

/** A 12-leg booking (the most an itinerary may have) with the largest quantities Cargo-IMP carries. */
function twelveLegs(serial: string): string {
  const legs = STATIONS.slice(0, 12).map(
    (origin, i) => `LH${1000 + i}/14MAR/${origin}${STATIONS[i + 1]}/NN/S0${i % 10}00/S0${i % 10}50`,
  );
  return `FFR/8\n020-${serial}HAJJFK/T9999K99999.9MC999.99/PARTS\n${legs.join("\n")}\n\nFWB/16\n020-${serial}HAJJFK/T9999K99999.9\nAGT//1234567/0001\n`;
}

/** Every milestone of those 12 legs reported. */
function everything(serial: string): string {
  const lines = [`FSU/13`, `020-${serial}HAJJFK/T9999K99999.9`, `RCS/14MAR0001/HAJ/T9999K99999.9`];
  for (let i = 0; i < 12; i++) {
    const [from, to] = [STATIONS[i], STATIONS[i + 1]];
    lines.push(`DEP/LH${1000 + i}/14MAR/${from}${to}/T9999K99999.9/A0${i % 10}05`);
    lines.push(`ARR/LH${1000 + i}/14MAR0${i % 10}55/${to}/T9999K99999.9`);
    lines.push(`RCF/LH${1000 + i}/14MAR0${i % 10}58/${to}/T9999K99999.9`);
  }
  lines.push("NFD/14MAR2300/JFK/T9999K99999.9", "AWD/14MAR2310/JFK/T9999K99999.9");
  lines.push("DLV/14MAR2320/JFK/T9999K99999.9/ACMELOGISTICS");
  return `${lines.join("\n")}\n`;
}

describe("responses bounded by construction", () => {
  it("a fully reported 12-leg route map stays below MAX_ROUTE_MAP_JSON_BYTES; a full page below 6 MB", async () => {
    const h = harness();
    const serial = check(1234567);
    await h.imp(twelveLegs(serial), T0);
    await h.imp(everything(serial), "2026-03-15T00:00:00.000Z");
    const map = JSON.parse(
      await getRouteMap(h, { awb: AWB, reader: OWNER, now: "2027-03-15T00:00:00.000Z" }),
    ) as RouteMap;
    expect(map.MilestonePlan.RoutingCycle.Flight).toHaveLength(12);
    expect(map.MilestonePlan.DestinationCycle.Milestone.every((m) => m.ActualDateTime !== null)).toBe(true);
    const bytes = Buffer.byteLength(JSON.stringify(map));
    expect(bytes).toBeLessThan(MAX_ROUTE_MAP_JSON_BYTES);
    // A history page: the current map and MAX snapshots, each with its SnapshotDate (~100 bytes).
    expect((MAX_ROUTE_MAPS_PER_PAGE + 1) * (MAX_ROUTE_MAP_JSON_BYTES + 200)).toBeLessThan(
      LAMBDA_RESPONSE_LIMIT * 0.8,
    );
  });

  it("the widest search page of 12-leg route maps is capped and fits", async () => {
    const h = harness();
    for (let i = 0; i < MAX_ROUTE_MAPS_PER_PAGE + 5; i++) await h.imp(twelveLegs(check(2000000 + i)), T0);
    const sort = parseSort("");
    if (!sort.ok) throw new Error(sort.message);
    const text = await searchRouteMaps(h, {
      reader: OWNER,
      filters: {
        creationDate: null,
        deliveryDate: null,
        receiptDate: null,
        airlinePrefix: null,
        awbNumber: null,
        origin: null,
        destination: null,
        statuses: null,
      },
      sort: sort.keys,
      page: 1,
      pageSize: 500,
      now: T0,
    });
    const page = JSON.parse(text) as {
      TotalItems: number;
      TotalPages: number;
      PageSize: number;
      Items: unknown[];
    };
    expect(page).toMatchObject({ TotalItems: MAX_ROUTE_MAPS_PER_PAGE + 5, TotalPages: 2, PageSize: 150 });
    expect(page.Items).toHaveLength(MAX_ROUTE_MAPS_PER_PAGE);
    expect(Buffer.byteLength(text)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });

  it("pages the history newest first, the page size capped", async () => {
    const h = harness();
    await h.imp(twelveLegs(check(1234567)), T0);
    for (let i = 0; i < MAX_ROUTE_MAPS_PER_PAGE + 10; i++) {
      const minute = String(i % 60).padStart(2, "0");
      const hour = String(Math.floor(i / 60)).padStart(2, "0");
      await h.imp(fsu(`RCS/13MAR${hour}${minute}/HAJ/T9999`), T0);
    }
    const total = MAX_ROUTE_MAPS_PER_PAGE + 12;
    const page = (n: number, size: number) =>
      getRouteMapHistory(h, { awb: AWB, reader: OWNER, now: T0, page: n, pageSize: size });
    const widest = await page(1, 500);
    expect(widest).toMatchObject({ totalItems: total, totalPages: 2, currentPage: 1, pageSize: 150 });
    expect((JSON.parse(widest.json) as { Snapshots: unknown[] }).Snapshots).toHaveLength(150);
    expect(Buffer.byteLength(widest.json)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    const last = await page(2, 150);
    const snapshots = (JSON.parse(last.json) as { Snapshots: Array<{ RouteMap: RouteMap }> }).Snapshots;
    expect(snapshots).toHaveLength(total - 150);
    // Newest first: the last page ends with the creation (before the FWB named an owner).
    expect(snapshots.at(-1)?.RouteMap.Shipment.AwbNumber).toBe("12345675");
  });
});
