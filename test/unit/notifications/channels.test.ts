/**
 * The delivery channels (functions/core/notifications/channels/) and the registry that picks one per
 * job: each channel answers only for its own jobs, and a rule is sent the way it says at delivery,
 * its stored rule read once per attempt whichever channel asks.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { AttemptContext } from "../../../functions/core/notifications/channels/channel.ts";
import { customerEndpointChannel } from "../../../functions/core/notifications/channels/customer-endpoint/channel.ts";
import { emailChannel } from "../../../functions/core/notifications/channels/email/channel.ts";
import { prepareDelivery } from "../../../functions/core/notifications/channels/registry.ts";
import { statusRequestChannel } from "../../../functions/core/notifications/channels/status-request/channel.ts";
import { webhookChannel } from "../../../functions/core/notifications/channels/webhook/channel.ts";
import type { NotificationJob, StatusRequestJob } from "../../../functions/core/ports/notifications.ts";
import { deliverJob } from "../../../functions/core/use-cases/deliver-job.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import {
  emailRule,
  endpoint,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingEmail,
  RecordingQueue,
  RecordingScheduler,
  ScriptedPoster,
  urlRule,
  webhook,
} from "../../adapters/pipeline/fakes.ts";
import { ENDPOINT_GUID, makeEvent, OWNER } from "./helpers.ts";

const NOW = "2026-03-14T12:42:00.000Z";
const CUSTOMER_URL = "https://customer.example/events";

/** Counts the rule reads: a rule is read once per attempt, however many channels look at it. */
class CountingSubscriptions extends FakeSubscriptions {
  ruleReads = 0;
  override async getRule(forwarderId: string, id: number) {
    this.ruleReads += 1;
    return super.getRule(forwarderId, id);
  }
}

let subscriptions: CountingSubscriptions;
let queue: RecordingQueue;
let http: ScriptedPoster;
let email: RecordingEmail;
const deps = () => ({
  subscriptions,
  deliveries: new FakeDeliveries(),
  queue,
  retryScheduler: new RecordingScheduler(),
  http,
  email,
});

beforeEach(() => {
  subscriptions = new CountingSubscriptions();
  queue = new RecordingQueue();
  http = new ScriptedPoster();
  email = new RecordingEmail();
});

async function oneJob(): Promise<NotificationJob> {
  await matchEvent(deps(), { event: makeEvent(), now: NOW });
  const [job] = queue.jobs;
  queue.sent.length = 0;
  if (!job || job.kind) throw new Error("no notification job matched");
  return job;
}

const attempt = (job: NotificationJob) =>
  deliverJob(deps(), { job, now: NOW, sentAtSeconds: 0, random: 0.5 });

const statusJob: StatusRequestJob = {
  kind: "status-request",
  deliveryId: "SR-0000000000001-02012345675",
  attempt: 1,
  request: {
    requestId: "SR-0000000000001-02012345675",
    carrierPrefix: "020",
    awb: { prefix: "020", serial: "12345675" },
    origin: "FRA",
    destination: "JFK",
    requestedAt: NOW,
    forwarderId: OWNER.forwarderId,
    isXtd: false,
  },
};

const context = (): AttemptContext => {
  const reads = new Map<string, Promise<unknown>>();
  return {
    now: NOW,
    sentAtSeconds: 0,
    readOnce<T>(key: string, read: () => Promise<T>) {
      if (!reads.has(key)) reads.set(key, read());
      return reads.get(key) as Promise<T>;
    },
  };
};

describe("the channel registry", () => {
  it("a rule matched as e-mail and switched to Url meanwhile is POSTed to its endpoint, its rule read once", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    expect(job.target.targetKind).toBe("email");
    await subscriptions.putCustomerEndpoint(endpoint(ENDPOINT_GUID, OWNER.forwarderId, CUSTOMER_URL));
    await subscriptions.putRule(urlRule(1, OWNER, { Event: "DEP" }));
    subscriptions.ruleReads = 0;

    expect((await attempt(job)).outcome).toBe("delivered");

    expect(http.requests.map((request) => request.url)).toEqual([CUSTOMER_URL]);
    expect(email.sent).toEqual([]);
    expect(subscriptions.ruleReads).toBe(1);
  });

  it("a rule matched as Url and switched to e-mail meanwhile is mailed", async () => {
    await subscriptions.putCustomerEndpoint(endpoint(ENDPOINT_GUID, OWNER.forwarderId, CUSTOMER_URL));
    await subscriptions.putRule(urlRule(1, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP", NotifyTo: "ops@fwd.example" }));

    expect((await attempt(job)).outcome).toBe("delivered");

    expect(email.sent.map((message) => message.to)).toEqual(["ops@fwd.example"]);
    expect(http.requests).toEqual([]);
  });

  it("a deleted rule is skipped with the same reason whichever rule channel it had, read once", async () => {
    await subscriptions.putRule(urlRule(1, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    await subscriptions.deleteRule(OWNER.forwarderId, 1);
    subscriptions.ruleReads = 0;

    expect(await prepareDelivery(job, deps(), { now: NOW, sentAtSeconds: 0 })).toEqual({
      ok: false,
      reason: "rule 1 was deleted",
    });
    expect(subscriptions.ruleReads).toBe(1);
  });

  it("names the channel that carries the job; only the webhook's switches something off on 410", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    await subscriptions.putWebhook(webhook(2, OWNER, { Event: "DEP" }));
    await matchEvent(deps(), { event: makeEvent(), now: NOW });
    const prepared = await Promise.all(
      queue.jobs.map((job) => prepareDelivery(job, deps(), { now: NOW, sentAtSeconds: 0 })),
    );
    expect(prepared.map((p) => (p.ok ? [p.kind, p.switchOff !== undefined] : p.reason))).toEqual([
      ["email", false],
      ["webhook", true],
    ]);
  });
});

describe("each channel answers only for its own jobs", () => {
  it("a status request is no notification channel's; a notification is not the carrier channel's", async () => {
    const noDeps = { subscriptions, http, email };
    for (const channel of [emailChannel, customerEndpointChannel, webhookChannel])
      expect(await channel.resolve(statusJob, noDeps, context())).toBeNull();
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    const ruleJob = await oneJob();
    expect(await statusRequestChannel.resolve(ruleJob, noDeps, context())).toBeNull();
    expect(await webhookChannel.resolve(ruleJob, noDeps, context())).toBeNull();
    expect(await customerEndpointChannel.resolve(ruleJob, noDeps, context())).toBeNull();
    expect(await emailChannel.resolve(ruleJob, noDeps, context())).toMatchObject({
      ok: true,
      target: { to: "ops@forwarder.example", ruleId: 1 },
    });
  });
});
