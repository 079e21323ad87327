/** Issue 11 point 19: a target that timed out gets its retries on the slow lane, nobody else does. */
import { beforeEach, describe, expect, it } from "vitest";
import { deliverJob } from "../../../functions/core/use-cases/deliver-job.ts";
import { matchEvent } from "../../../functions/core/use-cases/match-event.ts";
import {
  answer,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingEmail,
  RecordingQueue,
  RecordingScheduler,
  ScriptedPoster,
  webhook,
} from "../../adapters/pipeline/fakes.ts";
import { makeEvent, OWNER } from "../notifications/helpers.ts";

const NOW = "2026-03-14T12:42:00.000Z";
const HOOK_URL = "https://hooks.forwarder.example/routemap";

let subscriptions: FakeSubscriptions;
let deliveries: FakeDeliveries;
let queue: RecordingQueue;
let http: ScriptedPoster;
const deps = () => ({
  subscriptions,
  deliveries,
  queue,
  retryScheduler: new RecordingScheduler(),
  http,
  email: new RecordingEmail(),
});

beforeEach(async () => {
  subscriptions = new FakeSubscriptions();
  deliveries = new FakeDeliveries();
  queue = new RecordingQueue();
  http = new ScriptedPoster();
  await subscriptions.putWebhook(webhook(3, OWNER, { Event: "DEP" }));
});

async function firstAttempt() {
  await matchEvent(deps(), { event: makeEvent(), now: NOW });
  const [job] = queue.jobs;
  if (!job) throw new Error("no job matched");
  queue.sent.length = 0;
  queue.lanes.length = 0;
  return job;
}
const attempt = (job: Awaited<ReturnType<typeof firstAttempt>>) =>
  deliverJob(deps(), { job, now: NOW, sentAtSeconds: 0, random: 0.5, timeoutMs: 2_000 });

describe("delivery lanes", () => {
  it("the first attempt goes to the main lane (the matcher queues it there)", async () => {
    await matchEvent(deps(), { event: makeEvent(), now: NOW });
    expect(queue.lanes).toEqual(["main"]);
  });

  it("a timeout sends the retry to the slow lane; a 5xx keeps it on the main lane", async () => {
    http.script(HOOK_URL, { kind: "timeout", latencyMs: 2_000 }, answer(503), answer(204));
    const job = await firstAttempt();
    expect((await attempt(job)).outcome).toBe("retry");
    expect(queue.lanes).toEqual(["slow"]);
    expect(queue.jobs.map((queued) => queued.attempt)).toEqual([2]);
    expect((await attempt({ ...job, attempt: 2 })).outcome).toBe("retry");
    expect(queue.lanes).toEqual(["slow", "main"]);
  });

  it("passes the per-attempt deadline to the sender", async () => {
    http.script(HOOK_URL, answer(204));
    const job = await firstAttempt();
    await attempt(job);
    expect(http.requests[0]?.timeoutMs).toBe(2_000);
  });

  it("a redelivered attempt that timed out re-queues its retry on the slow lane again", async () => {
    http.script(HOOK_URL, { kind: "timeout", latencyMs: 2_000 });
    const job = await firstAttempt();
    await attempt(job);
    const again = await attempt(job);
    expect(again.outcome).toBe("duplicate");
    expect(queue.lanes).toEqual(["slow", "slow"]);
  });
});
