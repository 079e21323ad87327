/**
 * ONE Record in: a LogisticsEvent posted directly as application/ld+json, and
 * one announced by a Notification and fetched from a local publisher (a node:http server checking the
 * bearer token), each change the route map exactly like the equivalent FSU DEP line fed to a control
 * AWB. The events are the fixtures under test/fixtures/onerecord (README there), moved to now.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, iso, local, MINUTE, minuteNow, partitionItems } from "./route-map-helpers.ts";

let stack: RunningStack;
let publisher: Server;
let publisherUrl = "";
const carrier = tokens.carrier("020");
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const PUBLISHER_TOKEN = "publisher-bearer-token-0001";

const N = minuteNow();
const std = N - 2 * HOUR;
const sta = N + 6 * HOUR;
const depActual = N - 100 * MINUTE;

/** A valid AWB serial: 7 digits and their mod-7 check digit. */
const serial = (seven: number) => `${String(seven).padStart(7, "0")}${seven % 7}`;

/** What the publisher serves, by path; `down` answers 503 to everything. */
const served = new Map<string, string>();
const requests: { path: string; authorization: string | undefined }[] = [];
let down = false;

type JsonObject = Record<string, unknown>;
const fixture = (name: string): JsonObject =>
  JSON.parse(readFileSync(new URL(`../fixtures/onerecord/${name}`, import.meta.url), "utf8")) as JsonObject;
const obj = (value: unknown) => value as JsonObject;

/** The DEP StatusUpdateEvent fixture for one AWB, moved to today's flight. */
function depEvent(awbSerial: string, id: string): JsonObject {
  const event = fixture("status-update-event-dep.jsonld");
  event["@id"] = id;
  obj(event["cargo:eventDate"])["@value"] = iso(depActual);
  const waybill = obj(obj(event["cargo:eventFor"])["cargo:waybill"]);
  waybill["cargo:waybillNumber"] = awbSerial;
  const movement = obj(event["cargo:transportMovementReference"]);
  const times = movement["cargo:movementTimes"] as JsonObject[];
  obj(times[0]?.["cargo:movementTimestamp"])["@value"] = `${local("FRA", std).jsonForm}:00`;
  return event;
}

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
const fsuDep = (awbSerial: string) => {
  const flight = local("FRA", std);
  const t = local("FRA", depActual);
  return `FSU/13\n020-${awbSerial}FRAJFK/T10K250.0\nDEP/LH400/${flight.ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}\n`;
};

const post = (body: string, contentType: string) =>
  call(stack.url, "POST", "/carrier/messages", { token: carrier, body, contentType });
const notify = (notification: unknown) =>
  call(stack.url, "POST", "/onerecord/notifications", {
    token: carrier,
    body: JSON.stringify(notification),
    contentType: "application/ld+json; version=2.3.0",
  });

/** A booked, FWB'd AWB the forwarder ACMECARGO may read. */
async function prepared(seven: number): Promise<string> {
  const awbSerial = serial(seven);
  const bkd = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    json: booking(awbSerial),
  });
  expect(bkd.status, bkd.text).toBe(200);
  const fwbAnswer = await post(fwb(awbSerial), "text/plain");
  expect(fwbAnswer.status, fwbAnswer.text).toBe(200);
  return awbSerial;
}

/** The route map as the owner reads it, flattened to path -> value, the AWB number neutralised. */
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

/** What a message changed in a route map: each path whose value differs, with its new value. */
function change(before: Map<string, unknown>, after: Map<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    // When the message arrived (LastUpdate, to the second) differs between the AWBs: not compared.
    if (before.get(path) === after.get(path) || path.startsWith("/LastUpdate")) continue;
    changed[path] = after.get(path) ?? "(removed)";
  }
  return changed;
}

function notificationFor(eventIri: string, objectIri: string) {
  const notification = fixture("notification-logistics-event-received.jsonld");
  obj(notification["api:hasLogisticsObject"])["@id"] = objectIri;
  obj(notification["api:hasLogisticsEvent"])["@id"] = eventIri;
  return notification;
}

beforeAll(async () => {
  publisher = createServer((request, response) => {
    const path = request.url ?? "";
    requests.push({ path, authorization: request.headers.authorization });
    if (down) {
      response.writeHead(503).end();
      return;
    }
    if (request.headers.authorization !== `Bearer ${PUBLISHER_TOKEN}`) {
      response.writeHead(401, { "content-type": "application/ld+json" }).end("{}");
      return;
    }
    const body = served.get(path);
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/ld+json; version=2.3.0" }).end(body);
  });
  await new Promise<void>((resolve) => publisher.listen(0, "127.0.0.1", resolve));
  publisherUrl = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}`;
  stack = await startRunner();
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: {
      Name: "Lufthansa Cargo",
      QualityProgram: true,
      Xtd: true,
      OneRecord: { ServerUrl: `${publisherUrl}/`, Token: PUBLISHER_TOKEN },
    },
  });
  expect(put.status, put.text).toBe(200);
  // The token is never shown again in full.
  expect((put.body as { OneRecord: unknown }).OneRecord).toEqual({
    ServerUrl: `${publisherUrl}/`,
    Token: `••••${PUBLISHER_TOKEN.slice(-4)}`,
  });
}, scaled(60_000));

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => publisher?.close(resolve));
});

describe("ONE Record LogisticsEvents change route maps like the FSU line", () => {
  it("posted directly and announced by a Notification: the same route-map change as FSU DEP", async () => {
    const control = await prepared(1300001);
    const direct = await prepared(1300002);
    const notified = await prepared(1300003);

    const before = {
      control: await routeMapOf(control),
      direct: await routeMapOf(direct),
      notified: await routeMapOf(notified),
    };
    const fsu = await post(fsuDep(control), "text/plain");
    expect(fsu.status, fsu.text).toBe(200);
    const fsuEvents = (fsu.body as { Applied: { Events: string[] }[] }).Applied[0]?.Events;
    expect(fsuEvents).toContain("DEP");

    const directEvent = depEvent(
      direct,
      `${publisherUrl}/logistics-objects/s-${direct}/logistics-events/dep`,
    );
    const ld = await post(JSON.stringify(directEvent, null, 2), "application/ld+json; version=2.3.0");
    expect(ld.status, ld.text).toBe(200);
    expect(ld.body).toEqual({ Applied: [{ AwbNumber: `020-${direct}`, Changed: true, Events: fsuEvents }] });

    const objectIri = `${publisherUrl}/logistics-objects/s-${notified}`;
    const eventIri = `${objectIri}/logistics-events/dep`;
    served.set(new URL(eventIri).pathname, JSON.stringify(depEvent(notified, eventIri), null, 2));
    const answer = await notify(notificationFor(eventIri, objectIri));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      EventType: "LOGISTICS_EVENT_RECEIVED",
      Fetched: [eventIri],
      Applied: [{ AwbNumber: `020-${notified}`, Changed: true, Events: fsuEvents }],
    });
    expect(requests.at(-1)).toEqual({
      path: new URL(eventIri).pathname,
      authorization: `Bearer ${PUBLISHER_TOKEN}`,
    });

    const expected = change(before.control, await routeMapOf(control));
    expect(Object.keys(expected).some((path) => path.includes("ActualDateTime"))).toBe(true);
    expect(change(before.direct, await routeMapOf(direct))).toEqual(expected);
    expect(change(before.notified, await routeMapOf(notified))).toEqual(expected);

    // The same notification again changes nothing.
    const again = await notify(notificationFor(eventIri, objectIri));
    expect((again.body as { Applied: unknown }).Applied).toEqual([
      { AwbNumber: `020-${notified}`, Changed: false, Events: [] },
    ]);
  });

  it("LOGISTICS_OBJECT_UPDATED fetches the object's event list (an api:Collection)", async () => {
    const awbSerial = await prepared(1300004);
    const objectIri = `${publisherUrl}/logistics-objects/s-${awbSerial}`;
    const item = depEvent(awbSerial, `${objectIri}/logistics-events/dep`);
    const collection = {
      "@context": {
        cargo: "https://onerecord.iata.org/ns/cargo#",
        api: "https://onerecord.iata.org/ns/api#",
      },
      "@id": `${objectIri}/logistics-events`,
      "@type": "api:Collection",
      "api:hasTotalItems": 1,
      "api:hasItem": [item],
    };
    served.set(`/logistics-objects/s-${awbSerial}/logistics-events`, JSON.stringify(collection));
    const notification = fixture("notification-logistics-object-updated.jsonld");
    obj(notification["api:hasLogisticsObject"])["@id"] = objectIri;
    const answer = await notify(notification);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      EventType: "LOGISTICS_OBJECT_UPDATED",
      Fetched: [`${objectIri}/logistics-events`],
      Applied: [{ AwbNumber: `020-${awbSerial}`, Changed: true }],
    });
  });

  it("a publisher that is down: 503 with Retry-After, nothing stored; the retry then applies", async () => {
    const awbSerial = await prepared(1300005);
    const objectIri = `${publisherUrl}/logistics-objects/s-${awbSerial}`;
    const eventIri = `${objectIri}/logistics-events/dep`;
    served.set(new URL(eventIri).pathname, JSON.stringify(depEvent(awbSerial, eventIri)));
    const before = await partitionItems(stack.dynamoEndpoint, `020${awbSerial}`, "");
    down = true;
    const refused = await notify(notificationFor(eventIri, objectIri));
    down = false;
    expect(refused.status, refused.text).toBe(503);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await partitionItems(stack.dynamoEndpoint, `020${awbSerial}`, "")).toEqual(before);
    const retried = await notify(notificationFor(eventIri, objectIri));
    expect(retried.status, retried.text).toBe(200);
    expect((retried.body as { Applied: { Changed: boolean }[] }).Applied[0]?.Changed).toBe(true);
  });

  it("refuses IRIs outside the carrier's ONE Record server (422) and bad events (400 naming the path)", async () => {
    const awbSerial = serial(1300006);
    const outside = await notify(
      notificationFor(
        "http://127.0.0.1:9/logistics-objects/x/logistics-events/y",
        `${publisherUrl}/logistics-objects/x`,
      ),
    );
    expect(outside.status, outside.text).toBe(422);
    expect((outside.body as { errors: { field: string }[] }).errors[0]?.field).toMatch(
      /api:hasLogisticsEvent$/,
    );

    const bad = depEvent(awbSerial, `${publisherUrl}/x`);
    // The check digit of 1300006 is 1300006 mod 7; one more is wrong.
    const wrong = `1300006${((1300006 % 7) + 1) % 7}`;
    obj(obj(bad["cargo:eventFor"])["cargo:waybill"])["cargo:waybillNumber"] = wrong;
    const refused = await post(JSON.stringify(bad, null, 2), "application/ld+json");
    expect(refused.status, refused.text).toBe(400);
    expect((refused.body as { errors: { field: string }[] }).errors[0]?.field).toMatch(
      /^line \d+: cargo:eventFor\.cargo:waybill\.cargo:waybillNumber$/,
    );
    expect(await partitionItems(stack.dynamoEndpoint, `020${wrong}`, "")).toEqual([]);
  });
});
