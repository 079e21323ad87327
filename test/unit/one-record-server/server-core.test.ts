/**
 * The ONE Record server's pure core: ids (stable, carrying AWB and kind, refusing what was never issued),
 * the objects and events derived from a route map built by the real applyReport and renderRouteMap,
 * the event filters, instants, and the posted event read with the URL's Waybill.
 */
import { describe, expect, it } from "vitest";
import { parseOneRecordEvents } from "../../../functions/core/carrier-messages/one-record/events.ts";
import { deriveEvents, eventObject, filterEvents } from "../../../functions/core/one-record-server/events.ts";
import {
  MAX_LEGS,
  objectId,
  parseAwbAlias,
  parseObjectId,
} from "../../../functions/core/one-record-server/ids.ts";
import {
  shipment,
  transportIdentifier,
  transportMovement,
  waybill,
} from "../../../functions/core/one-record-server/objects.ts";
import { parseInstant, serverInformation } from "../../../functions/core/one-record-server/server-info.ts";
import { applyReport } from "../../../functions/core/route-map/apply-report.ts";
import { DEFAULT_PLANNING_CONFIG } from "../../../functions/core/route-map/planning-config.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { ShipmentState } from "../../../functions/core/route-map/shipment-state.ts";
import type { RouteMap } from "../../../functions/core/route-map/spec-types.ts";
import { at, booking, FLIGHT, fwb, NOW, status } from "../route-map/fixtures.ts";

const links = { base: "https://api.example.com/onerecord" };
const AWB = { prefix: "020", serial: "12345675" };

function routeMap(): RouteMap {
  let state: ShipmentState | null = null;
  const reports = [
    booking([FLIGHT]),
    fwb(),
    status("DEP", "CGN", at(22, 11, "1310"), { carrierCode: "LH", flightNumber: "400" }),
  ];
  for (const report of reports)
    state = applyReport(
      state,
      { ...report, origin: "CGN" },
      { receivedAt: NOW, carrier: DEFAULT_PLANNING_CONFIG },
    ).state;
  if (state === null) throw new Error("no state");
  return renderRouteMap(state, NOW) as RouteMap;
}

describe("logistics-object ids", () => {
  it("are stable UUIDs that carry the AWB, the kind and the leg", () => {
    const id = objectId("TransportMovement", AWB, 3);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(objectId("TransportMovement", AWB, 3)).toBe(id);
    expect(parseObjectId(id)).toEqual({ kind: "TransportMovement", awb: AWB, leg: 3 });
    expect(parseObjectId(objectId("Waybill", AWB))).toEqual({ kind: "Waybill", awb: AWB, leg: 0 });
    expect(objectId("Shipment", AWB)).not.toBe(objectId("Waybill", AWB));
    expect(objectId("Waybill", { prefix: "020", serial: "12345686" })).not.toBe(objectId("Waybill", AWB));
  });

  it("refuse what the service never issued: a bad check digit, a leg out of range, another layout", () => {
    const waybillId = objectId("Waybill", AWB);
    expect(parseObjectId(waybillId.replace("12345675".slice(0, 1), "9"))).toBeNull();
    expect(parseObjectId(objectId("Waybill", { prefix: "020", serial: "12345676" }))).toBeNull();
    expect(parseObjectId(objectId("TransportMovement", AWB, MAX_LEGS + 1))).toBeNull();
    expect(parseObjectId(objectId("TransportMovement", AWB, 0))).toBeNull();
    expect(parseObjectId("3f2504e0-4f89-41d3-9a0c-0305e82c3301")).toBeNull();
    expect(parseObjectId("FRA")).toEqual({ kind: "Location", code: "FRA" });
    expect(parseObjectId("fra")).toBeNull();
  });

  it("read the good practice's awb- alias only with a valid serial", () => {
    expect(parseAwbAlias("awb-020-12345675")).toEqual(AWB);
    expect(parseAwbAlias("awb-020-12345676")).toBeNull();
    expect(parseAwbAlias("awb-20-12345675")).toBeNull();
  });
});

describe("objects of a route map", () => {
  const map = routeMap();

  it("a MASTER Waybill linking its Shipment and Locations, embedded on request", () => {
    const linked = waybill(links, map);
    expect(linked["cargo:waybillNumber"]).toBe("12345675");
    expect(linked["cargo:departureLocation"]).toEqual({ "@id": `${links.base}/logistics-objects/CGN` });
    expect(linked["cargo:shipment"]).toEqual({
      "@id": `${links.base}/logistics-objects/${objectId("Shipment", AWB)}`,
    });
    const embedded = waybill(links, map, true);
    expect((embedded["cargo:departureLocation"] as { "@type": string })["@type"]).toBe("cargo:Location");
    expect((embedded["cargo:shipment"] as { "@type": string })["@type"]).toBe("cargo:Shipment");
  });

  it("a Shipment with its totals (weight in KGM, the piece count as our extension)", () => {
    const body = shipment(links, map);
    expect(body["rmt:totalPieceCount"]).toBe(10);
    expect(body["cargo:totalGrossWeight"]).toMatchObject({ "cargo:numericalValue": 250 });
    expect(JSON.stringify(body["cargo:totalGrossWeight"])).toContain("MeasurementUnitCode#KGM");
  });

  it("a TransportMovement per leg, named like LH400/22NOV2026, none past the last leg", () => {
    const flight = map.MilestonePlan.RoutingCycle.Flight[0];
    if (flight === undefined) throw new Error("no flight");
    expect(transportIdentifier(flight)).toBe("LH400/22NOV2026");
    const movement = transportMovement(links, map, 1);
    expect(movement?.["cargo:transportIdentifier"]).toBe("LH400/22NOV2026");
    const times = JSON.stringify(movement?.["cargo:movementTimes"]);
    expect(times).toContain("cargo:SCHEDULED");
    expect(times).toContain("cargo:ACTUAL");
    expect(transportMovement(links, map, 2)).toBeNull();
  });
});

describe("events of a route map", () => {
  const map = routeMap();
  const events = deriveEvents(map);
  const none = {
    eventCode: null,
    createdAfter: null,
    createdBefore: null,
    occurredAfter: null,
    occurredBefore: null,
    sort: "asc" as const,
    limit: 100,
    skip: 0,
  };

  it("the actual DEP and the plan, with stable ids", () => {
    const dep = events.filter((event) => event.code === "DEP");
    expect(dep.map((event) => event.id).sort()).toEqual(["dep-cgn-1-actual", "dep-cgn-1-planned"]);
    expect(dep.find((event) => event.timeType === "ACTUAL")?.leg).toBe(1);
  });

  it("filter by code, occurrence and paging; sort by eventDate", () => {
    expect(filterEvents(events, { ...none, eventCode: "DEP" }).total).toBe(2);
    const all = filterEvents(events, none);
    expect(all.total).toBe(events.length);
    const dates = all.items.map((event) => Date.parse(event.eventDate));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    const desc = filterEvents(events, { ...none, sort: "desc" }).items.map((event) => event.id);
    expect(desc).toEqual(all.items.map((event) => event.id).reverse());
    const page = filterEvents(events, { ...none, skip: 1, limit: 2 });
    expect(page.items.map((event) => event.id)).toEqual(all.items.slice(1, 3).map((event) => event.id));
    expect(page.total).toBe(events.length);
    const after = filterEvents(events, { ...none, occurredAfter: "2026-11-22T12:05:00Z" });
    expect(
      after.items.every((event) => Date.parse(event.eventDate) > Date.parse("2026-11-22T12:05:00Z")),
    ).toBe(true);
    expect(after.total).toBeLessThan(events.length);
  });

  it("as JSON-LD: StatusCode elements, our own code list for FWB, ACTUAL/PLANNED, the movement", () => {
    const owner = { kind: "Waybill" as const, leg: 0 };
    const dep = events.find((event) => event.id === "dep-cgn-1-actual");
    const fwbEvent = events.find((event) => event.code === "FWB");
    if (dep === undefined || fwbEvent === undefined) throw new Error("missing events");
    const body = eventObject(links, map, owner, dep, null);
    expect(body["cargo:eventCode"]).toEqual({
      "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#DEP",
    });
    expect(body["cargo:eventTimeType"]).toEqual({ "@id": "cargo:ACTUAL" });
    expect(body["cargo:transportMovementReference"]).toEqual({
      "@id": `${links.base}/logistics-objects/${objectId("TransportMovement", AWB, 1)}`,
    });
    expect(body["cargo:recordingOrganization"]).toBeUndefined();
    const own = eventObject(links, map, owner, fwbEvent, `${links.base}/#data-holder`)["cargo:eventCode"];
    expect(own).toMatchObject({ "cargo:code": "FWB", "cargo:codeListName": "Route Map Tracker milestones" });
  });
});

describe("server information and instants", () => {
  it("names every 2.x API version from 2.0.0, JSON-LD, and the ontologies", () => {
    const info = serverInformation(links.base, "Route Map Tracker");
    expect(info["api:hasSupportedApiVersion"]).toEqual(["2.0.0", "2.1.0", "2.2.0", "2.3.0"]);
    expect(info["api:hasSupportedContentType"]).toEqual(["application/ld+json"]);
    expect(JSON.stringify(info["api:hasSupportedOntology"])).toContain(
      "https://onerecord.iata.org/ns/cargo/3.3.0",
    );
  });

  it("reads basic and extended ISO 8601 instants, refuses the rest", () => {
    expect(parseInstant("20190926T075830Z")).toBe("2019-09-26T07:58:30Z");
    expect(parseInstant("2027-03-14T13:00:00+01:00")).toBe("2027-03-14T12:00:00Z");
    expect(parseInstant("2027-02-30T12:00:00Z")).not.toBe("2027-02-30T12:00:00Z");
    expect(parseInstant("yesterday")).toBeNull();
  });
});

describe("a posted event read with the URL's Waybill", () => {
  const event = {
    "@context": { cargo: "https://onerecord.iata.org/ns/cargo#" },
    "@type": "cargo:LogisticsEvent",
    "cargo:eventCode": { "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#RCS" },
    "cargo:eventDate": { "@value": "2026-11-22T09:00:00Z" },
    "cargo:eventLocation": { "cargo:locationCodes": [{ "cargo:code": "CGN" }] },
  };

  it("needs no eventFor, and ignores the one it names", () => {
    const waybillOf = { awb: AWB, origin: "CGN", destination: "JFK" };
    const [report] = parseOneRecordEvents(event, undefined, { waybill: waybillOf });
    expect(report).toMatchObject({ kind: "status", status: "RCS", station: "CGN", awb: AWB, origin: "CGN" });
    expect(() => parseOneRecordEvents(event)).toThrow(/eventFor|Waybill/);
  });
});
