/**
 * ONE Record subscriptions to our objects, end to end on the local runner: a forwarder's client
 * subscribes to one Waybill (its AWB by FWB), a DEP posted as Cargo-IMP reaches its server's
 * /notifications as an api:Notification naming the LogisticsEvent, which it reads back with GET;
 * another forwarder is refused (403); DELETE revokes (nothing more is sent); a receiver that keeps
 * failing gets its retries, then the delivery is parked in the subscription's delivery log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
let receiver: Receiver;
const carrier = tokens.carrier("020");
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const stranger = tokens.forwarder("OTHERFWD", "7654321", "0002");
const LD = "application/ld+json";

const N = minuteNow();
const std = N - 2 * HOUR;
const sta = N + 6 * HOUR;
const depActual = N - 100 * MINUTE;
const serial = (seven: number) => `${String(seven).padStart(7, "0")}${seven % 7}`;

type Json = Record<string, unknown>;
const obj = (value: unknown) => value as Json;

async function prepared(seven: number): Promise<string> {
  const awbSerial = serial(seven);
  const flight = {
    date: local("FRA", std).date,
    dep: local("FRA", std).jsonForm,
    arr: local("JFK", sta).jsonForm,
  };
  const bkd = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    json: {
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
          Date: flight.date,
          Origin: "FRA",
          Destination: "JFK",
          ScheduledDeparture: flight.dep,
          ScheduledArrival: flight.arr,
        },
      ],
    },
  });
  expect(bkd.status, bkd.text).toBe(200);
  const fwb = `FWB/16\n020-${awbSerial}FRAJFK/T10K250.0MC1.5\nAGT//1234567/0001\n/ACME FORWARDING\n`;
  const answer = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    body: fwb,
    contentType: "text/plain",
  });
  expect(answer.status, answer.text).toBe(200);
  return awbSerial;
}

const postDep = async (awbSerial: string) => {
  const t = local("FRA", depActual);
  const fsu = `FSU/13\n020-${awbSerial}FRAJFK/T10K250.0\nDEP/LH400/${local("FRA", std).ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}\n`;
  const answer = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    body: fsu,
    contentType: "text/plain",
  });
  expect(answer.status, answer.text).toBe(200);
};

/** The Waybill's URL as the server names it (the good practice's alias redirects to it, fetch follows). */
async function waybillUrl(awbSerial: string): Promise<string> {
  const alias = await call(stack.url, "GET", `/onerecord/logistics-objects/awb-020-${awbSerial}`, {
    token: owner,
  });
  expect(alias.status, alias.text).toBe(200);
  return String(obj(alias.body)["@id"]);
}

function subscription(subscriberPath: string, topic: string, extra: Json = {}) {
  return {
    "@context": { api: "https://onerecord.iata.org/ns/api#", cargo: "https://onerecord.iata.org/ns/cargo#" },
    "@type": "api:Subscription",
    "api:hasContentType": LD,
    "api:hasSubscriber": { "@id": `${receiver.url}${subscriberPath}/logistics-objects/acme-forwarding` },
    "api:hasTopicType": { "@id": "api:LOGISTICS_OBJECT_IDENTIFIER" },
    "api:includeSubscriptionEventType": [{ "@id": "api:LOGISTICS_EVENT_RECEIVED" }],
    "api:hasTopic": { "@type": "http://www.w3.org/2001/XMLSchema#anyURI", "@value": topic },
    ...extra,
  };
}

const subscribe = (token: string, body: unknown) =>
  call(stack.url, "POST", "/onerecord/subscriptions", { token, body: JSON.stringify(body), contentType: LD });

const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({ DELIVERY_RETRY_SCALE: "0.0001" });
}, scaled(60_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe("ONE Record subscriptions and notifications", () => {
  it(
    "a subscribed Waybill's DEP reaches the subscriber as a Notification whose event GET reads",
    async () => {
      const awb = await prepared(1400001);
      const topic = await waybillUrl(awb);
      expect(topic).toMatch(/\/onerecord\/logistics-objects\/[0-9a-f-]{36}$/);

      const created = await subscribe(owner, subscription("/acme", topic));
      expect(created.status, created.text).toBe(201);
      expect(created.headers.get("type")).toBe("https://onerecord.iata.org/ns/api#SubscriptionRequest");
      const location = created.headers.get("location") ?? "";
      expect(location).toMatch(/\/onerecord\/action-requests\/\d+$/);

      const request = await call(stack.url, "GET", pathOf(location), { token: owner });
      expect(request.status, request.text).toBe(200);
      const requestBody = obj(request.body);
      expect(requestBody["@id"]).toBe(location);
      expect(requestBody["api:hasRequestStatus"]).toEqual({ "@id": "api:REQUEST_ACCEPTED" });
      expect(obj(obj(requestBody["api:hasSubscription"])["api:hasTopic"])["@value"]).toBe(topic);
      // Another forwarder's client does not see it (404 like an unknown one).
      expect((await call(stack.url, "GET", pathOf(location), { token: stranger })).status).toBe(404);

      await postDep(awb);
      await waitFor(() => receiver.postsTo("/acme/notifications").length >= 1, scaled(30_000));
      const [post] = receiver.postsTo("/acme/notifications");
      expect(post?.headers["content-type"]).toBe(LD);
      const notification = JSON.parse(post?.body ?? "{}") as Json;
      expect(notification["@type"]).toBe("api:Notification");
      expect(notification["api:hasEventType"]).toEqual({ "@id": "api:LOGISTICS_EVENT_RECEIVED" });
      expect(notification["api:hasLogisticsObject"]).toEqual({ "@id": topic });
      expect(obj(notification["api:hasLogisticsObjectType"])["@value"]).toBe(
        "https://onerecord.iata.org/ns/cargo#Waybill",
      );
      const eventUrl = String(obj(notification["api:hasLogisticsEvent"])["@id"]);
      expect(eventUrl.startsWith(`${topic}/logistics-events/dep-fra-`)).toBe(true);

      const event = await call(stack.url, "GET", pathOf(eventUrl), { token: owner });
      expect(event.status, event.text).toBe(200);
      expect(obj(event.body)["@id"]).toBe(eventUrl);
      expect(obj(event.body)["cargo:eventTimeType"]).toEqual({ "@id": "cargo:ACTUAL" });

      // The subscriber confirmed with 204: delivered, in the subscription's delivery log.
      const id = location.split("/").pop();
      await waitFor(async () => {
        const log = await call(stack.url, "GET", `/onerecord/action-requests/${id}/deliveries`, {
          token: owner,
        });
        return (log.body as { Items?: { Status: string }[] }).Items?.[0]?.Status === "delivered";
      }, scaled(20_000));

      // Revoked: readable as REQUEST_REVOKED, and the next event sends nothing.
      const revoked = await call(stack.url, "DELETE", pathOf(location), { token: owner });
      expect(revoked.status, revoked.text).toBe(204);
      const after = await call(stack.url, "GET", pathOf(location), { token: owner });
      expect(obj(after.body)["api:hasRequestStatus"]).toEqual({ "@id": "api:REQUEST_REVOKED" });
    },
    scaled(120_000),
  );

  it(
    "refuses another forwarder's Waybill with 403 and a malformed subscription with 400",
    async () => {
      const awb = await prepared(1400002);
      const topic = await waybillUrl(awb);
      const refused = await subscribe(stranger, subscription("/other", topic));
      expect(refused.status, refused.text).toBe(403);
      // Refusals are problem+json, as everywhere in the service.
      expect(refused.headers.get("content-type") ?? "").toContain("application/problem+json");
      const bad = await subscribe(
        owner,
        subscription("/acme", "https://elsewhere.example/logistics-objects/x"),
      );
      expect(bad.status, bad.text).toBe(400);
      // A carrier's client does not subscribe here.
      expect((await subscribe(carrier, subscription("/acme", topic))).status).toBe(403);
    },
    scaled(60_000),
  );

  it(
    "a receiver that keeps failing gets its retries, then the delivery is parked in the log",
    async () => {
      receiver.on("/dead/notifications", { statuses: [503] });
      const awb = await prepared(1400003);
      const created = await subscribe(owner, subscription("/dead", await waybillUrl(awb)));
      expect(created.status, created.text).toBe(201);
      const id = (created.headers.get("location") ?? "").split("/").pop();
      await postDep(awb);
      let parked: { Status: string; Attempts: unknown[] } | undefined;
      await waitFor(async () => {
        const log = await call(stack.url, "GET", `/onerecord/action-requests/${id}/deliveries`, {
          token: owner,
        });
        parked = (log.body as { Items?: { Status: string; Attempts: unknown[] }[] }).Items?.[0];
        return parked?.Status === "parked";
      }, scaled(60_000));
      expect(receiver.postsTo("/dead/notifications").length).toBeGreaterThan(1);
      expect(parked?.Attempts.length).toBe(receiver.postsTo("/dead/notifications").length);
    },
    scaled(120_000),
  );
});
