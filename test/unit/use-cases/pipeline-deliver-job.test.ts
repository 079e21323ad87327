/** One delivery attempt (functions/core/use-cases/deliver-job.ts) over in-memory ports. */
import { Webhook as StandardWebhook } from "standardwebhooks";
import { beforeEach, describe, expect, it } from "vitest";
import { EVENT_PAYLOAD_FIELDS } from "../../../functions/core/notifications/index.ts";
import type { DeliveryJob, NotificationJob } from "../../../functions/core/ports/notifications.ts";
import {
  type DeliverJobInput,
  deliverJob,
  parkUnfinishedJob,
} from "../../../functions/core/use-cases/deliver-job.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import { firstJob, newDeliveryRecord } from "../../../functions/core/use-cases/shared/deliveries.ts";
import {
  answer,
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
import { ENDPOINT_GUID, makeEvent, makeJwt, OWNER } from "../notifications/helpers.ts";

const NOW = "2026-03-14T12:42:00.000Z";
/** The wall clock at sending: 25 minutes behind the service clock, as after `POST /__local/clock`. */
const SENT_AT = Date.parse(NOW) / 1000 - 1500;
const HOOK_URL = "https://hooks.forwarder.example/routemap";
const CUSTOMER_URL = "https://customer.example/events";
const PSK = "a-long-enough-pre-shared-key";
const TOKEN = makeJwt();

let subscriptions: FakeSubscriptions;
let deliveries: FakeDeliveries;
let queue: RecordingQueue;
let retryScheduler: RecordingScheduler;
let http: ScriptedPoster;
let email: RecordingEmail;
const deps = () => ({ subscriptions, deliveries, queue, retryScheduler, http, email });

beforeEach(() => {
  subscriptions = new FakeSubscriptions();
  deliveries = new FakeDeliveries();
  queue = new RecordingQueue();
  retryScheduler = new RecordingScheduler();
  http = new ScriptedPoster();
  email = new RecordingEmail();
});

/** Stores the subscriptions, runs the matcher and returns its jobs (as the deliverer receives them). */
async function jobsFor(): Promise<NotificationJob[]> {
  await matchEvent(deps(), { event: makeEvent(), now: NOW });
  const jobs = queue.jobs;
  queue.sent.length = 0;
  return jobs;
}

async function oneJob(): Promise<NotificationJob> {
  const [job] = await jobsFor();
  if (!job) throw new Error("no job matched");
  return job;
}

const attempt = (job: DeliveryJob, extra: Partial<DeliverJobInput> = {}) =>
  deliverJob(deps(), { job, now: NOW, sentAtSeconds: SENT_AT, random: 0.5, ...extra });
const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();

describe("webhooks", () => {
  it("json: bearer token, Standard Webhooks signature over the exact body, webhook-id = delivery id", async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP", Token: TOKEN, Psk: PSK }));
    const job = await oneJob();

    const result = await attempt(job);

    expect(result).toMatchObject({ outcome: "delivered", status: 200, attempt: 1 });
    const [request] = http.requests;
    expect(request?.url).toBe(HOOK_URL);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers["webhook-id"]).toBe("evt-0001:webhook-3");
    // The transmission's real time, not the attempt's (fakeable) service time.
    expect(request?.headers["webhook-timestamp"]).toBe(String(SENT_AT));
    const body = JSON.parse(request?.body ?? "{}") as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([...EVENT_PAYLOAD_FIELDS]);
    expect(body).toMatchObject({ IdMessage: "evt-0001", Event: "DEP", AgentCode: OWNER.agentCode });
    // The standardwebhooks library agrees (its own clock check is a property of the receiver).
    const signer = new StandardWebhook(PSK, { format: "raw" });
    const signature = signer.sign("evt-0001:webhook-3", new Date(SENT_AT * 1000), request?.body ?? "");
    expect(request?.headers["webhook-signature"]).toBe(signature);

    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("delivered");
    expect(record?.attempts).toEqual([
      { attempt: 1, at: NOW, status: 200, latencyMs: 12, outcome: "delivered", detail: "HTTP 200" },
    ]);
  });

  it("xml and text bodies go out with their content types; no Token/Psk means no such headers", async () => {
    await subscriptions.putWebhook(webhook(1, OWNER, { Event: "DEP", Type: "xml" }));
    await subscriptions.putWebhook(
      webhook(2, OWNER, { Event: "DEP", Type: "text", Url: "https://text.example/hook" }),
    );
    const jobs = await jobsFor();
    for (const job of jobs) await attempt(job);
    const [xml, text] = http.requests;
    expect(xml?.headers["content-type"]).toBe("application/xml");
    expect(xml?.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Event /);
    expect(text?.headers["content-type"]).toBe("text/plain");
    expect(text?.body).toContain("AirWaybillNumber: 12345675\n");
    expect(xml?.headers.authorization).toBeUndefined();
    expect(xml?.headers["webhook-signature"]).toBeUndefined();
  });

  it("reads the Url and secrets from the store at delivery time, not from the job", async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    const stored = await subscriptions.getWebhook(OWNER.forwarderId, 3);
    if (!stored) throw new Error("missing webhook");
    await subscriptions.putWebhook({ ...stored, token: TOKEN });
    await attempt(job);
    expect(http.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("410 Gone disables the webhook (with the reason) and parks the delivery", async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
    http.script(HOOK_URL, answer(410, {}, "gone"));
    const job = await oneJob();

    const result = await attempt(job);

    expect(result.outcome).toBe("disabled");
    const stored = await subscriptions.getWebhook(OWNER.forwarderId, 3);
    expect(stored?.enabled).toBe(false);
    expect(stored?.disabledReason).toMatch(/410/);
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("parked");
    expect(record?.attempts[0]).toMatchObject({ status: 410, outcome: "disabled" });
    expect(queue.jobs).toEqual([]);
  });
});

describe("Url channel and e-mail", () => {
  it("Url channel: the Event payload as JSON with the customer's registered header", async () => {
    await subscriptions.putCustomerEndpoint(endpoint(ENDPOINT_GUID, OWNER.forwarderId, CUSTOMER_URL));
    await subscriptions.putRule(urlRule(2, OWNER, { Event: "DEP" }));
    const job = await oneJob();

    expect((await attempt(job)).outcome).toBe("delivered");

    const [request] = http.requests;
    expect(request?.url).toBe(CUSTOMER_URL);
    expect(request?.headers).toEqual({ "content-type": "application/json", apiKey: "api-key-0123456789" });
    const payload = JSON.parse(request?.body ?? "{}") as Record<string, unknown>;
    expect(Object.keys(payload)).toEqual([...EVENT_PAYLOAD_FIELDS]);
    expect(payload.MilestoneReportedUtcTimeStamp).toBe("2026-03-14T12:41:00+00:00");
  });

  it("Url channel: an endpoint that is gone or not this forwarder's parks the delivery unsent", async () => {
    await subscriptions.putCustomerEndpoint(endpoint(ENDPOINT_GUID, "someone-else", CUSTOMER_URL));
    await subscriptions.putRule(urlRule(2, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    const result = await attempt(job);
    expect(result.outcome).toBe("skipped");
    expect(result.detail).toMatch(/not registered/);
    expect(http.requests).toEqual([]);
  });

  it("Url channel: 410 parks, nothing is switched off", async () => {
    await subscriptions.putCustomerEndpoint(endpoint(ENDPOINT_GUID, OWNER.forwarderId, CUSTOMER_URL));
    await subscriptions.putRule(urlRule(2, OWNER, { Event: "DEP" }));
    http.script(CUSTOMER_URL, answer(410));
    const job = await oneJob();
    expect((await attempt(job)).outcome).toBe("parked");
    expect((await subscriptions.getRule(OWNER.forwarderId, 2))?.enabled).toBe(true);
  });

  it("e-mail: subject from HeaderItems in order, HTML and text bodies", async () => {
    await subscriptions.putRule(
      emailRule(1, OWNER, { Event: "DEP", HeaderItems: "AWB,MIL,NTF", NotifyTo: "ops@fwd.example" }),
    );
    const job = await oneJob();
    const result = await attempt(job);
    expect(result).toMatchObject({ outcome: "delivered", status: 200 });
    expect(email.sent).toHaveLength(1);
    expect(email.sent[0]).toMatchObject({
      to: "ops@fwd.example",
      subject: "AWB 020-12345675 | MIL DEP | NTF Event",
    });
    expect(email.sent[0]?.html).toContain("<table");
    // The text part opens with the headline (no route map here, so no schedule: the plan alone) and
    // names the notification.
    expect(email.sent[0]?.text.split("\n")[0]).toBe("LH400 departed FRA 44 min before plan: Ok");
    expect(email.sent[0]?.text).toContain("Notification: Event alert · DEP · Update");
  });

  it("e-mail: SES throttling is retried, a refused message is parked", async () => {
    await subscriptions.putRule(emailRule(1, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    email.results = [
      { kind: "failed", retryable: true, message: "Throttling: slow down", latencyMs: 3 },
      { kind: "failed", retryable: false, message: "MessageRejected: bad address", latencyMs: 3 },
    ];
    expect((await attempt(job)).outcome).toBe("retry");
    expect((await attempt({ ...job, attempt: 2 })).outcome).toBe("parked");
    const record = await deliveries.get(job.deliveryId);
    expect(record?.attempts.map((a) => [a.status, a.outcome])).toEqual([
      [null, "retry"],
      [null, "parked"],
    ]);
    expect(record?.attempts[1]?.detail).toMatch(/MessageRejected/);
  });
});

describe("retries", () => {
  beforeEach(async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
  });

  it("5xx: the same job, attempt + 1, back on the queue with about 5 s delay", async () => {
    http.script(HOOK_URL, answer(503, {}, "busy"));
    const job = await oneJob();

    const result = await attempt(job);

    expect(result).toMatchObject({ outcome: "retry", status: 503, nextAttemptInSeconds: 5 });
    expect(queue.sent).toEqual([{ jobs: [{ ...job, attempt: 2 }], delaySeconds: 5 }]);
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("retrying");
    expect(record?.attempts[0]).toMatchObject({ status: 503, outcome: "retry" });
    expect(record?.attempts[0]?.detail).toMatch(/HTTP 503: busy \(attempt 2 in 5 s\)/);
  });

  it("waits beyond 15 minutes go through the retry scheduler at an absolute time", async () => {
    http.script(HOOK_URL, answer(500));
    const job = await oneJob();
    const result = await attempt({ ...job, attempt: 3 });
    expect(result.nextAttemptInSeconds).toBe(1800);
    expect(queue.sent).toEqual([]);
    expect(retryScheduler.scheduled).toEqual([
      { job: { ...job, attempt: 4 }, at: "2026-03-14T13:12:00.000Z" },
    ]);
  });

  it("the retry scale shrinks the schedule (local runs) but never a receiver's Retry-After", async () => {
    http.script(HOOK_URL, answer(500), answer(429, { "retry-after": "120" }));
    const job = await oneJob();
    expect((await attempt({ ...job, attempt: 3 }, { retryScale: 0.001 })).nextAttemptInSeconds).toBe(2);
    // random 0: the Retry-After itself (its jitter only ever adds).
    const limited = await attempt({ ...job, attempt: 4 }, { retryScale: 0.001, random: 0 });
    expect(limited.nextAttemptInSeconds).toBe(120);
    expect(queue.sent.map((batch) => batch.delaySeconds)).toEqual([2, 120]);
  });

  it("a short Retry-After is a floor: the scheduled backoff of that attempt still applies", async () => {
    http.script(HOOK_URL, answer(429, { "retry-after": "0" }), answer(429, { "retry-after": "1" }));
    const job = await oneJob();
    expect((await attempt(job)).nextAttemptInSeconds).toBe(5);
    expect((await attempt({ ...job, attempt: 2 })).nextAttemptInSeconds).toBe(300);
    expect(queue.sent.map((batch) => batch.delaySeconds)).toEqual([5, 300]);
  });

  it("429 with a long Retry-After goes through the scheduler", async () => {
    http.script(HOOK_URL, answer(429, { "retry-after": "3600" }));
    const job = await oneJob();
    await attempt(job, { random: 0 });
    expect(retryScheduler.scheduled[0]?.at).toBe("2026-03-14T13:42:00.000Z");
  });

  it("timeouts and network errors are retried", async () => {
    http.script(
      HOOK_URL,
      { kind: "timeout", latencyMs: 10_000 },
      { kind: "network-error", message: "ECONNREFUSED", latencyMs: 1 },
    );
    const job = await oneJob();
    expect((await attempt(job)).outcome).toBe("retry");
    expect((await attempt({ ...job, attempt: 2 })).outcome).toBe("retry");
    const record = await deliveries.get(job.deliveryId);
    expect(record?.attempts.map((a) => a.detail)).toEqual([
      "timeout (attempt 2 in 5 s)",
      "network error: ECONNREFUSED (attempt 3 in 300 s)",
    ]);
  });

  it("the 7th failed attempt parks the delivery (replayable); other 4xx park at once", async () => {
    http.script(HOOK_URL, answer(500));
    const job = await oneJob();
    const last = await attempt({ ...job, attempt: 7 });
    expect(last).toMatchObject({ outcome: "parked" });
    expect(last.detail).toMatch(/retries-exhausted/);

    http.script(HOOK_URL, answer(400, {}, "bad"));
    const rejected = await attempt({ ...job, attempt: 8 });
    expect(rejected.detail).toMatch(/HTTP 400: bad \(parked: rejected\)/);
    expect(queue.sent).toEqual([]);
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("parked");
    expect(record?.job).toEqual(job);
  });

  it("a target the SSRF guard refuses is parked without sending", async () => {
    http.script(HOOK_URL, {
      kind: "refused",
      reason: "address-not-allowed: 10.0.0.1 is private",
      latencyMs: 1,
    });
    const job = await oneJob();
    const result = await attempt(job);
    expect(result.outcome).toBe("parked");
    expect(result.detail).toMatch(/target refused/);
  });

  it("the retry note survives however long the answer; the due time is logged as a field", async () => {
    http.script(HOOK_URL, answer(500, {}, "x".repeat(4000)));
    const job = await oneJob();
    const result = await attempt(job);
    const [entry] = (await deliveries.get(job.deliveryId))?.attempts ?? [];
    expect(entry?.detail.length).toBeLessThanOrEqual(1000);
    expect(entry?.detail).toMatch(/^HTTP 500: x+… \(attempt 2 in 5 s\)$/);
    expect(result.detail).toBe(entry?.detail);
    expect(entry?.nextAttemptAt).toBe(new Date(Date.parse(entry?.at ?? "") + 5_000).toISOString());
  });

  it("an answer cut off at the deadline is logged as such", async () => {
    http.script(HOOK_URL, {
      kind: "response",
      status: 503,
      headers: {},
      body: "par",
      latencyMs: 10_000,
      bodyCutOff: true,
    });
    const job = await oneJob();
    expect((await attempt(job)).detail).toBe(
      "HTTP 503: par (answer cut off at the attempt deadline) (attempt 2 in 5 s)",
    );
  });
});

describe("order of operations: a crash between any two steps", () => {
  beforeEach(async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
  });

  it("send, then log: when the next attempt cannot be queued, the redelivered job queues it without sending again", async () => {
    http.script(HOOK_URL, answer(429, { "retry-after": "600" }));
    const job = await oneJob();
    queue.failNext = 1;
    await expect(attempt(job, { random: 0 })).rejects.toThrow("queue unavailable");
    const logged = await deliveries.get(job.deliveryId);
    expect(logged?.status).toBe("retrying");
    expect(logged?.attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([[1, 429, "retry"]]);
    const dueAt = logged?.attempts[0]?.nextAttemptAt ?? "";
    expect(Date.parse(dueAt) - Date.parse(logged?.attempts[0]?.at ?? "")).toBe(600_000);

    // SQS redelivers the same message 100 s later: the wait the receiver asked for still counts.
    const redelivered = await attempt(job, { now: later(100) });

    expect(redelivered).toMatchObject({ outcome: "duplicate", nextAttemptInSeconds: 500 });
    expect(http.requests).toHaveLength(1);
    expect(queue.sent).toEqual([{ jobs: [{ ...job, attempt: 2 }], delaySeconds: 500 }]);
    expect((await deliveries.get(job.deliveryId))?.attempts).toHaveLength(1);
  });

  it("a retry due through the scheduler is re-scheduled at the same absolute time", async () => {
    http.script(HOOK_URL, answer(500));
    const job = await oneJob();
    const schedule = retryScheduler.scheduleRetry.bind(retryScheduler);
    retryScheduler.scheduleRetry = async () => {
      retryScheduler.scheduleRetry = schedule;
      throw new Error("Scheduler throttled");
    };
    await expect(attempt({ ...job, attempt: 3 })).rejects.toThrow("Scheduler throttled");
    await attempt({ ...job, attempt: 3 }, { now: later(60) });
    expect(retryScheduler.scheduled).toEqual([
      { job: { ...job, attempt: 4 }, at: "2026-03-14T13:12:00.000Z" },
    ]);
    expect(http.requests).toHaveLength(1);
  });

  it("a redelivered job whose next attempt was queued queues the same attempt again (absorbed downstream)", async () => {
    http.script(HOOK_URL, answer(503));
    const job = await oneJob();
    await attempt(job);
    await attempt(job, { now: later(2) });
    expect(http.requests).toHaveLength(1);
    expect(queue.jobs).toEqual([
      { ...job, attempt: 2 },
      { ...job, attempt: 2 },
    ]);
    expect(queue.sent.map((batch) => batch.delaySeconds)).toEqual([5, 3]);
  });

  it("nothing is queued again once the next attempt has run, nor for a delivered or parked one", async () => {
    http.script(HOOK_URL, answer(503), answer(204));
    const job = await oneJob();
    await attempt(job);
    await attempt({ ...job, attempt: 2 });
    queue.sent.length = 0;
    expect((await attempt(job)).outcome).toBe("duplicate");
    expect((await attempt({ ...job, attempt: 2 })).outcome).toBe("duplicate");
    expect(queue.sent).toEqual([]);
    expect(http.requests).toHaveLength(2);
  });

  it("a crash before the log sends again on redelivery (the answer was never recorded)", async () => {
    const job = await oneJob();
    const record = deliveries.recordAttempt.bind(deliveries);
    deliveries.recordAttempt = async () => {
      deliveries.recordAttempt = record;
      throw new Error("DynamoDB throttled");
    };
    await expect(attempt(job)).rejects.toThrow("DynamoDB throttled");
    expect((await attempt(job)).outcome).toBe("delivered");
    expect(http.requests).toHaveLength(2);
    expect(new Set(http.requests.map((r) => r.body)).size).toBe(1);
  });

  it("410: the webhook is switched off before the log, so a redelivery after a crash does not POST again", async () => {
    http.script(HOOK_URL, answer(410));
    const job = await oneJob();
    const record = deliveries.recordAttempt.bind(deliveries);
    deliveries.recordAttempt = async () => {
      deliveries.recordAttempt = record;
      throw new Error("DynamoDB throttled");
    };
    await expect(attempt(job)).rejects.toThrow("DynamoDB throttled");
    expect((await subscriptions.getWebhook(OWNER.forwarderId, 3))?.enabled).toBe(false);

    const redelivered = await attempt(job);

    expect(redelivered.outcome).toBe("skipped");
    expect(redelivered.detail).toMatch(/disabled \(receiver answered 410 Gone\)/);
    expect(http.requests).toHaveLength(1);
    expect((await deliveries.get(job.deliveryId))?.status).toBe("parked");
  });
});

describe("parking a job that failed on its last receive", () => {
  beforeEach(async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
  });

  it("parks a delivery still in progress, visibly and replayably, saying the service could not complete it", async () => {
    http.script(HOOK_URL, answer(503));
    const job = await oneJob();
    await attempt(job);
    const result = await parkUnfinishedJob(deps(), { job: { ...job, attempt: 2 }, now: later(10), tries: 5 });
    expect(result).toMatchObject({ outcome: "parked", attempt: 2 });
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("parked");
    expect(record?.attempts.at(-1)).toEqual({
      attempt: 2,
      at: later(10),
      status: null,
      latencyMs: 0,
      outcome: "parked",
      detail: "parked: the service could not complete attempt 2 in 5 tries; replay to try again",
    });
  });

  it("creates a missing record rather than failing", async () => {
    const job = await oneJob();
    deliveries.records.clear();
    await parkUnfinishedJob(deps(), { job, now: NOW, tries: 5 });
    expect((await deliveries.get(job.deliveryId))?.status).toBe("parked");
  });

  it("leaves a delivery a later attempt has overtaken, or a delivered one, as it is", async () => {
    http.script(HOOK_URL, answer(503), answer(503), answer(204));
    const job = await oneJob();
    await attempt(job);
    await attempt({ ...job, attempt: 2 });
    expect((await parkUnfinishedJob(deps(), { job, now: NOW, tries: 5 })).outcome).toBe("duplicate");
    expect((await deliveries.get(job.deliveryId))?.status).toBe("retrying");
    await attempt({ ...job, attempt: 3 });
    const late = await parkUnfinishedJob(deps(), { job: { ...job, attempt: 3 }, now: NOW, tries: 5 });
    expect(late.outcome).toBe("duplicate");
    const record = await deliveries.get(job.deliveryId);
    expect(record?.status).toBe("delivered");
    expect(record?.attempts).toHaveLength(3);
  });
});

describe("redelivery and stale jobs", () => {
  it("an attempt already logged is not made again (a redelivered SQS message)", async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    await attempt(job);
    const again = await attempt(job);
    expect(again.outcome).toBe("duplicate");
    expect(http.requests).toHaveLength(1);
  });

  it("deleted or disabled subscriptions are skipped and the reason is logged; unverified webhooks are not", async () => {
    await subscriptions.putWebhook(webhook(1, OWNER, { Event: "DEP" }));
    await subscriptions.putWebhook(webhook(2, OWNER, { Event: "DEP", Url: "https://two.example/h" }));
    await subscriptions.putRule(emailRule(3, OWNER, { Event: "DEP" }));
    await subscriptions.putWebhook(webhook(4, OWNER, { Event: "DEP", Url: "https://four.example/h" }));
    const jobs = await jobsFor();
    await subscriptions.deleteWebhook(OWNER.forwarderId, 1);
    const two = await subscriptions.getWebhook(OWNER.forwarderId, 2);
    if (two) await subscriptions.putWebhook({ ...two, enabled: false });
    const three = await subscriptions.getRule(OWNER.forwarderId, 3);
    if (three) await subscriptions.putRule({ ...three, enabled: false });
    const four = await subscriptions.getWebhook(OWNER.forwarderId, 4);
    if (four)
      await subscriptions.putWebhook({
        ...four,
        verification: { status: "pending", reason: null, checkedAt: NOW },
      });

    const results = [];
    for (const job of jobs) results.push(await attempt(job));

    expect(results.slice(0, 3).map((r) => [r.outcome, r.detail])).toEqual([
      ["skipped", "skipped: rule 3 is disabled"],
      ["skipped", "skipped: webhook 1 was deleted"],
      ["skipped", "skipped: webhook 2 is disabled"],
    ]);
    // Verification is a proof, not a gate: the unverified, enabled webhook gets it.
    expect(results[3]?.outcome).not.toBe("skipped");
    expect(http.requests.map((request) => request.url)).toEqual(["https://four.example/h"]);
    expect(email.sent).toEqual([]);
    expect((await deliveries.get(jobs[0]?.deliveryId ?? ""))?.status).toBe("parked");
  });

  it("a job whose record is missing recreates it instead of losing the attempt log", async () => {
    await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
    const job = await oneJob();
    deliveries.records.clear();
    await attempt(job);
    const record = await deliveries.get(job.deliveryId);
    expect(record).toMatchObject({ status: "delivered", job: firstJob(job.event, job.target) });
    expect(newDeliveryRecord(job, NOW).deliveryId).toBe(job.deliveryId);
  });
});
