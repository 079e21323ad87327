/** Matching one outbox event into delivery records and jobs (functions/core/use-cases/match-event.ts). */
import { beforeEach, describe, expect, it } from "vitest";
import type { NotificationJob } from "../../../functions/core/ports/notifications.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import {
  emailRule,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingQueue,
  urlRule,
  webhook,
} from "../../adapters/pipeline/fakes.ts";
import { ENDPOINT_GUID, makeEvent, OWNER, STRANGER, XTD } from "../notifications/helpers.ts";

const NOW = "2026-03-14T12:42:00.000Z";
let subscriptions: FakeSubscriptions;
let deliveries: FakeDeliveries;
let queue: RecordingQueue;
const deps = () => ({ subscriptions, deliveries, queue });

beforeEach(() => {
  subscriptions = new FakeSubscriptions();
  deliveries = new FakeDeliveries();
  queue = new RecordingQueue();
});

describe("matchEvent", () => {
  it("queues one job per matching rule and webhook, each with a pending delivery record", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    await subscriptions.putRule(urlRule(2, OWNER, { Event: "DEP,ARR" }));
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP", Type: "xml" }));
    const event = makeEvent();

    const result = await matchEvent(deps(), { event, now: NOW });

    expect(result.enqueued.map((job) => job.deliveryId)).toEqual([
      "evt-0001:rule-1",
      "evt-0001:rule-2",
      "evt-0001:webhook-3",
    ]);
    expect(queue.sent).toHaveLength(1); // one batch, no delay
    expect(queue.sent[0]?.delaySeconds).toBeUndefined();
    expect(queue.jobs.every((job) => job.attempt === 1 && job.event.eventId === "evt-0001")).toBe(true);
    expect(queue.jobs.map((job) => job.target.targetKind)).toEqual(["email", "url", "webhook"]);
    const record = await deliveries.get("evt-0001:rule-2");
    expect(record).toMatchObject({
      status: "pending",
      attempts: [],
      eventId: "evt-0001",
      subscriptionKind: "rule",
      subscriptionId: 2,
      forwarderId: OWNER.forwarderId,
      createdAt: NOW,
    });
    expect((record?.job as NotificationJob | undefined)?.target).toMatchObject({
      targetKind: "url",
      endpointId: ENDPOINT_GUID,
    });
  });

  it("jobs carry no secrets: Token and Psk stay in the store", async () => {
    await subscriptions.putWebhook(
      webhook(3, OWNER, { Event: "DEP", Psk: "super-secret-pre-shared-key", Token: undefined }),
    );
    await matchEvent(deps(), { event: makeEvent(), now: NOW });
    expect(JSON.stringify(queue.jobs)).not.toContain("super-secret");
  });

  it("disabled rules, disabled webhooks, other carriers, other AWBs and strangers get nothing; an unverified webhook gets it", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP", Enabled: false }));
    await subscriptions.putRule(emailRule(2, OWNER, { Event: "DEP", AirlinePrefix: "176" }));
    await subscriptions.putRule(
      emailRule(3, OWNER, { Event: "DEP", AirlinePrefix: "020", AwbNumber: "11111111" }),
    );
    await subscriptions.putRule(emailRule(4, STRANGER, { Event: "DEP" }));
    await subscriptions.putRule(emailRule(5, OWNER, { Event: "ARR" }));
    await subscriptions.putWebhook(webhook(6, OWNER, { Event: "DEP" }, false));
    await subscriptions.putWebhook(webhook(7, OWNER, { Event: "DEP", Enable: false }));
    await subscriptions.putWebhook(webhook(8, OWNER, { Event: "DEP", AWB: "176" }));
    await subscriptions.putWebhook(webhook(9, OWNER, { Event: "DEP", AWB: "020-11111111" }));
    await subscriptions.putRule(emailRule(10, OWNER, { Event: "DEP", AirlinePrefix: "020" }));

    const result = await matchEvent(deps(), { event: makeEvent(), now: NOW });

    // Verification is a proof, not a gate: the enabled, unverified webhook 6 hears it.
    expect(result.targets.map((target) => target.deliveryId).sort()).toEqual([
      "evt-0001:rule-10",
      "evt-0001:webhook-6",
    ]);
    expect(queue.jobs).toHaveLength(2);
  });

  it("an XTD forwarder hears through its forwarder key; an owner-less event without grants costs no query", async () => {
    await subscriptions.putWebhook(webhook(1, XTD, { Event: "DEP" }));
    const xtdEvent = makeEvent({ audience: { ownerAgent: null, xtdForwarders: [XTD.forwarderId] } });
    const result = await matchEvent(deps(), { event: xtdEvent, now: NOW });
    expect(result.enqueued.map((job) => job.target.recipient.forwarderId)).toEqual([XTD.forwarderId]);
    expect(subscriptions.lookups).toEqual([[`FWD#${XTD.forwarderId}#Event#DEP`]]);

    const nobody = makeEvent({ eventId: "evt-2", audience: { ownerAgent: null, xtdForwarders: [] } });
    const none = await matchEvent(deps(), { event: nobody, now: NOW });
    expect(none.targets).toEqual([]);
    expect(subscriptions.lookups).toHaveLength(1);
  });

  it("a repeated event queues nothing for deliveries already attempted", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    await matchEvent(deps(), { event: makeEvent(), now: NOW });
    await deliveries.recordAttempt(
      "evt-0001:rule-1",
      { attempt: 1, at: NOW, status: 200, latencyMs: 3, outcome: "delivered", detail: "" },
      "delivered",
    );

    const again = await matchEvent(deps(), { event: makeEvent(), now: NOW });

    expect(again.enqueued).toEqual([]);
    expect(again.alreadyHandled).toEqual(["evt-0001:rule-1"]);
    expect(queue.jobs).toHaveLength(1);
  });

  it("a crash between the record and the queue loses nothing: the retry queues the unattempted job", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    queue.failNext = 1;
    await expect(matchEvent(deps(), { event: makeEvent(), now: NOW })).rejects.toThrow("queue unavailable");
    expect(await deliveries.get("evt-0001:rule-1")).not.toBeNull();

    const retried = await matchEvent(deps(), { event: makeEvent(), now: NOW });

    expect(retried.enqueued.map((job) => job.deliveryId)).toEqual(["evt-0001:rule-1"]);
    expect(queue.jobs).toHaveLength(1);
  });

  it("a rule created after the event was recorded does not hear it (not retroactive)", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    const old = makeEvent({ recordedAt: "2026-02-01T00:00:00Z" });
    expect((await matchEvent(deps(), { event: old, now: NOW })).targets).toEqual([]);
  });
});
