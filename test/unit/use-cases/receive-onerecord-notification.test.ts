/** POST /onerecord/notifications' use case over memory adapters and a fake publisher. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  MessageParseError,
  OneRecordNotConfiguredError,
  PublisherUnavailableError,
  UnusableLogisticsEventError,
  UnusableReferenceError,
} from "../../../functions/core/errors.ts";
import type { OneRecordPublisher, PublisherFetchResult } from "../../../functions/core/ports/one-record.ts";
import { receiveOneRecordNotification } from "../../../functions/core/use-cases/receive-onerecord-notification.ts";
import { carrier020, harness } from "./support.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/onerecord/${name}`, import.meta.url), "utf8");
const SERVER = "https://1r.carrier.example/";
const OBJECT = "https://1r.carrier.example/logistics-objects/3c0f6a52-shipment-020-12345675";
const EVENT = `${OBJECT}/logistics-events/9b1e0c44-dep-lh400`;
const NOW = "2026-03-14T13:00:00Z";

function setup(answers: Record<string, PublisherFetchResult>, token: string | null = "secret-token-0001") {
  const h = harness();
  carrier020(h);
  const settings = h.settings.get("020");
  if (settings) h.settings.set("020", { ...settings, oneRecord: { serverUrl: SERVER, token } });
  const calls: { url: string; token: string | null }[] = [];
  const publisher: OneRecordPublisher = {
    async fetch(url, bearer) {
      calls.push({ url, token: bearer });
      return answers[url] ?? { kind: "failed", status: 404, reason: "answered 404" };
    },
  };
  const deps = { ...h, carrierSettings: h.carriers, publisher };
  const receive = (body: string) =>
    receiveOneRecordNotification(deps, { carrierPrefix: "020", body, now: NOW });
  return { h, calls, receive };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("receiveOneRecordNotification", () => {
  it("LOGISTICS_EVENT_RECEIVED: fetches the event with the carrier's token and applies it", async () => {
    const { h, calls, receive } = setup({
      [EVENT]: { kind: "ok", body: fixture("status-update-event-dep.jsonld") },
    });
    const outcome = await receive(fixture("notification-logistics-event-received.jsonld"));
    expect(calls).toEqual([{ url: EVENT, token: "secret-token-0001" }]);
    expect(outcome).toMatchObject({
      eventType: "LOGISTICS_EVENT_RECEIVED",
      fetched: [EVENT],
      applied: [{ awb: { prefix: "020", serial: "12345675" }, changed: true }],
    });
    expect((await h.routeMaps.getForChange({ prefix: "020", serial: "12345675" })).record).not.toBeNull();
  });

  it("LOGISTICS_OBJECT_UPDATED: fetches the object's logistics-events collection, skipping foreign codes", async () => {
    const collection = JSON.parse(fixture("collection-piece-dis.jsonld"));
    collection["api:hasItem"].push({
      "@type": "cargo:LogisticsEvent",
      "cargo:eventCode": { "@id": "https://1r.carrier.example/codes#LOADED_IN_TRUCK" },
    });
    const { calls, receive } = setup({
      [`${OBJECT}/logistics-events`]: { kind: "ok", body: JSON.stringify(collection) },
    });
    const outcome = await receive(fixture("notification-logistics-object-updated.jsonld"));
    expect(calls.map((c) => c.url)).toEqual([`${OBJECT}/logistics-events`]);
    // The DIS is history only, and the AWB has no route map yet: nothing changes.
    expect(outcome.applied).toEqual([
      { awb: { prefix: "020", serial: "12345675" }, changed: false, events: [] },
    ]);
  });

  it("other notification types are acknowledged without fetching anything", async () => {
    const { calls, receive } = setup({});
    const body = fixture("notification-logistics-event-received.jsonld").replace(
      "LOGISTICS_EVENT_RECEIVED",
      "CHANGE_REQUEST_ACCEPTED",
    );
    expect(await receive(body)).toEqual({ eventType: "CHANGE_REQUEST_ACCEPTED", fetched: [], applied: [] });
    expect(calls).toEqual([]);
  });

  it("refuses IRIs outside ServerUrl (422, nothing fetched) and a carrier without a ONE Record server", async () => {
    const { calls, receive } = setup({});
    const outside = fixture("notification-logistics-event-received.jsonld").replace(
      `"${EVENT}"`,
      '"https://1r.carrier.example.evil.test/logistics-objects/x/logistics-events/y"',
    );
    const error = await refusal(receive(outside));
    expect(error).toBeInstanceOf(UnusableReferenceError);
    expect((error as UnusableReferenceError).field).toBe("line 14: api:hasLogisticsEvent");
    expect(calls).toEqual([]);

    const h = harness();
    carrier020(h);
    const none = receiveOneRecordNotification(
      { ...h, carrierSettings: h.carriers, publisher: { fetch: async () => ({ kind: "ok", body: "{}" }) } },
      { carrierPrefix: "020", body: fixture("notification-logistics-event-received.jsonld"), now: NOW },
    );
    expect(await refusal(none)).toBeInstanceOf(OneRecordNotConfiguredError);
  });

  it("a publisher that is down or answers an error: PublisherUnavailableError, nothing stored", async () => {
    const { h, receive } = setup({ [EVENT]: { kind: "failed", status: null, reason: "connection refused" } });
    const error = await refusal(receive(fixture("notification-logistics-event-received.jsonld")));
    expect(error).toBeInstanceOf(PublisherUnavailableError);
    expect(error).toMatchObject({ url: EVENT, publisherStatus: null });
    expect((await h.routeMaps.getForChange({ prefix: "020", serial: "12345675" })).record).toBeNull();
  });

  it("an event that cannot be used: 422 naming its IRI and path; a malformed notification: 400", async () => {
    const { receive } = setup({ [EVENT]: { kind: "ok", body: fixture("refused-check-digit.jsonld") } });
    const error = await refusal(receive(fixture("notification-logistics-event-received.jsonld")));
    expect(error).toBeInstanceOf(UnusableLogisticsEventError);
    expect(error).toMatchObject({ url: EVENT, problem: { path: "cargo:eventFor.cargo:waybillNumber" } });

    const noType = await refusal(receive('{ "@type": "api:Notification" }'));
    expect(noType).toBeInstanceOf(MessageParseError);
    const notJson = await refusal(receive("{ nope"));
    expect(notJson).toMatchObject({ expected: "valid JSON" });
  });
});

describe("receiveOneRecordNotification deadline", () => {
  it("does not start a fetch the request has no time left for: 503-style refusal, nothing fetched", async () => {
    const h = harness();
    carrier020(h);
    const settings = h.settings.get("020");
    if (settings) h.settings.set("020", { ...settings, oneRecord: { serverUrl: SERVER, token: null } });
    let fetched = 0;
    const publisher: OneRecordPublisher = {
      async fetch() {
        fetched++;
        return { kind: "ok", body: fixture("status-update-event-dep.jsonld") };
      },
    };
    const error = await refusal(
      receiveOneRecordNotification(
        { ...h, carrierSettings: h.carriers, publisher },
        {
          carrierPrefix: "020",
          body: fixture("notification-logistics-event-received.jsonld"),
          now: NOW,
          timeLeftMs: () => 3_000,
        },
      ),
    );
    expect(error).toBeInstanceOf(PublisherUnavailableError);
    expect(fetched).toBe(0);
  });
});
