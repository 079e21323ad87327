/**
 * Predictions through the real local runner: an open route map's predicted times and connections for
 * its owner and support (404 for another forwarder, 403 for a carrier, 400 for a bad AWB); support sets
 * a station's minimum connection time, which moves the connection's slack and risk (bad input 400,
 * nothing changed); a journey completed through DLV is scored, and its accuracy is answered to its
 * owner and support only, narrowed by lane.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const stranger = tokens.forwarder("FWD2", "7654321", "0042");
const support = tokens.support();
const carrier = tokens.carrier("020");
/** Open: flies in 6 h with 60 minutes to change at AMS. */
const OPEN = "12345675";
/** Completed: flew yesterday, delivered 14 h ago. */
const DONE = "12345686";

type Pair = { Utc: string; Local: string } | null;
interface Eta {
  AirlinePrefix: string;
  AwbNumber: string;
  Milestones: Array<{
    Name: string;
    Station: string;
    Flight: string | null;
    PlannedDateTime: Pair;
    ActualDateTime: Pair;
    PredictedDateTime: Pair;
    PredictedP90DateTime: Pair;
    Basis: { Method: string; Lane: string | null; Samples: number };
  }>;
  Connections: Array<{
    Station: string;
    InboundFlight: string;
    OutboundFlight: string;
    PredictedArrival: Pair;
    ScheduledDeparture: Pair;
    MinimumConnectionMinutes: number;
    SlackMinutes: number | null;
    Risk: string;
  }>;
}
interface Accuracy {
  Lane: string | null;
  RouteMaps: number;
  Items: Array<{
    Milestone: string;
    Horizon: string;
    Service: { Count: number; MedianAbsoluteErrorMinutes: number | null; Coverage: number | null };
    Plan: { Count: number; MedianAbsoluteErrorMinutes: number | null };
  }>;
}

const fsu = (serial: string, line: string) => `FSU/13\n020-${serial}FRAJFK/T10K250.0\n${line}\n`;
const fwb = (serial: string) =>
  `FWB/16\n020-${serial}FRAJFK/T10K250.0\nAGT//1234567/0001\n/ACME FORWARDING\n`;
const at = (station: string, ms: number) => local(station, ms);

async function post(body: string) {
  const posted = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    body,
    contentType: "text/plain",
  });
  expect(posted.status, posted.text).toBe(200);
}

/** Two legs: FRA-AMS on LH992 from `t0`, AMS-JFK on KL601 `changeMinutes` after arriving. */
function bookings(serial: string, t0: number, changeMinutes: number) {
  const std1 = at("FRA", t0);
  const sta1 = at("AMS", t0 + HOUR);
  const std2 = at("AMS", t0 + HOUR + changeMinutes * MINUTE);
  const sta2 = at("JFK", t0 + HOUR + changeMinutes * MINUTE + 8 * HOUR);
  return [
    fsu(serial, `BKD/LH992/${std1.ddmmm}/FRAAMS/T10K250.0/S${std1.hhmm}/S${sta1.hhmm}`),
    fsu(serial, `BKD/KL601/${std2.ddmmm}/AMSJFK/T10K250.0/S${std2.hhmm}/S${sta2.hhmm}`),
  ];
}

const eta = (serial: string, token: string) =>
  call(stack.url, "GET", `/ffw/service/routemap/020${serial}/eta`, { token });
const accuracy = (token: string, query = "") =>
  call(stack.url, "GET", `/ffw/service/routemap/eta/accuracy${query}`, { token });
const minutesBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / MINUTE;

beforeAll(async () => {
  stack = await startRunner();
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: support,
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
  await post(fwb(OPEN));
  for (const body of bookings(OPEN, minuteNow() + 6 * HOUR, 60)) await post(body);

  // A journey flown and delivered: 40 minutes late into AMS, 2 h late at JFK.
  const t0 = minuteNow() - 30 * HOUR;
  await post(fwb(DONE));
  for (const body of bookings(DONE, t0, 180)) await post(body);
  const d = (station: string, ms: number) => `${at(station, ms).ddmmm}${at(station, ms).hhmm}`;
  const dep1 = at("FRA", t0 + 10 * MINUTE);
  const dep2 = at("AMS", t0 + 4 * HOUR + 5 * MINUTE);
  const arr2 = t0 + 14 * HOUR;
  for (const line of [
    `RCS/${d("FRA", t0 - 3 * HOUR)}/FRA/T10K250.0`,
    `DEP/LH992/${at("FRA", t0).ddmmm}/FRAAMS/T10K250.0/A${dep1.hhmm}`,
    `ARR/LH992/${d("AMS", t0 + HOUR + 40 * MINUTE)}/AMS/T10`,
    `RCF/LH992/${d("AMS", t0 + 2 * HOUR + 30 * MINUTE)}/AMS/T10`,
    `DEP/KL601/${at("AMS", t0 + 4 * HOUR).ddmmm}/AMSJFK/T10K250.0/A${dep2.hhmm}`,
    `ARR/KL601/${d("JFK", arr2)}/JFK/T10`,
    `RCF/KL601/${d("JFK", arr2 + HOUR)}/JFK/T10`,
    `NFD/${d("JFK", arr2 + 2 * HOUR)}/JFK/T10`,
    `AWD/${d("JFK", arr2 + 3 * HOUR)}/JFK/T10`,
    `DLV/${d("JFK", arr2 + 4 * HOUR)}/JFK/T10`,
  ]) {
    await post(fsu(DONE, line));
  }
}, scaled(180_000));

afterAll(async () => {
  await stack?.stop();
});

describe("GET .../{awb}/eta", () => {
  it("answers the owner every milestone with plan and prediction pairs, and the AMS connection", async () => {
    const read = await eta(OPEN, owner);
    expect(read.status, read.text).toBe(200);
    const body = read.body as Eta;
    expect(body).toMatchObject({ AirlinePrefix: "020", AwbNumber: OPEN });
    const names = body.Milestones.map((m) => `${m.Station}:${m.Name}`);
    expect(names).toEqual(expect.arrayContaining(["FRA:DEP", "AMS:ARR", "AMS:DEP", "JFK:ARR", "JFK:DLV"]));
    const dlv = body.Milestones.find((m) => m.Name === "DLV");
    expect(dlv?.ActualDateTime).toBeNull();
    expect(dlv?.PredictedDateTime?.Utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
    expect(dlv?.PredictedP90DateTime?.Utc && dlv.PredictedDateTime?.Utc).toBeTruthy();
    expect((dlv?.PredictedP90DateTime?.Utc ?? "") >= (dlv?.PredictedDateTime?.Utc ?? "~")).toBe(true);
    const dep = body.Milestones.find((m) => m.Station === "FRA" && m.Name === "DEP");
    expect(dep?.Flight).toBe("LH992");
    expect(dep?.PlannedDateTime?.Utc).toMatch(/Z$/);
    expect(["lane", "plan"]).toContain(dep?.Basis.Method);

    expect(body.Connections).toHaveLength(1);
    const [connection] = body.Connections;
    expect(connection).toMatchObject({ Station: "AMS", InboundFlight: "LH992", OutboundFlight: "KL601" });
    expect(connection?.MinimumConnectionMinutes).toBe(120);
    const slack =
      Math.round(
        minutesBetween(connection?.PredictedArrival?.Utc ?? "", connection?.ScheduledDeparture?.Utc ?? ""),
      ) - 120;
    expect(connection?.SlackMinutes).toBe(slack);
    // 60 minutes to change against 120 needed: short whatever the predicted arrival adds.
    expect(connection?.SlackMinutes ?? 0).toBeLessThanOrEqual(-60);
    expect(connection?.Risk).toBe("AtRisk");
  });

  it("answers support too, a reported milestone with its actual and no prediction", async () => {
    const read = await eta(DONE, support);
    expect(read.status, read.text).toBe(200);
    const dlv = (read.body as Eta).Milestones.find((m) => m.Name === "DLV");
    expect(dlv).toMatchObject({
      PredictedDateTime: null,
      PredictedP90DateTime: null,
      Basis: { Method: "actual" },
    });
    expect(dlv?.ActualDateTime?.Utc).toMatch(/Z$/);
    expect((read.body as Eta).Connections[0]?.Risk).toBe("Ok");
  });

  it("is 404 for another forwarder and an unknown AWB, 403 for a carrier, 400 for a bad AWB", async () => {
    const foreign = await eta(OPEN, stranger);
    expect(foreign.status).toBe(404);
    const unknown = await eta("99999992", owner);
    expect(unknown.status).toBe(404);
    expect(foreign.body).toMatchObject({ status: 404 });
    expect((await eta(OPEN, carrier)).status).toBe(403);
    const bad = await call(stack.url, "GET", "/ffw/service/routemap/02012345670/eta", { token: owner });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/application\/problem\+json/);
  });
});

describe("PUT /support/stations/{code}", () => {
  it("sets the minimum connection time that judges the connection, and refuses bad input changing nothing", async () => {
    const before = ((await eta(OPEN, owner)).body as Eta).Connections[0];
    const set = await call(stack.url, "PUT", "/support/stations/AMS", {
      token: support,
      json: { MinimumConnectionMinutes: 30 },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ Station: "AMS", MinimumConnectionMinutes: 30 });
    const after = ((await eta(OPEN, owner)).body as Eta).Connections[0];
    expect(after?.MinimumConnectionMinutes).toBe(30);
    expect(after?.SlackMinutes).toBe((before?.SlackMinutes ?? 0) + 90);
    // The risk weighs both flights' predicted spread, not the slack's sign alone: 90 min more room
    // never makes a connection riskier, and a whole day's minimum makes it a likely miss.
    const severity = (risk: string | undefined) => ["Ok", "AtRisk", "Missed"].indexOf(risk ?? "");
    expect(severity(after?.Risk)).toBeLessThanOrEqual(severity(before?.Risk));
    const tight = await call(stack.url, "PUT", "/support/stations/AMS", {
      token: support,
      json: { MinimumConnectionMinutes: 1440 },
    });
    expect(tight.status, tight.text).toBe(200);
    const squeezed = ((await eta(OPEN, owner)).body as Eta).Connections[0];
    expect(squeezed?.SlackMinutes).toBe((before?.SlackMinutes ?? 0) + 120 - 1440);
    expect(squeezed?.Risk).toBe("AtRisk");
    const restored = await call(stack.url, "PUT", "/support/stations/AMS", {
      token: support,
      json: { MinimumConnectionMinutes: 30 },
    });
    expect(restored.status, restored.text).toBe(200);

    for (const [code, json] of [
      ["AMS", { MinimumConnectionMinutes: -5 }],
      ["AMS", { MinimumConnectionMinutes: 2000 }],
      ["AMS", { MinimumConnectionMinutes: 12.5 }],
      ["AMS", { MinimumConnectionMinutes: "90" }],
      ["AMS", {}],
      ["ams", { MinimumConnectionMinutes: 60 }],
    ] as const) {
      const refused = await call(stack.url, "PUT", `/support/stations/${code}`, { token: support, json });
      expect(refused.status, `${code} ${JSON.stringify(json)}`).toBe(400);
      expect(refused.headers.get("content-type")).toMatch(/application\/problem\+json/);
    }
    const forbidden = await call(stack.url, "PUT", "/support/stations/AMS", {
      token: owner,
      json: { MinimumConnectionMinutes: 999 },
    });
    expect(forbidden.status).toBe(403);
    expect(((await eta(OPEN, owner)).body as Eta).Connections[0]?.MinimumConnectionMinutes).toBe(30);
  });
});

describe("GET .../eta/accuracy", () => {
  it("scores the delivered journey for its owner and support, beside the plan, narrowed by lane", async () => {
    const mine = await accuracy(owner);
    expect(mine.status, mine.text).toBe(200);
    const body = mine.body as Accuracy;
    expect(body.RouteMaps).toBe(1);
    const dlv = body.Items.find((i) => i.Milestone === "DLV" && i.Horizon === "Booking");
    expect(dlv?.Service.Count).toBe(1);
    expect(dlv?.Plan.Count).toBe(1);
    expect(dlv?.Plan.MedianAbsoluteErrorMinutes).toBeGreaterThan(0);
    expect(body.Items.map((i) => i.Horizon)).toEqual(
      expect.arrayContaining(["Booking", "FirstDeparture", "LastArrival"]),
    );

    expect(((await accuracy(support)).body as Accuracy).RouteMaps).toBe(1);
    expect((await accuracy(stranger)).body as Accuracy).toMatchObject({ RouteMaps: 0, Items: [] });
    const lane = await accuracy(owner, `?lane=${encodeURIComponent("020 FRA-JFK")}`);
    expect(lane.body).toMatchObject({ Lane: "020 FRA-JFK", RouteMaps: 1 });
    expect(
      ((await accuracy(owner, `?lane=${encodeURIComponent("057 FRA-JFK")}`)).body as Accuracy).RouteMaps,
    ).toBe(0);
  });

  it("refuses a malformed lane (400) and a carrier (403)", async () => {
    const bad = await accuracy(owner, "?lane=FRA-JFK");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect((await accuracy(carrier)).status).toBe(403);
  });
});
