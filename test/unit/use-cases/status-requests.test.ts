/**
 * Status requests to carriers, the core over memory adapters: the message in both
 * formats, the collapse window, the usage ledger, delivery through each channel by the delivery
 * use case (retries, park, replay) and the carrier's settings (SSRF guard, signing secret).
 */
import { Webhook as StandardWebhook } from "standardwebhooks";
import { beforeEach, describe, expect, it } from "vitest";
import type { CarrierSettings } from "../../../functions/core/carriers.ts";
import { StatusRequestNotFoundError, UnusableReferenceError } from "../../../functions/core/errors.ts";
import type { StatusRequestJob } from "../../../functions/core/ports/notifications.ts";
import {
  renderStatusRequest,
  type StatusRequest,
  type StatusRequestSettings,
  statusRequestId,
} from "../../../functions/core/status-requests.ts";
import { ackCarrierRequest } from "../../../functions/core/use-cases/ack-carrier-request.ts";
import { deliverJob } from "../../../functions/core/use-cases/deliver-job.ts";
import { getXtdUsage } from "../../../functions/core/use-cases/get-xtd-usage.ts";
import { listCarrierRequests } from "../../../functions/core/use-cases/list-carrier-requests.ts";
import { listCarrierStatusRequests } from "../../../functions/core/use-cases/list-carrier-status-requests.ts";
import { listXtdUsage } from "../../../functions/core/use-cases/list-xtd-usage.ts";
import { putCarrier } from "../../../functions/core/use-cases/put-carrier.ts";
import { replayCarrierStatusRequest } from "../../../functions/core/use-cases/replay-carrier-status-request.ts";
import { requestCarrierStatus } from "../../../functions/core/use-cases/shared/status-requests.ts";
import {
  answer,
  FakeDeliveries,
  FakeSubscriptions,
  RecordingEmail,
  RecordingQueue,
  RecordingScheduler,
  ScriptedPoster,
} from "../../adapters/pipeline/fakes.ts";
import {
  memoryCarrierInbox,
  memoryStatusRequestWindow,
  memoryUsageLedger,
} from "../../support/memory/status-requests.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const NOW = "2026-03-14T12:00:00.000Z";
const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const AWB = { prefix: "020", serial: "12345675" };
const SECRET = `whsec_${Buffer.from("a-32-byte-secret-for-the-carrier").toString("base64")}`;
const CARRIER_URL = "https://gateway.carrier.example/fsr";
const SENT_AT = Date.parse(NOW) / 1000;

let window: ReturnType<typeof memoryStatusRequestWindow>;
let deliveries: FakeDeliveries;
let queue: RecordingQueue;
let usage: ReturnType<typeof memoryUsageLedger>;
let inbox: ReturnType<typeof memoryCarrierInbox>;
let http: ScriptedPoster;
let email: RecordingEmail;
const settings = new Map<string, CarrierSettings>();

beforeEach(() => {
  window = memoryStatusRequestWindow();
  deliveries = new FakeDeliveries();
  queue = new RecordingQueue();
  usage = memoryUsageLedger();
  inbox = memoryCarrierInbox();
  http = new ScriptedPoster();
  email = new RecordingEmail();
  settings.clear();
});

const ask = (forwarderId: string, now = NOW, isXtd = true) =>
  requestCarrierStatus(
    { window, deliveries, queue, usage, windowSeconds: 900 },
    {
      awb: AWB,
      origin: "HAJ",
      destination: "JFK",
      forwarderId,
      isXtd,
      now,
    },
  );
const statusJobs = () =>
  queue.sent
    .flatMap((batch) => batch.jobs)
    .filter((job): job is StatusRequestJob => job.kind === "status-request");

function carrierWith(statusRequests: StatusRequestSettings | null) {
  settings.set("020", {
    airlinePrefix: "020",
    name: "Carrier 020",
    qualityProgram: true,
    xtd: true,
    updatedAt: NOW,
    statusRequests,
  });
}
const deliverDeps = () => ({
  subscriptions: new FakeSubscriptions(),
  deliveries,
  queue,
  retryScheduler: new RecordingScheduler(),
  http,
  email,
  carriers: { get: async (prefix: string) => settings.get(prefix) ?? null },
  carrierInbox: inbox,
});
const deliver = (job: StatusRequestJob, now = NOW) =>
  deliverJob(deliverDeps(), { job, now, sentAtSeconds: SENT_AT, random: 0.5 });

async function firstRequestJob(): Promise<StatusRequestJob> {
  await ask("ACMECARGO");
  const [job] = statusJobs();
  if (!job) throw new Error("no status request queued");
  return job;
}

describe("the FSR message", () => {
  const request: StatusRequest = {
    requestId: statusRequestId(AWB, NOW),
    carrierPrefix: "020",
    awb: AWB,
    origin: "HAJ",
    destination: "JFK",
    requestedAt: NOW,
    forwarderId: "ACMECARGO",
    isXtd: true,
  };

  it("Cargo-IMP: FSR/1 and the AWB with its stations when both are known", () => {
    expect(renderStatusRequest(request, "cargo-imp")).toEqual({
      contentType: "text/plain; charset=utf-8",
      body: "FSR/1\n020-12345675HAJJFK\n",
    });
    expect(renderStatusRequest({ ...request, destination: null }, "cargo-imp").body).toBe(
      "FSR/1\n020-12345675\n",
    );
  });

  it("JSON: Type, AwbNumber, Origin/Destination when known, RequestedAt, RequestId", () => {
    const { contentType, body } = renderStatusRequest(
      { ...request, origin: null, destination: null },
      "json",
    );
    expect(contentType).toBe("application/json");
    expect(JSON.parse(body)).toEqual({
      Type: "FSR",
      AwbNumber: "020-12345675",
      RequestedAt: NOW,
      RequestId: "SR-1773489600000-02012345675",
    });
    expect(JSON.parse(renderStatusRequest(request, "json").body)).toMatchObject({
      Origin: "HAJ",
      Destination: "JFK",
    });
  });
});

describe("one request per carrier, AWB and window", () => {
  it("5 sendsme within the window give 1 request (one record, one job); after the window a new one", async () => {
    const outcomes = [];
    for (const [index, forwarder] of ["ACMECARGO", "FWD2", "ACMECARGO", "FWD2", "ACMECARGO"].entries())
      outcomes.push(await ask(forwarder, at(index * 10)));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      "requested",
      "collapsed",
      "collapsed",
      "collapsed",
      "collapsed",
    ]);
    expect(statusJobs()).toHaveLength(1);
    expect(deliveries.records.size).toBe(1);
    const [record] = deliveries.records.values();
    expect(record).toMatchObject({
      subscriptionKind: "carrier",
      subscriptionId: 20,
      forwarderId: "ACMECARGO",
    });

    expect((await ask("FWD2", at(900))).kind).toBe("requested");
    expect(statusJobs()).toHaveLength(2);
  });

  it("a request whose job never ran is queued again by a sendsme of its window after a minute", async () => {
    queue.failNext = 1;
    await expect(ask("ACMECARGO")).rejects.toThrow(/queue unavailable/);
    expect(statusJobs()).toHaveLength(0);
    expect((await ask("ACMECARGO", at(30))).kind).toBe("collapsed");
    expect(statusJobs()).toHaveLength(0);
    expect((await ask("FWD2", at(61))).kind).toBe("collapsed");
    expect(statusJobs().map((job) => [job.request.requestId, job.attempt])).toEqual([
      [statusRequestId(AWB, NOW), 1],
    ]);
  });

  it("counts every XTD sendsme in its forwarder's ledger of the month, collapsed ones marked; QP not", async () => {
    await ask("ACMECARGO");
    await ask("FWD2", at(10));
    await ask("FWD2", at(20), false);
    await ask("ACMECARGO", "2026-04-01T00:00:00.000Z");
    const march = await getXtdUsage(
      { usage },
      { forwarderId: "FWD2", month: "2026-03", page: { page: 1, pageSize: 10 } },
    );
    expect(march.count).toBe(1);
    expect(march.entries.items).toEqual([
      {
        forwarderId: "FWD2",
        month: "2026-03",
        at: at(10),
        awb: AWB,
        requestId: statusRequestId(AWB, NOW),
        collapsed: true,
      },
    ]);
    const all = await listXtdUsage({ usage }, { month: "2026-03", page: { page: 1, pageSize: 10 } });
    expect(all).toEqual({
      total: 2,
      forwarders: {
        items: [
          { forwarderId: "ACMECARGO", count: 1 },
          { forwarderId: "FWD2", count: 1 },
        ],
        total: 2,
      },
    });
    expect((await listXtdUsage({ usage }, { month: "2026-04", page: { page: 1, pageSize: 10 } })).total).toBe(
      1,
    );
  });
});

describe("delivery through the carrier's channel", () => {
  it("Url: POSTs the message signed with the carrier's secret; webhook-id is the request id", async () => {
    carrierWith({ channel: "Url", url: CARRIER_URL, format: "cargo-imp", signingSecret: SECRET });
    const job = await firstRequestJob();
    expect(await deliver(job)).toMatchObject({ outcome: "delivered", status: 200 });
    const [post] = http.requests;
    expect(post?.url).toBe(CARRIER_URL);
    expect(post?.body).toBe("FSR/1\n020-12345675HAJJFK\n");
    expect(post?.headers["webhook-id"]).toBe(job.request.requestId);
    const verifier = new StandardWebhook(SECRET);
    expect(verifier.sign(job.request.requestId, new Date(SENT_AT * 1000), post?.body ?? "")).toBe(
      post?.headers["webhook-signature"],
    );
    expect((await deliveries.get(job.deliveryId))?.status).toBe("delivered");
  });

  it("Url: a 500 is retried with backoff on the delivery queue; a 410 parks (nothing switched off)", async () => {
    carrierWith({ channel: "Url", url: CARRIER_URL, format: "json", signingSecret: SECRET });
    http.script(CARRIER_URL, answer(500), answer(410));
    const job = await firstRequestJob();
    queue.sent.length = 0;
    const first = await deliver(job);
    expect(first).toMatchObject({ outcome: "retry", status: 500 });
    expect(queue.sent).toEqual([{ jobs: [{ ...job, attempt: 2 }], delaySeconds: expect.any(Number) }]);
    const second = await deliver({ ...job, attempt: 2 }, at(10));
    expect(second).toMatchObject({ outcome: "parked", status: 410 });
    expect(settings.get("020")?.statusRequests?.channel).toBe("Url");
  });

  it("Email: mails the message through SES, subject naming the AWB and request", async () => {
    carrierWith({ channel: "Email", email: "fsr@carrier.example", format: "json" });
    const job = await firstRequestJob();
    expect(await deliver(job)).toMatchObject({ outcome: "delivered" });
    expect(email.sent).toHaveLength(1);
    expect(email.sent[0]?.to).toBe("fsr@carrier.example");
    expect(email.sent[0]?.subject).toBe(`FSR 020-12345675 (${job.request.requestId})`);
    expect(JSON.parse(email.sent[0]?.text ?? "")).toMatchObject({
      Type: "FSR",
      RequestId: job.request.requestId,
    });
  });

  it("Pull: waits in the carrier's queue, oldest first, until acked; another carrier's ack is 404", async () => {
    carrierWith({ channel: "Pull", format: "cargo-imp" });
    const job = await firstRequestJob();
    expect(await deliver(job)).toMatchObject({ outcome: "delivered", status: null });
    const page = { page: 1, pageSize: 10 };
    const listed = await listCarrierRequests({ carrierInbox: inbox }, { carrierPrefix: "020", page });
    expect(listed.items.map((item) => [item.request.requestId, item.body])).toEqual([
      [job.request.requestId, "FSR/1\n020-12345675HAJJFK\n"],
    ]);
    await expect(
      ackCarrierRequest({ carrierInbox: inbox }, { carrierPrefix: "176", requestId: job.request.requestId }),
    ).rejects.toBeInstanceOf(StatusRequestNotFoundError);
    await ackCarrierRequest(
      { carrierInbox: inbox },
      { carrierPrefix: "020", requestId: job.request.requestId },
    );
    expect((await listCarrierRequests({ carrierInbox: inbox }, { carrierPrefix: "020", page })).total).toBe(
      0,
    );
  });

  it("no channel: parked with the reason, listed in the carrier's log, replayed once a channel is set", async () => {
    carrierWith(null);
    const job = await firstRequestJob();
    expect(await deliver(job)).toMatchObject({ outcome: "skipped" });
    const carriers = { get: async (prefix: string) => settings.get(prefix) ?? null };
    const log = await listCarrierStatusRequests(
      { carriers, deliveries },
      { prefix: "020", page: { page: 1, pageSize: 10 } },
    );
    expect(log.items.map((record) => [record.status, record.attempts[0]?.detail])).toEqual([
      ["parked", "skipped: carrier 020 has no StatusRequests channel (replay once support sets one)"],
    ]);
    await expect(
      replayCarrierStatusRequest(
        { deliveries, queue },
        { prefix: "176", requestId: job.deliveryId, now: at(60) },
      ),
    ).rejects.toBeInstanceOf(StatusRequestNotFoundError);

    carrierWith({ channel: "Pull", format: "json" });
    queue.sent.length = 0;
    const replay = await replayCarrierStatusRequest(
      { deliveries, queue },
      { prefix: "020", requestId: job.deliveryId, now: at(60) },
    );
    expect(replay.job).toEqual({ ...job, attempt: 2 });
    expect(await deliver(replay.job as StatusRequestJob, at(61))).toMatchObject({ outcome: "delivered" });
    expect(inbox.items.size).toBe(1);
  });
});

describe("the carrier's StatusRequests settings", () => {
  const targets = (allowed: boolean) => ({
    checkTarget: async () =>
      allowed ? { allowed: true as const } : { allowed: false as const, reason: "link-local" },
  });
  let secrets: number;
  const deps = (allowed = true) => ({
    carriers: {
      get: async (prefix: string) => settings.get(prefix) ?? null,
      put: async (carrier: CarrierSettings) => void settings.set(carrier.airlinePrefix, carrier),
    },
    tenants: memoryTenantRepository(),
    statusRequestChannels: { targets: targets(allowed), newSigningSecret: () => `whsec_secret${++secrets}` },
  });
  const put = (statusRequests: StatusRequestSettings | null, allowed = true) =>
    putCarrier(deps(allowed), {
      prefix: "020",
      settings: { name: "Carrier 020", qualityProgram: true, xtd: true, statusRequests },
      now: NOW,
    });
  beforeEach(() => {
    secrets = 0;
  });

  it("a Url channel gets a signing secret once; the same Url keeps it, a new Url gets a new one", async () => {
    const first = await put({ channel: "Url", url: CARRIER_URL, format: "json" });
    expect(first.newSigningSecret).toBe("whsec_secret1");
    expect(settings.get("020")?.statusRequests?.signingSecret).toBe("whsec_secret1");
    const same = await put({ channel: "Url", url: CARRIER_URL, format: "cargo-imp" });
    expect(same.newSigningSecret).toBeUndefined();
    expect(settings.get("020")?.statusRequests).toMatchObject({
      format: "cargo-imp",
      signingSecret: "whsec_secret1",
    });
    const moved = await put({ channel: "Url", url: `${CARRIER_URL}/v2`, format: "json" });
    expect(moved.newSigningSecret).toBe("whsec_secret2");
    const pull = await put({ channel: "Pull", format: "json" });
    expect(pull.newSigningSecret).toBeUndefined();
    expect(settings.get("020")?.statusRequests).toEqual({ channel: "Pull", format: "json" });
  });

  it("a Url the SSRF guard refuses is a 422 naming Url, nothing written", async () => {
    const error = await put({ channel: "Url", url: "http://169.254.169.254/", format: "json" }, false).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnusableReferenceError);
    expect(settings.has("020")).toBe(false);
  });
});
