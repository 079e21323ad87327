import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TriggerRefusedError } from "../../../functions/core/errors.ts";
import type { RouteMapSearchFilters } from "../../../functions/core/ports/route-maps.ts";
import type { RouteMap } from "../../../functions/core/route-map/spec-types.ts";
import {
  renderStatusRequest,
  type StatusRequest,
  statusRequestId,
} from "../../../functions/core/status-requests.ts";
import { getRouteMap } from "../../../functions/core/use-cases/get-route-map.ts";
import { parseSort, searchRouteMaps } from "../../../functions/core/use-cases/search-route-maps.ts";
import { OWNER_XTD_NOTE, triggerRouteMap } from "../../../functions/core/use-cases/trigger-route-map.ts";
import {
  AWB,
  BKD_TWO_LEGS,
  carrier020,
  EPOCH,
  FWB,
  harness,
  OTHER,
  OWNER,
  T0,
  withRouteMaps,
} from "./support.ts";

const trigger = (h: ReturnType<typeof harness>, reader = OWNER, isXtd = false, awb = AWB) =>
  triggerRouteMap(h, {
    reader,
    awb,
    agentCode: reader.agentCode,
    agentCass: reader.agentCass,
    isXtd,
    now: T0,
  });

describe("triggerRouteMap (sendsme)", () => {
  it("refuses a body agent that is not the caller's", async () => {
    const h = harness();
    carrier020(h);
    const error = await triggerRouteMap(h, {
      reader: OWNER,
      awb: AWB,
      agentCode: "7654321",
      agentCass: "0001",
      isXtd: false,
      now: T0,
    }).catch((e: unknown) => e);
    expect((error as TriggerRefusedError).kind).toBe("agent-mismatch");
    expect(h.published).toEqual([]);
  });

  it("refuses carriers that are not on the program's list", async () => {
    const h = harness();
    await expect(trigger(h)).rejects.toMatchObject({ kind: "carrier-not-participating" });
    carrier020(h, false, true);
    await expect(trigger(h)).rejects.toThrow(/quality-program participating carriers list/);
    carrier020(h, true, false);
    await expect(trigger(h, OWNER, true)).rejects.toThrow(/XTD participating carriers list/);
    expect(h.published).toEqual([]);
    expect(h.routeMaps.triggers.size).toBe(0);
  });

  it("records a QP trigger before the FWB as pending (Requested, grants nothing) and asks the carrier", async () => {
    const h = harness();
    carrier020(h);
    await h.imp(BKD_TWO_LEGS, T0);
    const result = await trigger(h, OTHER);
    expect(result).toEqual({ kind: "requested", awb: AWB, note: null });
    expect(h.published).toEqual([
      {
        requestId: statusRequestId(AWB, T0),
        carrierPrefix: "020",
        awb: AWB,
        origin: "HAJ",
        destination: "JFK",
        forwarderId: "FWD2",
        isXtd: false,
        requestedAt: T0,
      },
    ]);
    expect(renderStatusRequest(h.published[0] as StatusRequest, "cargo-imp").body).toBe(
      "FSR/1\n020-12345675HAJJFK\n",
    );
    // The FWB then names another agent: the pending trigger gave OTHER nothing.
    await h.imp(FWB, T0);
    await expect(getRouteMap(h, { awb: AWB, reader: OTHER, now: T0 })).rejects.toThrow(/not yours/);
  });

  it("answers the owner with the route map after the FWB and refuses a QP trigger by a non-owner", async () => {
    const h = harness();
    carrier020(h);
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, T0);
    const own = await trigger(h, OWNER);
    expect(own.kind).toBe("route-map");
    await expect(trigger(h, OTHER)).rejects.toMatchObject({ kind: "not-owner" });
  });

  it("grants an XTD reader access at once, or when the route map is created", async () => {
    const h = harness();
    carrier020(h);
    const before = await trigger(h, OTHER, true);
    expect(before.kind).toBe("requested");
    expect(renderStatusRequest(h.published[0] as StatusRequest, "cargo-imp").body).toBe(
      "FSR/1\n020-12345675\n",
    );
    await h.imp(BKD_TWO_LEGS, T0);
    await expect(getRouteMap(h, { awb: AWB, reader: OTHER, now: T0 })).resolves.toContain("12345675");
    expect((await h.routeMaps.get(AWB))?.xtdForwarders).toEqual(["FWD2"]);
    // Events written after the grant are addressed to the XTD reader too.
    await h.imp(FWB, T0);
    expect(h.routeMaps.events.find((e) => e.name === "FWB")?.audience.xtdForwarders).toEqual(["FWD2"]);

    const third = { ...OTHER, forwarderId: "FWD3" };
    const granted = await trigger(h, third, true);
    expect(granted.kind).toBe("route-map");
    expect((await h.routeMaps.get(AWB))?.xtdForwarders).toEqual(["FWD2", "FWD3"]);
    // A grant is not a route-map change: no new snapshot.
    expect(await h.routeMaps.snapshots(AWB, EPOCH)).toHaveLength(2);
  });

  it("addresses the creation event to an XTD reader that asked before the booking", async () => {
    const h = harness();
    carrier020(h);
    expect((await trigger(h, OTHER, true)).kind).toBe("requested");
    await h.imp(BKD_TWO_LEGS, T0);
    expect(h.routeMaps.events.map((e) => [e.name, e.eventStatus, e.audience.xtdForwarders])).toEqual([
      ["RMP", "Creation", ["FWD2"]],
    ]);
    // One read, one write: the early grant came with the read.
    expect(h.routeMaps.operations).toMatchObject({ getForChange: 1, write: 1 });
  });

  it("addresses the creation event to an XTD reader whose sendsme raced the booking", async () => {
    const h = harness();
    carrier020(h);
    let raced = false;
    const racing = withRouteMaps(h, {
      write: async (change) => {
        if (!raced) {
          raced = true;
          expect((await trigger(h, OTHER, true)).kind).toBe("requested");
        }
        return h.routeMaps.write(change);
      },
    });
    await racing.imp(BKD_TWO_LEGS, T0);
    // The creation lost once to the sendsme and was redone with its grant: one version, one event.
    expect(h.backoffs).toEqual([1]);
    expect(await h.routeMaps.get(AWB)).toMatchObject({ version: 1, xtdForwarders: ["FWD2"] });
    expect(h.routeMaps.events.map((e) => [e.name, e.eventStatus, e.audience.xtdForwarders])).toEqual([
      ["RMP", "Creation", ["FWD2"]],
    ]);
    await expect(getRouteMap(h, { awb: AWB, reader: OTHER, now: T0 })).resolves.toContain("12345675");
  });

  it("grants on the record an XTD sendsme that finds the route map created after it looked", async () => {
    const h = harness();
    carrier020(h);
    let raced = false;
    // The booking arrives after the sendsme read the AWB (nothing there) and before it records the trigger.
    const racing = withRouteMaps(h, {
      putTrigger: async (record, options) => {
        if (!raced) {
          raced = true;
          await h.imp(BKD_TWO_LEGS, T0);
        }
        return h.routeMaps.putTrigger(record, options);
      },
    });
    const result = await trigger(racing, OTHER, true);
    expect(result.kind).toBe("route-map");
    expect(await h.routeMaps.get(AWB)).toMatchObject({ version: 2, xtdForwarders: ["FWD2"] });
    expect(h.backoffs).toEqual([]);
    // Granted after the creation: no snapshot; the grant's one event is the RMP Creation the new reader
    // missed, addressed to it alone (owners learn late); events from now on include FWD2.
    expect(await h.routeMaps.snapshots(AWB, EPOCH)).toHaveLength(1);
    expect(h.routeMaps.events.map((e) => [e.name, e.eventStatus, e.audience.xtdForwarders])).toEqual([
      ["RMP", "Creation", []],
      ["RMP", "Creation", ["FWD2"]],
    ]);
    await h.imp(FWB, T0);
    expect(h.routeMaps.events.find((e) => e.name === "FWB")?.audience.xtdForwarders).toEqual(["FWD2"]);
    expect(await h.routeMaps.getForChange(AWB)).toMatchObject({ earlyXtd: null });
  });

  it("keeps recording an XTD sendsme that loses to creations which then fail, until one side holds it", async () => {
    const h = harness();
    carrier020(h);
    let losses = 3;
    // DynamoDB answers a transaction conflict with an in-flight creation like "route-map-exists".
    const contended = withRouteMaps(h, {
      putTrigger: async (record, options) =>
        losses-- > 0 ? "route-map-exists" : h.routeMaps.putTrigger(record, options),
    });
    expect((await trigger(contended, OTHER, true)).kind).toBe("requested");
    // The first refusal is taken at its word (granted on the record at once); the next ones wait.
    expect(h.backoffs).toEqual([2, 3]);
    expect(h.routeMaps.triggers.size).toBe(1);
    await h.imp(BKD_TWO_LEGS, T0);
    expect((await h.routeMaps.get(AWB))?.xtdForwarders).toEqual(["FWD2"]);
  });

  it("lets the owner use XTD but notes that it is not needed", async () => {
    const h = harness();
    carrier020(h);
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, T0);
    const result = await trigger(h, OWNER, true);
    expect(result).toMatchObject({ kind: "route-map", note: OWNER_XTD_NOTE });
  });
});

const NO_FILTERS: RouteMapSearchFilters = {
  creationDate: null,
  deliveryDate: null,
  receiptDate: null,
  airlinePrefix: null,
  awbNumber: null,
  origin: null,
  destination: null,
  statuses: null,
};

/** Five route maps owned by OWNER created a day apart, one owned by OTHER, one XTD-granted to OWNER. */
async function fleet() {
  const h = harness();
  carrier020(h);
  const serials = ["10000001", "10000012", "10000023", "10000034", "10000045"];
  const origins = ["FRA", "MUC", "FRA", "HAM", "MUC"];
  for (const [i, serial] of serials.entries()) {
    const at = new Date(Date.parse("2026-03-01T08:00:00Z") + i * 86_400_000).toISOString();
    const origin = origins[i];
    await h.imp(`FWB/16\n020-${serial}${origin}JFK/T1K10\nAGT//1234567/0001\n`, at);
    if (i % 2 === 0)
      await h.imp(`FSU/13\n020-${serial}${origin}JFK/T1\nRCS/0${i + 1}MAR0900/${origin}/T1\n`, at);
  }
  await h.imp("FWB/16\n020-20000002FRAJFK/T1K10\nAGT//7654321/0042\n", "2026-03-02T08:00:00Z");
  await h.imp("FWB/16\n020-30000003FRAORD/T1K10\nAGT//7654321/0042\n", "2026-03-03T08:00:00Z");
  await trigger(h, OWNER, true, { prefix: "020", serial: "30000003" });
  return h;
}

const search = async (
  h: ReturnType<typeof harness>,
  filters: Partial<RouteMapSearchFilters> = {},
  sort = "",
  page = 1,
  pageSize = 100,
) => {
  const parsed = parseSort(sort);
  if (!parsed.ok) throw new Error(parsed.message);
  return JSON.parse(
    await searchRouteMaps(h, {
      reader: OWNER,
      filters: { ...NO_FILTERS, ...filters },
      sort: parsed.keys,
      page,
      pageSize,
      now: "2026-03-10T00:00:00Z",
    }),
  ) as { TotalItems: number; TotalPages: number; PageSize: number; CurrentPage: number; Items: RouteMap[] };
};
const serialsOf = (result: { Items: RouteMap[] }) => result.Items.map((m) => m.Shipment.AwbNumber);

describe("searchRouteMaps", () => {
  it("finds what the caller owns or was granted, newest first by default", async () => {
    const h = await fleet();
    const all = await search(h);
    expect(all).toMatchObject({ TotalItems: 6, TotalPages: 1, PageSize: 100, CurrentPage: 1 });
    // 10000023 and 30000003 were created at the same instant: sorted by CreationDate alone, pages follow
    // the index's key (CreationDate, AWB), so the AWB breaks the tie in the same direction.
    expect(serialsOf(all)).toEqual(["10000045", "10000034", "30000003", "10000023", "10000012", "10000001"]);
  });

  it("filters by creation range, origin, destination, status and receipt", async () => {
    const h = await fleet();
    const range = { from: "2026-03-02T00:00:00Z", to: "2026-03-04T23:59:59Z" };
    expect(serialsOf(await search(h, { creationDate: range }))).toEqual([
      "10000034",
      "30000003",
      "10000023",
      "10000012",
    ]);
    expect(serialsOf(await search(h, { origin: "MUC" }))).toEqual(["10000045", "10000012"]);
    expect(serialsOf(await search(h, { destination: "ORD" }))).toEqual(["30000003"]);
    expect(serialsOf(await search(h, { statuses: ["Accepted"] }))).toEqual([
      "10000045",
      "10000023",
      "10000001",
    ]);
    expect(serialsOf(await search(h, { receiptDate: { from: "2026-03-03T00:00:00Z", to: null } }))).toEqual([
      "10000045",
      "10000023",
    ]);
    expect(serialsOf(await search(h, { awbNumber: "10000012", airlinePrefix: "020" }))).toEqual(["10000012"]);
  });

  it("sorts by several keys and pages 1-based", async () => {
    const h = await fleet();
    // 10000023 and 30000003 were created at the same instant: the AWB breaks the tie.
    expect(serialsOf(await search(h, {}, "+Origin -CreationDate"))).toEqual([
      "10000023",
      "30000003",
      "10000001",
      "10000034",
      "10000045",
      "10000012",
    ]);
    const page2 = await search(h, {}, "+CreationDate", 2, 4);
    expect(page2).toMatchObject({ TotalItems: 6, TotalPages: 2, PageSize: 4, CurrentPage: 2 });
    expect(serialsOf(page2)).toEqual(["10000034", "10000045"]);
    expect(serialsOf(await search(h, {}, "", 3, 4))).toEqual([]);
    expect(parseSort("-Bogus")).toMatchObject({ ok: false });
  });

  it("reads through the reader index only: the DynamoDB adapter has no Scan", async () => {
    const h = await fleet();
    await search(h);
    // One bounded index Query per reader key (agent, forwarder id): 6 matches end within the first.
    expect(h.search.calls.map((c) => c.readerKey)).toEqual(["AGT#1234567#0001", "FWD#ACMECARGO"]);
    const adapters = join(import.meta.dirname, "../../../functions/adapters");
    // Every module of the route-map adapter (repository, its reads and writes, search): none scans.
    const files = readdirSync(adapters).filter((file) => file.startsWith("route-map-"));
    expect(files).toEqual(expect.arrayContaining(["route-map-repository.ts", "route-map-search.ts"]));
    for (const file of files) {
      const source = readFileSync(join(adapters, file), "utf8");
      expect(source).not.toMatch(/ScanCommand|\bScan\(|new Scan/);
    }
    expect(readFileSync(join(adapters, "route-map-search.ts"), "utf8")).toContain("IndexName: READER_INDEX");
  });
});
