/**
 * Carrier messages as they really come, and the hardening of every numeric and time field,
 * through the real local runner. Cargo-IMP fixtures (test/fixtures,
 * README there) are written with 14MAR/15MAR: they are moved to today and tomorrow at the station, as
 * Cargo-IMP dates carry no year. Every refused body answers 400 problem+json naming its line or
 * field, and stores nothing.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, minuteNow, partitionItems } from "./route-map-helpers.ts";

let stack: RunningStack;
const carrier = tokens.carrier("020");
const N = minuteNow();
const today = local("FRA", N - 2 * HOUR);
const tomorrow = local("FRA", N + 22 * HOUR);

/** A valid AWB serial: 7 digits and their mod-7 check digit. */
const serial = (seven: number) => `${String(seven).padStart(7, "0")}${seven % 7}`;

function cargoImp(name: string): string {
  return readFileSync(new URL(`../fixtures/cargo-imp/${name}`, import.meta.url), "utf8")
    .replaceAll("14MAR", today.ddmmm)
    .replaceAll("15MAR", tomorrow.ddmmm);
}

async function post(body: string, contentType: string) {
  return call(stack.url, "POST", "/carrier/messages", { token: carrier, body, contentType });
}

/** The answer is a 400 problem+json whose first error names `field` (and says `message`, if given). */
function expectRefused(
  response: Awaited<ReturnType<typeof post>>,
  field: string,
  message?: RegExp,
  status = 400,
): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const errors = (response.body as { errors: { field: string; message: string }[] }).errors;
  expect(errors[0]?.field, response.text).toBe(field);
  if (message) expect(errors[0]?.message, response.text).toMatch(message);
}

async function nothingStored(awb11: string): Promise<void> {
  expect(await partitionItems(stack.dynamoEndpoint, awb11, "")).toEqual([]);
}

function applied(response: Awaited<ReturnType<typeof post>>) {
  expect(response.status, response.text).toBe(200);
  return (response.body as { Applied: { AwbNumber: string; Changed: boolean; Events: string[] }[] }).Applied;
}

function statusJson(seven: number, extra: Record<string, unknown> = {}) {
  return {
    Type: "RCS",
    AirlinePrefix: "020",
    AwbNumber: serial(seven),
    Origin: "FRA",
    Destination: "JFK",
    Station: "FRA",
    Time: today.jsonForm,
    ...extra,
  };
}

function xfsu(awb: string, statuses: { time: string; weight?: string }[]): string {
  const reported = statuses
    .map(
      ({ time, weight = "250.0" }) => `    <ram:ReportedStatus>
      <ram:ReasonCode>RCS</ram:ReasonCode>
      <ram:AssociatedStatusConsignment>
        <ram:GrossWeightMeasure unitCode="KGM">${weight}</ram:GrossWeightMeasure>
        <ram:PieceQuantity>10</ram:PieceQuantity>
        <ram:SpecifiedLogisticsTransportMovement>
          <ram:SpecifiedLocation><ram:ID>FRA</ram:ID></ram:SpecifiedLocation>
          <ram:SpecifiedEvent><ram:OccurrenceDateTime>${time}</ram:OccurrenceDateTime><ram:DateTimeTypeCode>A</ram:DateTimeTypeCode></ram:SpecifiedEvent>
        </ram:SpecifiedLogisticsTransportMovement>
      </ram:AssociatedStatusConsignment>
    </ram:ReportedStatus>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:StatusMessage xmlns:rsm="iata:statusmessage:1" xmlns:ram="iata:datamodel:3">
  <rsm:MasterConsignment>
    <ram:PieceQuantity>10</ram:PieceQuantity>
    <ram:TransportContractDocument><ram:ID>020-${awb}</ram:ID></ram:TransportContractDocument>
    <ram:OriginLocation><ram:ID>FRA</ram:ID></ram:OriginLocation>
    <ram:FinalDestinationLocation><ram:ID>JFK</ram:ID></ram:FinalDestinationLocation>
${reported}
  </rsm:MasterConsignment>
</rsm:StatusMessage>`;
}

beforeAll(async () => {
  stack = await startRunner({ RATE_LIMIT_PER_SECOND: "100000", RATE_LIMIT_BURST: "100000" });
}, scaled(60_000));

afterAll(async () => {
  await stack?.stop();
});

describe("point 7: Cargo-IMP as it comes", () => {
  it("reads an FSU/16 in a Type-B envelope with SOH/STX/ETX, untracked codes and optional lines skipped", async () => {
    const response = await post(cargoImp("typeb-soh-stx-etx-fsu16.txt"), "text/plain");
    expect(applied(response).map((a) => [a.AwbNumber, a.Changed, a.Events[0]])).toEqual([
      ["020-11111111", true, "RCS"],
      // FOH is kept as history (no event); MAN and PRE without a time are skipped.
      ["020-11111111", true, undefined],
      ["020-11111111", true, "DEP"],
    ]);
  });

  it("reads FSA (the status answer) like an FSU", async () => {
    const response = await post(cargoImp("fsa-14.txt"), "text/plain");
    expect(applied(response).map((a) => a.Events[0])).toEqual(["RCS", "DEP"]);
  });

  it("reads FSU versions 12 to 16 in one body, statuses beyond the milestones accepted", async () => {
    const response = await post(cargoImp("fsu-versions-12-to-16.txt"), "text/plain");
    // TFD, RCT, CRC, TRM, TGC, AWR, CCD and DDL are kept as history (no event); DIS without a time is skipped.
    expect(applied(response).map((a) => [a.Changed, a.Events[0]])).toEqual([
      [true, "RCS"],
      ...Array.from({ length: 8 }, () => [true, undefined]),
      [true, "DEP"],
    ]);
  });

  it("reads FWB/17 in pounds and cubic feet and FWB/16 in kilograms and cubic metres", async () => {
    for (const name of ["fwb-17-pounds-cubic-feet.txt", "fwb-16-kilos-cubic-metres.txt"]) {
      const response = await post(cargoImp(name), "text/plain");
      expect(applied(response)).toHaveLength(1);
    }
    const map = await call(stack.url, "GET", "/ffw/service/routemap/02044444444", {
      token: tokens.forwarder("ACMECARGO", "1234567", "0001"),
    });
    expect(map.status, map.text).toBe(200);
    expect(map.text).toContain("551.2");
  });

  it("reads FFR/8 and FFA/4 with several flights and NN/HK/KK/UU/XX codes", async () => {
    const ffr = applied(await post(cargoImp("ffr-8-several-flights.txt"), "text/plain"));
    expect(ffr.map((a) => [a.AwbNumber, a.Changed])).toEqual([["020-66666666", true]]);
    const ffa = applied(await post(cargoImp("ffa-4-mixed-codes.txt"), "text/plain"));
    expect(ffa.map((a) => [a.AwbNumber, a.Changed])).toEqual([["020-77777770", true]]);
  });

  it("refuses a 7-digit serial naming its line and the full AWB number", async () => {
    const response = await post(cargoImp("fsu-seven-digit-serial.txt"), "text/plain");
    expectRefused(response, "line 2", /8-digit AWB serial .*020-12345605/);
    await nothingStored("02012345605");
  });

  it("answers a message it cannot place with 422 naming the line, never 500", async () => {
    const body = `FSU/14\n020-${serial(1000001)}FRAJFK/T1\nRCS/${today.ddmmm}0900/QQQ/T1\n`;
    const response = await post(body, "text/plain");
    expectRefused(response, "line 3", /known IATA airport code/, 422);
    expect((response.body as { type: string }).type).toContain("unplaceable-carrier-message");
    await nothingStored(`020${serial(1000001)}`);
  });
});

describe("point 8: times with a year far from receipt", () => {
  it("refuses JSON times in the years 0000-0999 and more than a year away, naming the field", async () => {
    for (const [seven, time] of [
      [1000002, "0001-03-14T09:00"],
      [1000003, "0999-12-31T23:59"],
      [1000004, `${new Date(N).getUTCFullYear() + 2}-03-14T09:00`],
    ] as const) {
      const body = JSON.stringify(statusJson(seven, { Time: time }), null, 2);
      expectRefused(await post(body, "application/json"), "line 8: Time", /within 366 days of receipt/);
      await nothingStored(`020${serial(seven)}`);
    }
  });

  it("refuses a scheduled time years ahead in a JSON booking, naming the leg's field", async () => {
    const body = {
      Messages: [
        {
          Type: "BKD",
          AirlinePrefix: "020",
          AwbNumber: serial(1000005),
          Origin: "FRA",
          Destination: "JFK",
          Legs: [
            {
              CarrierCode: "LH",
              FlightNumber: "400",
              Date: today.date,
              Origin: "FRA",
              Destination: "JFK",
              ScheduledDeparture: `${new Date(N).getUTCFullYear() + 3}-01-01T10:00`,
            },
          ],
        },
      ],
    };
    const response = await post(JSON.stringify(body), "application/json");
    expectRefused(response, "line 1: Messages[0].Legs[0].ScheduledDeparture", /within 366 days/);
    await nothingStored(`020${serial(1000005)}`);
  });

  it("refuses an XFSU time in year 0001, and a correct actual stays as it was", async () => {
    const awb = serial(1000006);
    applied(await post(xfsu(awb, [{ time: `${today.jsonForm}:00` }]), "application/xml"));
    const before = await partitionItems(stack.dynamoEndpoint, `020${awb}`, "");
    const response = await post(xfsu(awb, [{ time: "0001-03-14T09:00:00" }]), "application/xml");
    expectRefused(response, "line 8: MasterConsignment/ReportedStatus[1]", /within 366 days/);
    expect(await partitionItems(stack.dynamoEndpoint, `020${awb}`, "")).toEqual(before);
  });
});

describe("points 9 and 15: every number finite and plausible", () => {
  it("refuses non-finite JSON numbers naming the field (1e999 is Infinity once parsed)", async () => {
    const base = JSON.stringify(statusJson(1000007)).slice(0, -1);
    for (const [member, field] of [
      [`"Pieces":1,"Weight":1e999`, "Weight"],
      [`"Pieces":1,"Volume":1e999`, "Volume"],
      [`"Pieces":1,"Weight":-1e999`, "Weight"],
      [`"Quantity":{"Pieces":1,"Weight":1e999}`, "Quantity.Weight"],
      [`"Pieces":1e999`, "Pieces"],
    ]) {
      expectRefused(await post(`${base},${member}}`, "application/json"), `line 1: ${field}`);
    }
    await nothingStored(`020${serial(1000007)}`);
  });

  it("refuses weights and volumes outside a plausible range per unit, in every format", async () => {
    const seven = 1000008;
    for (const [extra, field] of [
      [{ Pieces: 1, Weight: 1e200 }, "Weight"],
      [{ Pieces: 1, Weight: 1e-200 }, "Weight"],
      [{ Pieces: 1, Volume: 1e200 }, "Volume"],
      [{ Pieces: 1, WeightCode: "L", Weight: 2_204_624 }, "Weight"],
      [{ Quantity: { Pieces: 1, Volume: 1e-200 } }, "Quantity.Volume"],
    ] as const) {
      const response = await post(JSON.stringify(statusJson(seven, extra)), "application/json");
      expectRefused(response, `line 1: ${field}`, /a (weight|volume) of 0 or 0.001 to/);
    }
    const imp = `FSU/14\n020-${serial(seven)}FRAJFK/T1K9999999\nRCS/${today.ddmmm}0900/FRA/T1\n`;
    expectRefused(await post(imp, "text/plain"), "line 2", /a weight of 0 or 0.001 to 1,000,000 kg/);
    const xml = xfsu(serial(seven), [{ time: `${today.jsonForm}:00`, weight: "999999999" }]);
    expectRefused(await post(xml, "application/xml"), "line 11", /a weight of 0 or 0.001/);
    await nothingStored(`020${serial(seven)}`);
  });
});

describe("point 14: nesting is bounded", () => {
  it("answers a member nested 20,000 arrays deep with 400 naming the member", async () => {
    const deep = `${"[".repeat(20_000)}0${"]".repeat(20_000)}`;
    const single = `${JSON.stringify(statusJson(1000009)).slice(0, -1)},"X":${deep}}`;
    expectRefused(await post(single, "application/json"), "line 1: X", /at most 16 levels/);
    const envelope = `{"Messages":[${JSON.stringify(statusJson(1000009)).slice(0, -1)},\n"Extra":{"A":${deep}}}]}`;
    expectRefused(await post(envelope, "application/json"), "line 2: Messages[0].Extra.A");
    await nothingStored(`020${serial(1000009)}`);
  });
});

describe("point 17: messages per body are capped like the JSON form's 100", () => {
  const fsu = (awb: string) => `FSU/14\n020-${awb}FRAJFK/T10K250.0\nRCS/${today.ddmmm}0910/FRA/T10K250.0\n`;

  it("refuses 101 Cargo-IMP messages naming the line of the 101st, storing nothing", async () => {
    const awb = serial(1000010);
    const started = Date.now();
    const response = await post(fsu(awb).repeat(101), "text/plain");
    expectRefused(response, "line 303", /at most 100 messages in one request body/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await nothingStored(`020${awb}`);
  });

  it("refuses 101 XFSU reported statuses, and applies a body of 100 within the deadline", async () => {
    const awb = serial(1000011);
    const statuses = Array.from({ length: 101 }, () => ({ time: `${today.jsonForm}:00` }));
    const refused = await post(xfsu(awb, statuses), "application/xml");
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain("at most 100 messages");
    await nothingStored(`020${awb}`);

    // 100 messages for 100 new AWBs (100 reads and 100 writes) are one acceptable body. On a loaded
    // machine the service may run out of its deadline part-way: it then answers 409 naming the
    // applied prefix and the message to resend from, which is what a carrier's client does here.
    const messages = Array.from({ length: 100 }, (_, i) => fsu(serial(1_200_000 + i)));
    const accepted: { AwbNumber: string; Changed: boolean }[] = [];
    for (let round = 0; accepted.length < messages.length; round++) {
      expect(round, "the body never completed: each resend applied nothing").toBeLessThan(messages.length);
      const response = await post(messages.slice(accepted.length).join(""), "text/plain");
      if (response.status === 409) {
        const partial = response.body as {
          Applied: { AwbNumber: string; Changed: boolean }[];
          detail: string;
        };
        expect(partial.detail).toContain(`resend from message ${partial.Applied.length + 1}`);
        expect(response.headers.get("retry-after"), response.text).not.toBeNull();
        accepted.push(...partial.Applied);
        continue;
      }
      accepted.push(...applied(response));
    }
    expect(accepted.map((a) => a.AwbNumber)).toEqual(messages.map((_, i) => `020-${serial(1_200_000 + i)}`));
    expect(accepted.filter((a) => a.Changed)).toHaveLength(100);
  });
});

describe("point 7: status codes beyond the milestones are kept as history", () => {
  const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
  const awb = serial(1000707);
  const path = `/ffw/service/routemap/020${awb}`;

  it("keeps FOH, MAN and TFD as StatusMessages of the history, leaving the route map and events alone", async () => {
    const booking = `FSU/13\n020-${awb}FRAJFK/T10K250.0\nBKD/LH400/${tomorrow.ddmmm}/FRAJFK/T10K250.0/S1325/S1555\n`;
    const fwb = `FWB/16\n020-${awb}FRAJFK/T10K250.0\nAGT//1234567/0001\n/ACME FORWARDING\n`;
    expect(applied(await post(booking, "text/plain")).map((a) => a.Changed)).toEqual([true]);
    expect(applied(await post(fwb, "text/plain")).map((a) => a.Changed)).toEqual([true]);
    const before = await call(stack.url, "GET", path, { token: owner });
    expect(before.status, before.text).toBe(200);
    const snapshotsBefore = await partitionItems(stack.dynamoEndpoint, `020${awb}`, "SNAP#");
    const eventsBefore = await partitionItems(stack.dynamoEndpoint, `020${awb}`, "EVT#");

    const others = [
      `FSU/16`,
      `020-${awb}FRAJFK/T10K250.0`,
      `FOH/${today.ddmmm}0700/FRA/T10K250.0/ACME FORWARDING`,
      `MAN/LH400/${today.ddmmm}0815/FRAJFK/T10K250.0`,
      `TFD/LH/${today.ddmmm}0930/FRA/T4K100.0/LH`,
      "",
    ].join("\n");
    expect(applied(await post(others, "text/plain"))).toEqual([
      { AwbNumber: `020-${awb}`, Changed: true, Events: [] },
      { AwbNumber: `020-${awb}`, Changed: true, Events: [] },
      { AwbNumber: `020-${awb}`, Changed: true, Events: [] },
    ]);
    // A repeat changes nothing.
    expect(applied(await post(others, "text/plain")).map((a) => a.Changed)).toEqual([false, false, false]);

    const after = await call(stack.url, "GET", path, { token: owner });
    expect(after.status, after.text).toBe(200);
    expect(after.text).toBe(before.text);
    expect(await partitionItems(stack.dynamoEndpoint, `020${awb}`, "SNAP#")).toHaveLength(
      snapshotsBefore.length,
    );
    expect(await partitionItems(stack.dynamoEndpoint, `020${awb}`, "EVT#")).toHaveLength(eventsBefore.length);

    const history = await call(stack.url, "GET", `${path}/history`, { token: owner });
    expect(history.status, history.text).toBe(200);
    const body = history.body as { RouteMap: unknown; StatusMessages: Record<string, unknown>[] };
    expect(body.RouteMap).toEqual(before.body);
    expect(body.StatusMessages.map((s) => s.Code)).toEqual(["TFD", "MAN", "FOH"]);
    expect(body.StatusMessages.map((s) => (s.DateTime as { Local: string }).Local.slice(0, 16))).toEqual(
      ["09:30", "08:15", "07:00"].map((hhmm) => `${today.date}T${hhmm}`),
    );
    expect(body.StatusMessages[0]).toMatchObject({
      Code: "TFD",
      Station: "FRA",
      CarrierCode: "LH",
      Pieces: 4,
    });
    expect(body.StatusMessages[1]).toMatchObject({
      Code: "MAN",
      Station: "FRA",
      CarrierCode: "LH",
      FlightNumber: "400",
      Pieces: 10,
    });
    expect(body.StatusMessages[2]).toMatchObject({ Code: "FOH", Station: "FRA", Pieces: 10 });
    // Optional members left out (no flight); Provenance says which message it came from.
    expect(Object.keys(body.StatusMessages[2] as object).sort()).toEqual([
      "Code",
      "DateTime",
      "Pieces",
      "Provenance",
      "Station",
    ]);
    expect(body.StatusMessages[2]?.Provenance).toMatchObject({
      Channel: "Api",
      Carrier: "020",
      TimeGiven: true,
    });
  });
});
