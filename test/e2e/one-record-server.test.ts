/**
 * The ONE Record server against the local runner: a booked, FWB'd AWB read as a Waybill, Shipment,
 * TransportMovement and Location (headers, embedded, at=, the awb- redirect), its events as an
 * api:Collection and one by one, 403 for another forwarder's Waybill, 404 for ids never issued; and a
 * carrier's event posted to {lo}/logistics-events changing the route map exactly as the same FSU DEP
 * does on a control AWB. The posted event is the DEP fixture of test/fixtures/onerecord (README there).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objectId } from "../../functions/core/one-record-server/ids.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, iso, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
const carrier = tokens.carrier("020");
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const stranger = tokens.forwarder("OTHERFWD", "7654321", "0002");
const LD = "application/ld+json";

const N = minuteNow();
const std = N - 2 * HOUR;
const sta = N + 6 * HOUR;
const depActual = N - 100 * MINUTE;

const serial = (seven: number) => `${String(seven).padStart(7, "0")}${seven % 7}`;
type JsonObject = Record<string, unknown>;
const obj = (value: unknown) => value as JsonObject;

function booking(awbSerial: string) {
  return {
    Type: "BKD",
    AirlinePrefix: "020",
    AwbNumber: awbSerial,
    Origin: "FRA",
    Destination: "JFK",
    Pieces: 10,
    WeightCode: "K",
    Weight: 250,
    Legs: [
      {
        CarrierCode: "LH",
        FlightNumber: "400",
        Date: local("FRA", std).date,
        Origin: "FRA",
        Destination: "JFK",
        ScheduledDeparture: local("FRA", std).jsonForm,
        ScheduledArrival: local("JFK", sta).jsonForm,
      },
    ],
  };
}
const fwb = (awbSerial: string) =>
  `FWB/16\n020-${awbSerial}FRAJFK/T10K250.0MC1.5\nAGT//1234567/0001\n/ACME FORWARDING\n`;
const fsuDep = (awbSerial: string) =>
  `FSU/13\n020-${awbSerial}FRAJFK/T10K250.0\nDEP/LH400/${local("FRA", std).ddmmm}/FRAJFK/T10K250.0/A${local("FRA", depActual).hhmm}\n`;

const message = (body: string, contentType = "text/plain") =>
  call(stack.url, "POST", "/carrier/messages", { token: carrier, body, contentType });

async function prepared(seven: number): Promise<string> {
  const awbSerial = serial(seven);
  const bkd = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    json: booking(awbSerial),
  });
  expect(bkd.status, bkd.text).toBe(200);
  const fwbAnswer = await message(fwb(awbSerial));
  expect(fwbAnswer.status, fwbAnswer.text).toBe(200);
  return awbSerial;
}

/** The DEP fixture moved to today's flight; its eventFor names some other AWB (the URL's object wins). */
function depEvent(): JsonObject {
  const event = JSON.parse(
    readFileSync(new URL("../fixtures/onerecord/status-update-event-dep.jsonld", import.meta.url), "utf8"),
  ) as JsonObject;
  obj(event["cargo:eventDate"])["@value"] = iso(depActual);
  const movement = obj(event["cargo:transportMovementReference"]);
  const times = movement["cargo:movementTimes"] as JsonObject[];
  obj(times[0]?.["cargo:movementTimestamp"])["@value"] = `${local("FRA", std).jsonForm}:00`;
  return event;
}

async function routeMapOf(awbSerial: string): Promise<Map<string, unknown>> {
  const answer = await call(stack.url, "GET", `/ffw/service/routemap/020${awbSerial}`, { token: owner });
  expect(answer.status, answer.text).toBe(200);
  const flat = new Map<string, unknown>();
  const walk = (value: unknown, path: string): void => {
    if (typeof value === "object" && value !== null)
      for (const [key, child] of Object.entries(value)) walk(child, `${path}/${key}`);
    else flat.set(path, typeof value === "string" ? value.replaceAll(awbSerial, "AWB") : value);
  };
  walk(answer.body, "");
  return flat;
}

function change(before: Map<string, unknown>, after: Map<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(path) === after.get(path) || path.startsWith("/LastUpdate")) continue;
    changed[path] = after.get(path) ?? "(removed)";
  }
  return changed;
}

/** A GET or HEAD of a ONE Record path (or full URL), redirects not followed. */
async function oneRecord(path: string, token: string, method = "GET") {
  const url = path.startsWith("http") ? path : `${stack.url}/onerecord${path}`;
  const response = await fetch(url, {
    method,
    redirect: "manual",
    headers: { authorization: `Bearer ${token}`, accept: LD },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? (JSON.parse(text) as JsonObject) : null,
  };
}

let awb = "";
let waybillUrl = "";

beforeAll(async () => {
  stack = await startRunner();
  awb = await prepared(1400001);
}, scaled(60_000));

afterAll(async () => {
  await stack?.stop();
});

describe("the ONE Record server reads what the service knows of an AWB", () => {
  it("server information names the API versions, content type and ontologies", async () => {
    const info = await oneRecord("", owner);
    expect(info.status, info.text).toBe(200);
    expect(info.headers.get("content-type")).toContain(LD);
    expect(info.body?.["@type"]).toBe("api:ServerInformation");
    expect(info.body?.["api:hasSupportedApiVersion"]).toContain("2.0.0");
    expect(info.body?.["api:hasSupportedContentType"]).toEqual([LD]);
    expect(JSON.stringify(info.body?.["api:hasSupportedOntology"])).toContain(
      "https://onerecord.iata.org/ns/cargo",
    );
    expect((await oneRecord("", "")).status).toBe(401);
  });

  it("awb-{prefix}-{serial} redirects to the Waybill, which GET and HEAD answer with the API's headers", async () => {
    const alias = await oneRecord(`/logistics-objects/awb-020-${awb}`, owner);
    expect(alias.status, alias.text).toBe(307);
    waybillUrl = alias.headers.get("location") ?? "";
    expect(waybillUrl).toMatch(/\/onerecord\/logistics-objects\/[0-9a-f-]{36}$/);

    const got = await oneRecord(waybillUrl, owner);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      "@id": waybillUrl,
      "@type": "cargo:Waybill",
      "cargo:waybillPrefix": "020",
      "cargo:waybillNumber": awb,
      "cargo:waybillType": { "@id": "cargo:MASTER" },
    });
    expect(obj(got.body?.["cargo:departureLocation"])["@id"]).toMatch(/\/logistics-objects\/FRA$/);
    expect(got.headers.get("type")).toBe("https://onerecord.iata.org/ns/cargo#Waybill");
    const revision = Number(got.headers.get("revision"));
    expect(revision).toBeGreaterThanOrEqual(1);
    expect(got.headers.get("latest-revision")).toBe(String(revision));
    expect(Date.parse(got.headers.get("last-modified") ?? "")).not.toBeNaN();

    const head = await oneRecord(waybillUrl, owner, "HEAD");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    for (const name of ["type", "revision", "latest-revision", "last-modified"])
      expect(head.headers.get(name), name).toBe(got.headers.get(name));
  });

  it("embedded=true writes the linked objects in place; the Shipment, movement and Location read alone", async () => {
    const embedded = await oneRecord(`${waybillUrl}?embedded=true`, owner);
    expect(embedded.status, embedded.text).toBe(200);
    const departure = obj(embedded.body?.["cargo:departureLocation"]);
    expect(departure["@type"]).toBe("cargo:Location");
    const shipment = obj(embedded.body?.["cargo:shipment"]);
    expect(shipment["@type"]).toBe("cargo:Shipment");
    expect(shipment["rmt:totalPieceCount"]).toBe(10);

    const alone = await oneRecord(String(shipment["@id"]), owner);
    expect(alone.status, alone.text).toBe(200);
    expect(obj(alone.body?.["cargo:totalGrossWeight"])["cargo:numericalValue"]).toBe(250);

    const movementUrl = waybillUrl.replace(
      /[^/]+$/,
      objectId("TransportMovement", { prefix: "020", serial: awb }, 1),
    );
    const movement = await oneRecord(movementUrl, owner);
    expect(movement.status, movement.text).toBe(200);
    expect(movement.body?.["cargo:transportIdentifier"]).toMatch(/^LH400\/\d{2}[A-Z]{3}\d{4}$/);

    const fra = await oneRecord("/logistics-objects/FRA", owner);
    expect(fra.status).toBe(200);
    expect(fra.headers.get("type")).toBe("https://onerecord.iata.org/ns/cargo#Location");
  });

  it("at= answers from the snapshots, 404 before the first", async () => {
    const before = await oneRecord(`${waybillUrl}?at=20190926T075830Z`, owner);
    expect(before.status, before.text).toBe(404);
    expect(before.headers.get("content-type")).toContain("problem+json");
    const now = await oneRecord(`${waybillUrl}?at=${encodeURIComponent(new Date().toISOString())}`, owner);
    expect(now.status, now.text).toBe(200);
    expect(now.body?.["cargo:waybillNumber"]).toBe(awb);
    const bad = await oneRecord(`${waybillUrl}?at=yesterday`, owner);
    expect(bad.status).toBe(400);
  });

  it("another forwarder's Waybill is 403, an id never issued 404", async () => {
    expect((await oneRecord(waybillUrl, stranger)).status).toBe(403);
    expect((await oneRecord(`${waybillUrl}/logistics-events`, stranger)).status).toBe(403);
    expect((await oneRecord(waybillUrl, tokens.carrier("057"))).status).toBe(403);
    // Derived objects change by carrier messages only: PATCH is not a method of them.
    const patch = await call(stack.url, "PATCH", new URL(waybillUrl).pathname, {
      token: carrier,
      body: "{}",
      contentType: LD,
    });
    expect(patch.status, patch.text).toBe(405);
    expect(patch.headers.get("content-type")).toContain("problem+json");
    const never = await oneRecord("/logistics-objects/not-an-id-we-gave", owner);
    expect(never.status).toBe(404);
    expect(never.headers.get("content-type")).toContain("problem+json");
  });

  it("events: a DEP by Cargo-IMP is an ACTUAL event, filtered by event-code, and readable alone", async () => {
    const dep = await message(fsuDep(awb));
    expect(dep.status, dep.text).toBe(200);
    const all = await oneRecord(`${waybillUrl}/logistics-events`, owner);
    expect(all.status, all.text).toBe(200);
    expect(all.body?.["@type"]).toBe("api:Collection");
    const items = all.body?.["api:hasItem"] as JsonObject[];
    expect(items.length).toBeGreaterThan(1);
    expect(obj(all.body?.["api:hasTotalItems"])["@value"]).toBe(String(items.length));

    const deps = await oneRecord(`${waybillUrl}/logistics-events?event-code=DEP`, owner);
    const depItems = deps.body?.["api:hasItem"] as JsonObject[];
    expect(depItems.length).toBeGreaterThan(0);
    expect(depItems.length).toBeLessThan(items.length);
    const actual = depItems.find((item) => obj(item["cargo:eventTimeType"])["@id"] === "cargo:ACTUAL");
    expect(actual?.["cargo:eventCode"]).toEqual({
      "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#DEP",
    });
    expect(obj(actual?.["cargo:eventDate"])["@value"]).toBe(iso(depActual));

    const one = await oneRecord(String(actual?.["@id"]), owner);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ "@id": actual?.["@id"], "@type": "cargo:LogisticsEvent" });
    expect((await oneRecord(`${waybillUrl}/logistics-events/no-such-event`, owner)).status).toBe(404);
    expect((await oneRecord(`${waybillUrl}/logistics-events?limit=0`, owner)).status).toBe(400);
  });
});

describe("a carrier's event posted to {lo}/logistics-events", () => {
  const post = (path: string, body: string, token = carrier) =>
    call(stack.url, "POST", path, { token, body, contentType: `${LD}; version=2.3.0` });

  it("changes the route map exactly like the same FSU DEP, and answers 201 with the event's Location", async () => {
    const control = await prepared(1400002);
    const direct = await prepared(1400003);
    const before = { control: await routeMapOf(control), direct: await routeMapOf(direct) };

    const fsu = await message(fsuDep(control));
    expect(fsu.status, fsu.text).toBe(200);

    const shipmentUrl = `${stack.url}/onerecord/logistics-objects/${objectId("Shipment", { prefix: "020", serial: direct })}`;
    const path = new URL(`${shipmentUrl}/logistics-events`).pathname;
    const posted = await post(path, JSON.stringify(depEvent(), null, 2));
    expect(posted.status, posted.text).toBe(201);
    const location = posted.headers.get("location") ?? "";
    expect(location).toContain(`${shipmentUrl}/logistics-events/dep-fra-1-actual`);

    const expected = change(before.control, await routeMapOf(control));
    expect(Object.keys(expected).some((key) => key.includes("ActualDateTime"))).toBe(true);
    expect(change(before.direct, await routeMapOf(direct))).toEqual(expected);

    const read = await oneRecord(location, carrier);
    expect(read.status, read.text).toBe(200);
    expect(obj(read.body?.["cargo:eventDate"])["@value"]).toBe(iso(depActual));
  });

  it("refuses another carrier's AWB (403), an id never issued (404), a forwarder (403), bad JSON-LD (400)", async () => {
    const alias = await oneRecord(`/logistics-objects/awb-020-${awb}`, carrier);
    const path = `${new URL(alias.headers.get("location") ?? "").pathname}/logistics-events`;
    const event = JSON.stringify(depEvent());
    expect((await post(path, event, tokens.carrier("057"))).status).toBe(403);
    expect((await post(path, event, owner)).status).toBe(403);
    expect((await post("/onerecord/logistics-objects/nothing/logistics-events", event)).status).toBe(404);
    const bad = await post(path, '{"@type": "cargo:LogisticsEvent"}');
    expect(bad.status, bad.text).toBe(400);
    expect(bad.headers.get("content-type")).toContain("problem+json");
  });
});
