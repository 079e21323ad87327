/**
 * sendsme (quality program and XTD) and route-map search through the real local runner, with the
 * status requests checked in the carrier's request log (support) and the XTD usage ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMap } from "../../functions/core/route-map/spec-types.ts";
import { RouteMapSchema, RouteMapSearchResultSchema } from "../../functions/http/schemas/route-maps.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { expectExactKeys, HOUR, local, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const stranger = tokens.forwarder("FWD2", "7654321", "0042");
const carrier = tokens.carrier("020");
const SENDSME = "/ffw/service/routemap/sendsme";

const sendsme = (token: string, body: Record<string, unknown>) =>
  call(stack.url, "POST", SENDSME, { token, json: body });
const ownerBody = (serial: string, extra: Record<string, unknown> = {}) => ({
  AirlinePrefix: "020",
  AwbNumber: serial,
  AgentCode: "1234567",
  AgentCass: "0001",
  ...extra,
});
const strangerBody = (serial: string, extra: Record<string, unknown> = {}) => ({
  ...ownerBody(serial, extra),
  AgentCode: "7654321",
  AgentCass: "0042",
});

/** A booked and FWB'd shipment owned by agent 1234567/0001, flying tomorrow. */
async function ship(serial: string, origin = "HAJ") {
  const std = local(origin, minuteNow() + 24 * HOUR);
  const sta = local("JFK", minuteNow() + 32 * HOUR);
  const body =
    `FSU/13\n020-${serial}${origin}JFK/T5K100\nBKD/LH400/${std.ddmmm}/${origin}JFK/T5K100/S${std.hhmm}/S${sta.hhmm}\n\n` +
    `FWB/16\n020-${serial}${origin}JFK/T5K100\nAGT//1234567/0001\n`;
  const response = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    body,
    contentType: "text/plain",
  });
  expect(response.status).toBe(200);
}

/** Carrier 020's status-request log once every entry has settled (delivered or parked). */
async function settledRequestLog(): Promise<Array<Record<string, unknown>>> {
  for (let round = 0; ; round++) {
    const log = await call(stack.url, "GET", "/support/carriers/020/requests", { token: tokens.support() });
    expect(log.status).toBe(200);
    const items = (log.body as { Items: Array<Record<string, unknown>> }).Items;
    if (items.every((item) => item.Status === "parked" || item.Status === "delivered") || round >= 40)
      return items;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  stack = await startRunner();
  for (const [prefix, settings] of [
    ["020", { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true }],
    ["176", { Name: "Emirates SkyCargo", QualityProgram: false, Xtd: false }],
  ] as const) {
    const put = await call(stack.url, "PUT", `/support/carriers/${prefix}`, {
      token: tokens.support(),
      json: settings,
    });
    expect(put.status).toBe(200);
  }
});

afterAll(async () => {
  await stack?.stop();
});

describe("sendsme refusals", () => {
  it("403 when the body's agent is not the caller's", async () => {
    const response = await sendsme(owner, strangerBody("12345675"));
    expect(response.status).toBe(403);
    expect((response.body as { type: string }).type).toContain("agent-mismatch");
  });

  it("422 naming the list when the carrier does not participate", async () => {
    const qp = await sendsme(owner, { ...ownerBody("12345675"), AirlinePrefix: "176" });
    expect(qp.status).toBe(422);
    expect((qp.body as { detail: string }).detail).toContain("quality-program participating carriers list");
    const xtd = await sendsme(owner, { ...ownerBody("12345675", { IsXTD: true }), AirlinePrefix: "176" });
    expect(xtd.status).toBe(422);
    expect((xtd.body as { detail: string }).detail).toContain("XTD participating carriers list");
    const unknown = await sendsme(owner, { ...ownerBody("12345675"), AirlinePrefix: "057" });
    expect(unknown.status).toBe(422);
  });

  it("400 naming the expected check digit, and for malformed fields", async () => {
    const response = await sendsme(owner, ownerBody("12345670"));
    expect(response.status).toBe(400);
    const errors = (response.body as { errors: Array<{ field: string; message: string }> }).errors;
    expect(errors).toEqual([{ field: "AwbNumber", message: expect.stringContaining("must be 5") }]);
    // An unknown member (IsXtd) is ignored (tolerant reader); a wrong type is not.
    const bad = await sendsme(owner, { ...ownerBody("12345675"), AgentCass: "1", IsXTD: "yes", IsXtd: true });
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field).sort()).toEqual([
      "AgentCass",
      "IsXTD",
    ]);
  });
});

describe("sendsme", () => {
  it("answers Requested before a route map exists, then the route map to its owner", async () => {
    const before = await sendsme(owner, ownerBody("12345675"));
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ AwbNumber: "020-12345675", Status: "Requested" });
    await ship("12345675");
    const after = await sendsme(owner, ownerBody("12345675"));
    expect(after.status).toBe(200);
    expectExactKeys(after.body, RouteMapSchema as never);
    expect((after.body as RouteMap).Shipment.AwbNumber).toBe("12345675");
  });

  it("refuses a quality-program trigger by a non-owner with 403", async () => {
    const response = await sendsme(stranger, strangerBody("12345675"));
    expect(response.status).toBe(403);
    expect((response.body as { type: string; detail: string }).type).toContain("not-owner");
  });

  it("gives an XTD caller read access at once", async () => {
    expect(
      (await call(stack.url, "GET", "/ffw/service/routemap/02012345675", { token: stranger })).status,
    ).toBe(404);
    const xtd = await sendsme(stranger, strangerBody("12345675", { IsXTD: true }));
    expect(xtd.status).toBe(200);
    expect((xtd.body as RouteMap).Shipment.AwbNumber).toBe("12345675");
    expect(xtd.headers.get("x-route-map-note")).toBeNull();
    expect(
      (await call(stack.url, "GET", "/ffw/service/routemap/02012345675", { token: stranger })).status,
    ).toBe(200);
  });

  it("applies an XTD grant made before the route map existed", async () => {
    const before = await sendsme(stranger, strangerBody("12345686", { IsXTD: true }));
    expect(before.body).toEqual({ AwbNumber: "020-12345686", Status: "Requested" });
    await ship("12345686");
    expect(
      (await call(stack.url, "GET", "/ffw/service/routemap/02012345686/history", { token: stranger })).status,
    ).toBe(200);
  });

  it("lets the owner use XTD with a note in x-route-map-note", async () => {
    const response = await sendsme(owner, ownerBody("12345675", { IsXTD: true }));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-route-map-note")).toContain("not needed");
    expectExactKeys(response.body, RouteMapSchema as never);
  });

  it("asks the carrier once per AWB and window; without a channel the request is parked, replayable", async () => {
    // Accepted: owner QP (pending), owner QP, stranger XTD, owner XTD on 12345675 (one request), and
    // stranger XTD (pending) on 12345686. Carrier 020 has no StatusRequests channel set.
    const items = await settledRequestLog();
    expect(items.map((item) => [item.AwbNumber, item.ForwarderIdentifier, item.IsXTD]).sort()).toEqual([
      ["020-12345675", "ACMECARGO", false],
      ["020-12345686", "FWD2", true],
    ]);
    for (const item of items) {
      expect(item.Status).toBe("parked");
      expect(JSON.stringify(item.Attempts)).toContain("has no StatusRequests channel");
    }
    const month = new Date().toISOString().slice(0, 7);
    const usage = await call(stack.url, "GET", `/ffw/service/routemap/usage?month=${month}`, {
      token: stranger,
    });
    expect(usage.body).toMatchObject({ ForwarderIdentifier: "FWD2", XtdRequests: 2 });
  });
});

describe("route-map search", () => {
  const search = (token: string, json: unknown, query = "") =>
    call(stack.url, "POST", `/ffw/service/routemap${query}`, { token, json });

  it("filters, sorts and pages the caller's route maps", async () => {
    await ship("12345690", "MUC");
    const all = await search(owner, { Sort: "+Origin -CreationDate" });
    expect(all.status).toBe(200);
    expectExactKeys(all.body, RouteMapSearchResultSchema as never);
    const body = all.body as { TotalItems: number; Items: RouteMap[] };
    expect(body.TotalItems).toBe(3);
    expect(body.Items.map((m) => m.Shipment.Routing.Origin)).toEqual(["HAJ", "HAJ", "MUC"]);

    const muc = await search(owner, { Origin: "MUC", Status: ["Booked"], AirlinePrefix: "020" });
    expect((muc.body as { Items: RouteMap[] }).Items.map((m) => m.Shipment.AwbNumber)).toEqual(["12345690"]);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const created = await search(owner, { CreationDate: { From: day(-1), To: day(1) } });
    expect((created.body as { TotalItems: number }).TotalItems).toBe(3);
    const older = await search(owner, { CreationDate: { To: day(-1) } });
    expect((older.body as { TotalItems: number }).TotalItems).toBe(0);
    const none = await search(owner, { ReceiptDate: { From: "2020-01-01" } });
    expect((none.body as { TotalItems: number }).TotalItems).toBe(0);

    const page = await search(owner, { Sort: "AwbNumber" }, "?CurrentPage=2&PageSize=2");
    expect(page.body).toMatchObject({ TotalItems: 3, TotalPages: 2, PageSize: 2, CurrentPage: 2 });
    expect((page.body as { Items: RouteMap[] }).Items.map((m) => m.Shipment.AwbNumber)).toEqual(["12345690"]);
  });

  it("shows a forwarder only what it may read (XTD grants included)", async () => {
    const response = await search(stranger, {}, "?PageSize=500");
    const body = response.body as { TotalItems: number; Items: RouteMap[] };
    expect(body.Items.map((m) => m.Shipment.AwbNumber).sort()).toEqual(["12345675", "12345686"]);
  });

  it("answers 400 for a bad sort, paging or filter", async () => {
    expect((await search(owner, { Sort: "-Bogus" })).status).toBe(400);
    expect((await search(owner, {}, "?PageSize=501")).status).toBe(400);
    expect((await search(owner, {}, "?CurrentPage=0")).status).toBe(400);
    expect((await search(owner, { Status: ["Flying"] })).status).toBe(400);
    expect((await search(owner, { CreationDate: { From: "yesterday" } })).status).toBe(400);
  });
});
