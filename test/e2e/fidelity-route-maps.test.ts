/**
 * Issue 11, route maps through the real local runner: owners that learn late get one RMP Creation
 * (FWB after the booking, XTD grant, a quality-program claim confirmed by the FWB), no invented values
 * (flight null without a booking, booked volume kept, a rule's unsent Destination null), a reversed
 * search range is a 400 naming the field, and history and search pages stay far below Lambda's 6 MB.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMap } from "../../functions/core/route-map/spec-types.ts";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
let receiver: Receiver;
const owner = tokens.forwarder("FID-OWNER", "3000003", "0003", "HAJ");
const other = tokens.forwarder("FID-OTHER", "4000004", "0004", "MUC");
const carrier = tokens.carrier("020");
const WEBHOOKS = "/ffw/service/routemap/webhook";
const RULES = "/ffw/service/routemap/eventconfignotifier";
const SENDSME = "/ffw/service/routemap/sendsme";
const LIMIT_BYTES = 6 * 1024 * 1024;

interface Payload {
  AirWaybillNumber: string;
  Event: string;
  EventStatus: string;
  CarrierCode: string | null;
  FlightNumber: string | null;
  ForwarderIdentifier: string;
  isRM: boolean;
}

const post = async (body: string) => {
  const response = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    body,
    contentType: "text/plain",
  });
  expect(response.status, response.text).toBe(200);
  return response;
};
const booking = (serial: string) => {
  const std = local("HAJ", minuteNow() + 30 * HOUR);
  const sta = local("JFK", minuteNow() + 38 * HOUR);
  return `FSU/13\n020-${serial}HAJJFK/T5K100\nBKD/LH400/${std.ddmmm}/HAJJFK/T5K100/S${std.hhmm}/S${sta.hhmm}\n`;
};
const fwb = (serial: string, agent: string, cass: string) =>
  `FWB/16\n020-${serial}HAJJFK/T5K100\nAGT//${agent}/${cass}\n`;
const sendsme = (token: string, serial: string, agent: string, cass: string, isXtd: boolean) =>
  call(stack.url, "POST", SENDSME, {
    token,
    json: { AirlinePrefix: "020", AwbNumber: serial, AgentCode: agent, AgentCass: cass, IsXTD: isXtd },
  });
const get = (token: string, path: string) => call(stack.url, "GET", path, { token });

const payloadsAt = (path: string): Payload[] =>
  receiver.postsTo(path).map((p) => JSON.parse(p.body) as Payload);
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2500));

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({ DELIVERY_RETRY_SCALE: "0.0001" });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status).toBe(200);
  for (const [token, path] of [
    [owner, "/owner"],
    [other, "/other"],
  ] as const) {
    const hook = await call(stack.url, "POST", WEBHOOKS, {
      token,
      json: { Event: "RMP,RCS", Url: `${receiver.url}${path}`, Enable: true, Type: "json", AWB: "" },
    });
    expect(hook.status, hook.text).toBe(200);
  }
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe("RMP Creation reaches readers that learn late", () => {
  it("the owner named by an FWB after the booking gets one RMP Creation with the current plan", async () => {
    await post(booking("30000014"));
    expect((await get(owner, "/ffw/service/routemap/02030000014")).status).toBe(404);
    await post(fwb("30000014", "3000003", "0003"));
    await waitFor(() => payloadsAt("/owner").some((p) => p.AirWaybillNumber === "30000014"));
    await quiet();
    const rmps = payloadsAt("/owner").filter((p) => p.AirWaybillNumber === "30000014");
    expect(rmps).toHaveLength(1);
    expect(rmps[0]).toMatchObject({
      Event: "RMP",
      EventStatus: "Creation",
      CarrierCode: "LH",
      FlightNumber: "400",
      isRM: true,
      ForwarderIdentifier: "FID-OWNER",
    });
    expect((await get(owner, "/ffw/service/routemap/02030000014")).status).toBe(200);
    expect(payloadsAt("/other").filter((p) => p.AirWaybillNumber === "30000014")).toHaveLength(0);
  });

  it("an XTD grant on an existing route map gives that forwarder alone one RMP Creation", async () => {
    const granted = await sendsme(other, "30000014", "4000004", "0004", true);
    expect(granted.status, granted.text).toBe(200);
    await waitFor(() => payloadsAt("/other").some((p) => p.AirWaybillNumber === "30000014"));
    await quiet();
    const rmps = payloadsAt("/other").filter((p) => p.AirWaybillNumber === "30000014");
    expect(rmps.map((p) => [p.Event, p.EventStatus, p.ForwarderIdentifier])).toEqual([
      ["RMP", "Creation", "FID-OTHER"],
    ]);
    // The owner heard its creation already: nothing more.
    expect(payloadsAt("/owner").filter((p) => p.AirWaybillNumber === "30000014")).toHaveLength(1);
    // A repeated grant changes nothing and sends nothing.
    expect((await sendsme(other, "30000014", "4000004", "0004", true)).status).toBe(200);
    await quiet();
    expect(payloadsAt("/other").filter((p) => p.AirWaybillNumber === "30000014")).toHaveLength(1);
  });

  it("a quality-program claim before the FWB is pending: honoured when the FWB names that agent, never first-claim-wins", async () => {
    await post(booking("30000025"));
    // The other forwarder claims first, then the real owner; both are only recorded.
    for (const [token, agent, cass] of [
      [other, "4000004", "0004"],
      [owner, "3000003", "0003"],
    ] as const) {
      const claim = await sendsme(token, "30000025", agent, cass, false);
      expect(claim.status, claim.text).toBe(200);
      expect(claim.body).toEqual({ AwbNumber: "020-30000025", Status: "Requested" });
    }
    expect((await get(other, "/ffw/service/routemap/02030000025")).status).toBe(404);
    expect((await get(owner, "/ffw/service/routemap/02030000025")).status).toBe(404);

    await post(fwb("30000025", "3000003", "0003"));
    await waitFor(() => payloadsAt("/owner").some((p) => p.AirWaybillNumber === "30000025"));
    await quiet();
    expect(
      payloadsAt("/owner")
        .filter((p) => p.AirWaybillNumber === "30000025")
        .map((p) => [p.Event, p.EventStatus]),
    ).toEqual([["RMP", "Creation"]]);
    const claimed = await sendsme(owner, "30000025", "3000003", "0003", false);
    expect(claimed.status).toBe(200);
    expect((claimed.body as RouteMap).Shipment.AwbNumber).toBe("30000025");
    // The first claimant never gains anything.
    expect((await get(other, "/ffw/service/routemap/02030000025")).status).toBe(404);
    expect(payloadsAt("/other").filter((p) => p.AirWaybillNumber === "30000025")).toHaveLength(0);
    expect((await sendsme(other, "30000025", "4000004", "0004", false)).status).toBe(403);
  });
});

describe("no invented values", () => {
  it("a status without a booking carries CarrierCode and FlightNumber null", async () => {
    const rcs = local("HAJ", minuteNow() - HOUR);
    await post(
      `${fwb("30000036", "3000003", "0003")}\nFSU/13\n020-30000036HAJJFK/T5K100\nRCS/${rcs.ddmmm}${rcs.hhmm}/HAJ/T5K100\n`,
    );
    await waitFor(() => payloadsAt("/owner").some((p) => p.AirWaybillNumber === "30000036"));
    const [payload] = payloadsAt("/owner").filter((p) => p.AirWaybillNumber === "30000036");
    expect(payload).toMatchObject({ Event: "RCS", CarrierCode: null, FlightNumber: null });
  });

  it("a flight keeps its booked volume when a later status line carries none", async () => {
    const std = local("HAJ", minuteNow() - 3 * HOUR);
    const sta = local("JFK", minuteNow() + 5 * HOUR);
    const dep = local("HAJ", minuteNow() - 3 * HOUR + 10 * MINUTE);
    await post(
      `FFR/8\n020-30000040HAJJFK/T5K100MC0.6/PARTS\nLH400/${std.ddmmm}/HAJJFK/NN/S${std.hhmm}/S${sta.hhmm}\n\n` +
        `${fwb("30000040", "3000003", "0003")}`,
    );
    const before = (await get(owner, "/ffw/service/routemap/02030000040")).body as RouteMap;
    expect(before.MilestonePlan.RoutingCycle.Flight[0]?.Total).toMatchObject({
      VolumeCode: "CM",
      Volume: 0.6,
    });
    await post(`FSU/13\n020-30000040HAJJFK/T5K100\nDEP/LH400/${std.ddmmm}/HAJJFK/T5K100/A${dep.hhmm}\n`);
    const after = (await get(owner, "/ffw/service/routemap/02030000040")).body as RouteMap;
    const flight = after.MilestonePlan.RoutingCycle.Flight[0];
    expect(flight?.FlightInfo.Actual?.DepartureDateTime).not.toBeNull();
    expect(flight?.Total).toMatchObject({
      NoOfPieces: 5,
      WeightCode: "K",
      Weight: 100,
      VolumeCode: "CM",
      Volume: 0.6,
    });
  });

  it("a rule created without Destination answers Destination null, not an empty string", async () => {
    const created = await call(stack.url, "POST", RULES, {
      token: owner,
      json: {
        ChannelType: "Email",
        NotifyTo: "ops@owner.example",
        HeaderItems: "AWB,MIL,NTF",
        FormatType: "Html",
        AirlinePrefix: "*",
        AwbNumber: "",
        Event: "DEP",
        EventAlert: true,
        MissedEventAlert: false,
        ProActiveAlert: false,
        ProActiveTime: 0,
        Enabled: true,
      },
    });
    expect(created.status, created.text).toBe(200);
    const rule = created.body as { Id: number; Destination: unknown };
    expect(rule.Destination).toBeNull();
    const fetched = await get(owner, `${RULES}/${rule.Id}`);
    expect((fetched.body as { Destination: unknown }).Destination).toBeNull();
  });
});

describe("search ranges", () => {
  it("answers 400 naming CreationDate.To when To is before From, and stores nothing", async () => {
    const response = await call(stack.url, "POST", "/ffw/service/routemap", {
      token: owner,
      json: { CreationDate: { From: "2026-03-15", To: "2026-03-14" } },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect((response.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
      "CreationDate.To",
    ]);
    const instants = await call(stack.url, "POST", "/ffw/service/routemap", {
      token: owner,
      json: { DeliveryDate: { From: "2026-03-15T10:00:00Z", To: "2026-03-15T09:59:59Z" } },
    });
    expect(instants.status).toBe(400);
    expect((instants.body as { errors: Array<{ field: string }> }).errors[0]?.field).toBe("DeliveryDate.To");
  });
});

describe("responses stay below Lambda's 6 MB", () => {
  const STATIONS = [
    "HAJ",
    "MUC",
    "CDG",
    "AMS",
    "LHR",
    "MAD",
    "FCO",
    "VIE",
    "ZRH",
    "CPH",
    "ARN",
    "HEL",
    "JFK",
  ];
  const CHANGES = 160;

  it(
    `pages the history of a 12-leg route map with ${CHANGES}+ changes newest first; the spec's shape is the first page`,
    async () => {
      const day = local("HAJ", minuteNow() + 48 * HOUR).ddmmm;
      const legs = STATIONS.slice(0, 12).map(
        (origin, i) => `LH${1000 + i}/${day}/${origin}${STATIONS[i + 1]}/NN/S0${i % 10}00/S0${i % 10}50`,
      );
      await post(
        `FFR/8\n020-30000051HAJJFK/T5K100MC0.6/PARTS\n${legs.join("\n")}\n\n${fwb("30000051", "3000003", "0003")}`,
      );
      // One change each: a receipt reported at another minute is kept as another report.
      for (let batch = 0; batch < CHANGES; batch += 10) {
        const messages = [];
        for (let i = batch; i < batch + 10; i++) {
          const at = local("HAJ", minuteNow() - (CHANGES + 10 - i) * MINUTE);
          messages.push(`FSU/13\n020-30000051HAJJFK/T5K100\nRCS/${at.ddmmm}${at.hhmm}/HAJ/T5K100\n`);
        }
        await post(messages.join("\n"));
      }
      const total = CHANGES + 2;
      const path = "/ffw/service/routemap/02030000051/history";

      const first = await get(owner, path);
      expect(first.status).toBe(200);
      expect(first.text.length).toBeLessThan(LIMIT_BYTES);
      const firstBody = first.body as {
        RouteMap: RouteMap;
        Snapshots: Array<{ SnapshotDate: { Utc: string } }>;
      };
      // StatusMessages: our extension; no status beyond the milestones was sent here.
      expect(Object.keys(firstBody).sort()).toEqual(["RouteMap", "Snapshots", "StatusMessages"]);
      expect((first.body as { StatusMessages: unknown[] }).StatusMessages).toEqual([]);
      expect(firstBody.Snapshots).toHaveLength(100);
      expect(first.headers.get("x-total-items")).toBe(String(total));
      const stamps = firstBody.Snapshots.map((s) => s.SnapshotDate.Utc);
      expect([...stamps].sort().reverse()).toEqual(stamps);

      const second = await get(owner, `${path}?CurrentPage=2&PageSize=100`);
      const secondBody = second.body as typeof firstBody;
      expect(secondBody.Snapshots).toHaveLength(total - 100);
      expect((secondBody.Snapshots[0]?.SnapshotDate.Utc ?? "") <= (stamps.at(-1) ?? "")).toBe(true);
      expect(second.headers.get("x-current-page")).toBe("2");

      // The largest page a caller may ask for: bounded by construction, far below 6 MB.
      const widest = await get(owner, `${path}?PageSize=500`);
      expect(widest.status).toBe(200);
      expect(widest.headers.get("x-page-size")).toBe("150");
      expect((widest.body as typeof firstBody).Snapshots).toHaveLength(150);
      expect(widest.text.length).toBeLessThan(LIMIT_BYTES / 2);

      // Past the last page: the route map with no snapshots; bad paging is a 400 naming the parameter.
      const beyond = await get(owner, `${path}?CurrentPage=9`);
      expect(beyond.status).toBe(200);
      expect((beyond.body as typeof firstBody).Snapshots).toEqual([]);
      for (const [query, field] of [
        ["PageSize=501", "PageSize"],
        ["CurrentPage=0", "CurrentPage"],
      ] as const) {
        const bad = await get(owner, `${path}?${query}`);
        expect(bad.status).toBe(400);
        expect((bad.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
          field,
        ]);
      }
    },
    scaled(240_000),
  );

  it("bounds the search page: PageSize beyond the bound answers the bounded page size", async () => {
    const response = await call(stack.url, "POST", "/ffw/service/routemap?PageSize=500", {
      token: owner,
      json: {},
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ PageSize: 150, CurrentPage: 1 });
  });
});
