/**
 * Real carrier traffic through the real local runner: stations as carriers use them (an AWB to the
 * city STO whose events come from ARN), times as carriers mean them (a DEP at 00:20 of a flight
 * scheduled 23:50 the day before is 30 min late, mailed or posted, whatever the hour this runs), a
 * status line without a time (placed at the receipt, and saying so), and where every actual came
 * from: the history's Provenance and the raw message support reads under its receipt.
 *
 * Cargo-IMP dates carry no year: the flights here are two days back at FRA, their times fixed
 * (23:50, 00:20), so no assertion depends on the hour of the run.
 */
import { createTransport, type Transporter } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Milestone, Provenance, RouteMap } from "../../functions/core/route-map/spec-types.ts";
import { waitFor } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, minuteNow } from "./route-map-helpers.ts";

const GATEWAY = "gateway@lh-cargo.example";
const INBOX = "carriers@routemap.local";
const owner = tokens.forwarder("FWD1", "1234567", "0001");
const support = tokens.support();
const carrier = tokens.carrier("020");

let stack: RunningStack | undefined;
let smtp: Transporter | undefined;

/** The flight date: two days back at FRA, so 23:50 that day and 00:20 the next are both past. */
const flightDay = local("FRA", minuteNow() - 48 * HOUR);
const nextDay = local("FRA", Date.parse(`${flightDay.date}T12:00:00Z`) + 24 * HOUR);

beforeAll(async () => {
  stack = await startRunner();
  smtp = createTransport({ host: "127.0.0.1", port: stack.smtpPort, secure: false, ignoreTLS: true });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: support,
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true, InboundSenders: [GATEWAY] },
  });
  expect(put.status, put.text).toBe(200);
}, scaled(120_000));

afterAll(async () => {
  smtp?.close();
  await stack?.stop();
});

function running(): RunningStack {
  if (!stack) throw new Error("the runner did not start");
  return stack;
}

const fwb = (serial: string, route: string) =>
  `FWB/16\n020-${serial}${route}/T10K250.0MC1.5\nAGT//1234567/0001\n/ACME FORWARDING\n`;
const fsu = (serial: string, route: string, line: string) =>
  `FSU/15\n020-${serial}${route}/T10K250.0\n${line}\n`;

async function post(body: string) {
  const posted = await call(running().url, "POST", "/carrier/messages", {
    token: carrier,
    body,
    contentType: "text/plain",
  });
  expect(posted.status, posted.text).toBe(200);
  return posted.body as { Applied: Array<{ AwbNumber: string; Changed: boolean; Events: string[] }> };
}

interface History {
  RouteMap: RouteMap;
  Snapshots: Array<{ RouteMap: RouteMap; Provenance: Provenance | null }>;
}

async function history(serial: string): Promise<History> {
  const read = await call(running().url, "GET", `/ffw/service/routemap/020${serial}/history`, {
    token: owner,
  });
  expect(read.status, read.text).toBe(200);
  return read.body as History;
}

const named = (milestones: readonly Milestone[], name: string) => milestones.find((m) => m.Name === name);

describe("an AWB to the city STO", () => {
  it("shows the events of its airport ARN, at ARN, and is at its destination", async () => {
    const serial = "71000005";
    const route = "FRASTO";
    const d = flightDay.ddmmm;
    await post(fwb(serial, route));
    await post(fsu(serial, route, `BKD/LH800/${d}/FRAARN/T10K250.0/S0600/S0830`));
    const applied = await post(
      [
        fsu(serial, route, `DEP/LH800/${d}/FRAARN/T10K250.0/A0610`),
        fsu(serial, route, `ARR/LH800/${d}/ARN/T10/A0840`),
        fsu(serial, route, `NFD/${d}1000/ARN/T10`),
        fsu(serial, route, `AWD/${d}1100/ARN/T10`),
      ].join(""),
    );
    expect(applied.Applied.map((a) => [a.Changed, a.Events])).toEqual([
      [true, ["DEP"]],
      [true, ["ARR"]],
      [true, ["NFD"]],
      [true, ["AWD"]],
    ]);
    const map = (await history(serial)).RouteMap;
    const destination = map.MilestonePlan.DestinationCycle.Milestone;
    expect(named(destination, "AWD")).toMatchObject({
      Station: "ARN",
      ActualDateTime: { Local: `${flightDay.date}T11:00:00` },
    });
    expect(named(destination, "NFD")?.Station).toBe("ARN");
    expect(map.Shipment.Routing.Destination).toBe("STO");
    expect(map.Status).toBe("AtDestination");
  });
});

describe("a DEP at 00:20 for a flight scheduled at 23:50 the day before", () => {
  /** The booking, then the DEP without day-change mark on the flight's date, as carriers send it. */
  const booking = (serial: string) =>
    `${fwb(serial, "FRAJFK")}${fsu(serial, "FRAJFK", `BKD/LH400/${flightDay.ddmmm}/FRAJFK/T10K250.0/S2350/S0230-N`)}`;
  const departure = (serial: string) =>
    fsu(serial, "FRAJFK", `DEP/LH400/${flightDay.ddmmm}/FRAJFK/T10K250.0/A0020`);

  function expectThirtyMinutesLate(map: RouteMap): void {
    const info = map.MilestonePlan.RoutingCycle.Flight[0]?.FlightInfo;
    expect(info?.Scheduled.DepartureDateTime?.Local).toBe(`${flightDay.date}T23:50:00`);
    expect(info?.Actual?.DepartureDateTime?.Local).toBe(`${nextDay.date}T00:20:00`);
    const late =
      Date.parse(info?.Actual?.DepartureDateTime?.Utc ?? "") -
      Date.parse(info?.Scheduled.DepartureDateTime?.Utc ?? "");
    expect(late).toBe(30 * 60_000);
  }

  it("is 30 min late when posted, and its provenance names the message and the raw body", async () => {
    const serial = "71000016";
    await post(booking(serial));
    await post(departure(serial));
    const read = await history(serial);
    expectThirtyMinutesLate(read.RouteMap);

    const [latest] = read.Snapshots;
    expect(latest?.Provenance).toMatchObject({
      Channel: "Api",
      Carrier: "020",
      TimeGiven: true,
      StatusRequestReply: false,
      Message: expect.stringMatching(/^FSU\//),
    });
    const raw = await call(
      running().url,
      "GET",
      `/support/carriers/020/messages/${latest?.Provenance?.ReceiptId}`,
      {
        token: support,
      },
    );
    expect(raw.status, raw.text).toBe(200);
    expect(raw.body).toMatchObject({ Channel: "Api", ContentType: "text/plain", Body: departure(serial) });
    // Another carrier's view of the same receipt: none.
    const other = await call(
      running().url,
      "GET",
      `/support/carriers/057/messages/${latest?.Provenance?.ReceiptId}`,
      {
        token: support,
      },
    );
    expect(other.status).toBe(404);
  });

  it("is 30 min late when mailed, its provenance saying e-mail", async () => {
    const serial = "71000020";
    await post(booking(serial));
    await smtp?.sendMail({ from: GATEWAY, to: INBOX, subject: `FSU ${serial}`, text: departure(serial) });
    let read: History | undefined;
    await waitFor(async () => {
      read = await history(serial);
      return read.Snapshots[0]?.Provenance?.Channel === "Email";
    }, scaled(30_000));
    expectThirtyMinutesLate(read?.RouteMap ?? ({} as RouteMap));
    const receipt = read?.Snapshots[0]?.Provenance?.ReceiptId;
    const raw = await call(running().url, "GET", `/support/carriers/020/messages/${receipt}`, {
      token: support,
    });
    expect(raw.body).toMatchObject({ Channel: "Email", Body: departure(serial) });
  });
});

describe("a status line without a time", () => {
  it("is placed at the receipt, and the history says the time was taken from it", async () => {
    const serial = "71000031";
    await post(
      `${fwb(serial, "FRAJFK")}${fsu(serial, "FRAJFK", `BKD/LH400/${nextDay.ddmmm}/FRAJFK/T10K250.0/S1325/S1555`)}`,
    );
    const before = Date.now();
    // A bulk DEP as FSA/15 sends it: flight, date, route and pieces, no time group.
    await post(`FSA/15\n020-${serial}FRAJFK/T10K250.0\nDEP/LH400/${nextDay.ddmmm}/FRAJFK/T10K250.0\n`);
    const read = await history(serial);
    const dep = named(read.RouteMap.MilestonePlan.RoutingCycle.Flight[0]?.Milestone ?? [], "DEP");
    const actual = Date.parse(dep?.ActualDateTime?.Utc ?? "");
    expect(actual).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(actual).toBeLessThanOrEqual(Date.now());
    expect(read.Snapshots[0]?.Provenance).toMatchObject({ TimeGiven: false, StatusRequestReply: true });
  });
});
