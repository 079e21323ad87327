/**
 * The shipment-tracking good practice's documents (test/fixtures/real, byte for byte) delivered as a
 * subscriber receives them: the publisher notifies a change of the Shipment, the service GETs its
 * events (which name neither their object nor their airports, only links), the Shipment, its
 * Waybill and the Location objects, and places the events on AWB 020-12345675 FRA-JFK.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { OneRecordPublisher, PublisherFetchResult } from "../../../functions/core/ports/one-record.ts";
import type { RouteMapHistory } from "../../../functions/core/route-map/spec-types.ts";
import { getRouteMapHistory } from "../../../functions/core/use-cases/get-route-map-history.ts";
import { receiveOneRecordNotification } from "../../../functions/core/use-cases/receive-onerecord-notification.ts";
import { AWB, carrier020, harness, OWNER } from "./support.ts";

const real = (name: string) => readFileSync(new URL(`../../fixtures/real/${name}`, import.meta.url), "utf8");
const context = (name: string) =>
  readFileSync(new URL(`../../fixtures/real-context/gpst/${name}`, import.meta.url), "utf8");

const SERVER = "https://1r.example.com/";
const SHIPMENT = "https://1r.example.com/logistics-objects/8a76ed85-959e-45d5-8c42-5fd39c08efb1";
const WAYBILL = "https://1r.example.com/logistics-objects/1a8ded38-1804-467c-a369-81a411416b7c";
/** After the last event (ARR 14:38Z), as the notification would arrive. */
const NOW = "2023-04-01T14:45:00Z";
const EVENTS = [1, 2, 3, 4, 5].map((n) => `1r-logisticsevent-3.0-gpst-0${n}.json`);

/** GET {object}/logistics-events: an api:Collection holding the event documents as published. */
const collection = (items: string[]) =>
  `{"@context":{"api":"https://onerecord.iata.org/ns/api#"},"@type":"api:Collection",` +
  `"api:hasTotalItems":${items.length},"api:hasItem":[${items.join(",")}]}`;

function publisher(): { publisher: OneRecordPublisher; calls: string[] } {
  const ok = (body: string): PublisherFetchResult => ({ kind: "ok", body });
  const answers: Record<string, PublisherFetchResult> = {
    [SHIPMENT]: ok(context("shipment.json")),
    [`${SHIPMENT}/logistics-events`]: ok(collection(EVENTS.map(real))),
    [WAYBILL]: ok(real("1r-waybill-3.0-gpst-07.json")),
    [`${WAYBILL}/logistics-events`]: ok(collection([])),
    "https://1r.example.com/logistics-objects/FRA": ok(context("location-FRA.json")),
    "https://1r.example.com/logistics-objects/JFK": ok(context("location-JFK.json")),
  };
  const calls: string[] = [];
  return {
    calls,
    publisher: {
      async fetch(url) {
        calls.push(url);
        return answers[url] ?? { kind: "failed", status: 404, reason: "answered 404" };
      },
    },
  };
}

function setup() {
  const h = harness();
  carrier020(h);
  const settings = h.settings.get("020");
  if (settings) h.settings.set("020", { ...settings, oneRecord: { serverUrl: SERVER, token: null } });
  // The reader's XTD grant, given before the route map exists, as a subscriber's forwarder has it.
  void h.routeMaps.putTrigger(
    {
      awb: AWB,
      program: "XTD",
      forwarderId: OWNER.forwarderId,
      agent: { code: OWNER.agentCode, cass: OWNER.agentCass },
      requestedAt: NOW,
    },
    { onlyWithoutRouteMap: true },
  );
  const fake = publisher();
  const deps = { ...h, carrierSettings: h.carriers, publisher: fake.publisher };
  const notify = (object: string) =>
    receiveOneRecordNotification(deps, {
      carrierPrefix: "020",
      body: JSON.stringify({
        "@context": { api: "https://onerecord.iata.org/ns/api#" },
        "@type": "api:Notification",
        "api:hasEventType": { "@id": "api:LOGISTICS_OBJECT_UPDATED" },
        "api:hasLogisticsObject": { "@id": object },
      }),
      now: NOW,
    });
  return { h, notify, calls: fake.calls };
}

async function history(h: ReturnType<typeof harness>): Promise<RouteMapHistory> {
  const page = await getRouteMapHistory(h, { awb: AWB, reader: OWNER, now: NOW, page: 1, pageSize: 100 });
  return JSON.parse(page.json) as RouteMapHistory;
}

describe("ONE Record documents that only link to their context", () => {
  it("a changed Waybill: fetched with its Locations, it is AWB 020-12345675 FRA-JFK", async () => {
    const { h, notify, calls } = setup();
    const outcome = await notify(WAYBILL);
    expect(calls).toEqual([
      `${WAYBILL}/logistics-events`,
      WAYBILL,
      "https://1r.example.com/logistics-objects/JFK",
      "https://1r.example.com/logistics-objects/FRA",
    ]);
    expect(outcome.applied[0]).toMatchObject({ awb: { prefix: "020", serial: "12345675" }, changed: true });
    const read = await history(h);
    expect(read.RouteMap.Shipment.Routing).toMatchObject({ Origin: "FRA", Destination: "JFK" });
  });

  it("a changed Shipment: its events are read through the Shipment's Waybill and the Locations", async () => {
    const { h, notify } = setup();
    await notify(WAYBILL);
    await notify(SHIPMENT);
    const read = await history(h);
    // The route map is the Waybill's; the events' links gave their airports and their AWB. DEP and
    // ARR name no flight (the good practice's TransportMovement is not linked from them), so the
    // route map, which has no leg to put them on, does not show them yet.
    expect(read.RouteMap.Shipment.Routing).toMatchObject({ Origin: "FRA", Destination: "JFK" });
    const codes = read.StatusMessages.map((m) => `${m.Code} ${m.Station}`);
    expect(codes).toEqual(expect.arrayContaining(["BKD FRA", "FOH FRA"]));
    const times = read.StatusMessages.map((m) => m.DateTime.Utc).sort();
    expect(times).toEqual(expect.arrayContaining(["2023-04-01T06:38:00Z", "2023-04-01T06:42:00Z"]));
  });

  it("an event whose object names no AWB is still refused, naming the event's document", async () => {
    const h = harness();
    carrier020(h);
    const settings = h.settings.get("020");
    if (settings) h.settings.set("020", { ...settings, oneRecord: { serverUrl: SERVER, token: null } });
    const publisher: OneRecordPublisher = {
      async fetch(url) {
        if (url === `${SHIPMENT}/logistics-events`)
          return { kind: "ok", body: collection([real(EVENTS[2] ?? "")]) };
        if (url === SHIPMENT) return { kind: "ok", body: '{"@type":"Shipment"}' };
        return { kind: "ok", body: context("location-FRA.json") };
      },
    };
    const deps = { ...h, carrierSettings: h.carriers, publisher };
    await expect(
      receiveOneRecordNotification(deps, {
        carrierPrefix: "020",
        body: JSON.stringify({
          "@context": { api: "https://onerecord.iata.org/ns/api#" },
          "api:hasEventType": { "@id": "api:LOGISTICS_OBJECT_UPDATED" },
          "api:hasLogisticsObject": { "@id": SHIPMENT },
        }),
        now: NOW,
      }),
    ).rejects.toThrow(/logistics-events cannot be used/);
  });
});
