import { describe, expect, it } from "vitest";
import { objectId } from "../../../functions/core/one-record-server/ids.ts";
import {
  callbackOf,
  eventIndexKeys,
  type OneRecordSubscription,
  proposedSubscription,
  readSubscription,
  subscriptionHears,
  subscriptionIndexKeys,
} from "../../../functions/core/one-record-server/subscriptions.ts";
import { makeEvent, NOW, OWNER, STRANGER, XTD } from "../notifications/helpers.ts";

const links = { base: "https://api.example.com/onerecord" };
const AWB = { prefix: "020", serial: "12345675" };
const WAYBILL = `${links.base}/logistics-objects/${objectId("Waybill", AWB)}`;
const API = "https://onerecord.iata.org/ns/api#";

/** The shape of the IATA unit-test collection's "Subscribe to a Logistics Object" body. */
function body(overrides: Record<string, unknown> = {}) {
  return {
    "@context": { cargo: "https://onerecord.iata.org/ns/cargo#", api: API },
    "@type": "api:Subscription",
    "api:hasContentType": "application/ld+json",
    "api:hasSubscriber": { "@id": "https://forwarder.example/1r/logistics-objects/acme" },
    "api:hasTopicType": { "@id": "api:LOGISTICS_OBJECT_IDENTIFIER" },
    "api:includeSubscriptionEventType": [
      { "@id": "api:LOGISTICS_OBJECT_UPDATED" },
      { "@id": "api:LOGISTICS_OBJECT_CREATED" },
      { "@id": "api:LOGISTICS_EVENT_RECEIVED" },
    ],
    "api:hasTopic": { "@type": "http://www.w3.org/2001/XMLSchema#anyURI", "@value": WAYBILL },
    ...overrides,
  };
}

function subscription(overrides: Partial<OneRecordSubscription> = {}): OneRecordSubscription {
  const read = readSubscription(body(), links, NOW);
  if (!read.ok) throw new Error(read.detail);
  return {
    ...read.value,
    id: 7,
    owner: OWNER,
    serverBase: links.base,
    requestedAt: NOW,
    status: "REQUEST_ACCEPTED",
    revokedAt: null,
    ...overrides,
  };
}

describe("reading a subscriber's api:Subscription", () => {
  it("reads the collection's body: topic, callback and event types", () => {
    const read = readSubscription(body(), links, NOW);
    expect(read).toEqual({
      ok: true,
      value: {
        subscriberIri: "https://forwarder.example/1r/logistics-objects/acme",
        callbackUrl: "https://forwarder.example/1r/notifications",
        topic: { kind: "object", objectType: "Waybill", awb: AWB, leg: 0 },
        eventTypes: ["LOGISTICS_OBJECT_CREATED", "LOGISTICS_OBJECT_UPDATED", "LOGISTICS_EVENT_RECEIVED"],
        eventCodes: null,
        expiresAt: null,
        sendBody: false,
      },
    });
  });

  it("reads full IRIs, the awb- alias, a type topic, expiresAt and the event-code extension", () => {
    const alias = readSubscription(
      {
        "@type": `${API}Subscription`,
        [`${API}hasSubscriber`]: { "@id": "https://f.example/logistics-objects/o" },
        [`${API}hasTopicType`]: { "@id": `${API}LOGISTICS_OBJECT_IDENTIFIER` },
        [`${API}hasTopic`]: `${links.base}/logistics-objects/awb-020-12345675`,
        [`${API}expiresAt`]: { "@value": "2026-04-01T00:00:00Z" },
        [`${API}sendLogisticsObjectBody`]: true,
        "https://route-map-tracker.dev/ns/onerecord#hasEventCode": [
          "DEP",
          { "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#ARR" },
        ],
      },
      links,
      NOW,
    );
    expect(alias.ok && alias.value).toMatchObject({
      topic: { kind: "object", objectType: "Waybill", awb: AWB },
      expiresAt: "2026-04-01T00:00:00Z",
      sendBody: true,
      eventCodes: ["DEP", "ARR"],
      eventTypes: ["LOGISTICS_OBJECT_CREATED", "LOGISTICS_OBJECT_UPDATED", "LOGISTICS_EVENT_RECEIVED"],
    });
    const type = readSubscription(
      body({
        "api:hasTopicType": { "@id": "api:LOGISTICS_OBJECT_TYPE" },
        "api:hasTopic": { "@value": "https://onerecord.iata.org/ns/cargo#Shipment" },
      }),
      links,
      NOW,
    );
    expect(type.ok && type.value.topic).toEqual({ kind: "type", objectType: "Shipment" });
  });

  it.each([
    [
      "another server's object",
      { "api:hasTopic": { "@value": "https://elsewhere.example/logistics-objects/x" } },
      "topic",
    ],
    ["a Location", { "api:hasTopic": { "@value": `${links.base}/logistics-objects/FRA` } }, "topic"],
    [
      "a class we do not publish",
      {
        "api:hasTopicType": { "@id": "api:LOGISTICS_OBJECT_TYPE" },
        "api:hasTopic": { "@value": "https://onerecord.iata.org/ns/cargo#Piece" },
      },
      "topic",
    ],
    [
      "a subscriber that is no server's object",
      { "api:hasSubscriber": { "@id": "mailto:ops@forwarder.example" } },
      "hasSubscriber",
    ],
    ["an unknown topic type", { "api:hasTopicType": { "@id": "api:EVERYTHING" } }, "hasTopicType"],
    [
      "an unknown event type",
      { "api:includeSubscriptionEventType": [{ "@id": "api:ACCESS_DELEGATION_REQUEST" }] },
      "includeSubscriptionEventType",
    ],
    ["an expiry in the past", { "api:expiresAt": { "@value": "2026-03-01T00:00:00Z" } }, "expiresAt"],
    ["another content type", { "api:hasContentType": "application/xml" }, "hasContentType"],
    ["an event code that is none", { "rmt:hasEventCode": ["departed"] }, "hasEventCode"],
    ["another type", { "@type": "api:Notification" }, "@type"],
  ])("refuses %s, naming the field", (_name, overrides, field) => {
    const read = readSubscription(body(overrides), links, NOW);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.detail).toContain(field);
  });

  it("finds the subscriber's server from its organization's IRI", () => {
    expect(callbackOf("https://f.example/a/b/logistics-objects/org-1")).toBe(
      "https://f.example/a/b/notifications",
    );
    expect(callbackOf("https://f.example/org-1")).toBeNull();
  });
});

describe("which events a subscription hears", () => {
  const event = makeEvent({ recordedAt: "2026-03-14T12:41:30Z" });

  it("its AWB's events, as LOGISTICS_EVENT_RECEIVED, for the owner agent and an XTD forwarder", () => {
    expect(subscriptionHears(subscription(), event, NOW)).toBe("LOGISTICS_EVENT_RECEIVED");
    const xtd = { ...event, audience: { ownerAgent: null, xtdForwarders: [XTD.forwarderId] } };
    expect(subscriptionHears(subscription({ owner: XTD }), xtd, NOW)).toBe("LOGISTICS_EVENT_RECEIVED");
  });

  it("never another forwarder's AWB, another AWB, a revoked, expired or later subscription", () => {
    expect(subscriptionHears(subscription({ owner: STRANGER }), event, NOW)).toBeNull();
    expect(
      subscriptionHears(subscription(), { ...event, awb: { prefix: "020", serial: "11111111" } }, NOW),
    ).toBeNull();
    expect(subscriptionHears(subscription({ status: "REQUEST_REVOKED" }), event, NOW)).toBeNull();
    expect(subscriptionHears(subscription({ expiresAt: "2026-03-14T12:00:00Z" }), event, NOW)).toBeNull();
    expect(subscriptionHears(subscription({ requestedAt: "2026-03-14T12:42:00Z" }), event, NOW)).toBeNull();
    expect(subscriptionHears(subscription(), { ...event, type: "Missed" }, NOW)).toBeNull();
  });

  it("the event-code extension narrows event notifications only", () => {
    const arrOnly = subscription({ eventCodes: ["ARR"] });
    expect(subscriptionHears(arrOnly, event, NOW)).toBeNull();
    expect(subscriptionHears(arrOnly, { ...event, name: "ARR" }, NOW)).toBe("LOGISTICS_EVENT_RECEIVED");
    const plan = { ...event, name: "RMP" as const, eventStatus: "Creation" as const };
    expect(subscriptionHears(arrOnly, plan, NOW)).toBe("LOGISTICS_OBJECT_CREATED");
    expect(subscriptionHears(arrOnly, { ...plan, eventStatus: "Replan" }, NOW)).toBe(
      "LOGISTICS_OBJECT_UPDATED",
    );
  });

  it("without event notifications, a new event is an update of the object", () => {
    const updates = subscription({ eventTypes: ["LOGISTICS_OBJECT_UPDATED"] });
    expect(subscriptionHears(updates, event, NOW)).toBe("LOGISTICS_OBJECT_UPDATED");
    expect(
      subscriptionHears(subscription({ eventTypes: ["LOGISTICS_OBJECT_CREATED"] }), event, NOW),
    ).toBeNull();
  });

  it("an event's lookup keys hold exactly the subscriptions of its audience", () => {
    const keys = new Set(eventIndexKeys(event));
    expect(subscriptionIndexKeys(subscription()).some((k) => keys.has(k))).toBe(true);
    const type = subscription({ topic: { kind: "type", objectType: "Waybill" } });
    expect(subscriptionIndexKeys(type).some((k) => keys.has(k))).toBe(true);
    expect(subscriptionIndexKeys(subscription({ owner: STRANGER })).some((k) => keys.has(k))).toBe(false);
    const other = subscription({
      topic: { kind: "object", objectType: "Waybill", awb: { prefix: "020", serial: "11111111" }, leg: 0 },
    });
    expect(subscriptionIndexKeys(other).some((k) => keys.has(k))).toBe(false);
  });
});

describe("the Subscription the service proposes", () => {
  it("answers a logistics object or class, refuses what is neither", () => {
    const shipment = proposedSubscription(
      links,
      `${API}LOGISTICS_OBJECT_TYPE`,
      "https://onerecord.iata.org/ns/cargo#Shipment",
    );
    expect(shipment.ok && shipment.value).toMatchObject({
      "@type": "api:Subscription",
      "api:hasTopicType": { "@id": "api:LOGISTICS_OBJECT_TYPE" },
      "api:hasTopic": { "@value": "https://onerecord.iata.org/ns/cargo#Shipment" },
      "api:hasSubscriber": { "@id": `${links.base}/#data-holder` },
    });
    expect(
      proposedSubscription(
        links,
        `${API}LOGISTICS_OBJECT_IDENTIFIER`,
        "https://carrier.example/logistics-objects/1",
      ).ok,
    ).toBe(true);
    expect(
      proposedSubscription(links, `${API}LOGISTICS_OBJECT_TYPE`, "https://onerecord.iata.org/ns/cargo#Value")
        .ok,
    ).toBe(false);
    expect(proposedSubscription(links, `${API}LOGISTICS_OBJECT_TYPE`, null).ok).toBe(false);
    expect(proposedSubscription(links, null, "https://onerecord.iata.org/ns/cargo#Shipment").ok).toBe(false);
  });
});
