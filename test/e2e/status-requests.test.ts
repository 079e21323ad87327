/**
 * Issue 13 point 1, end to end through the real local runner: a sendsme's status request (FSR) reaches
 * the carrier through its StatusRequests channel by the delivery pipeline — a local HTTP receiver
 * (Standard Webhooks signature checked with the `standardwebhooks` package), the SES emulator, the pull
 * queue (ack removes it) — a receiver failing 3 times still gets it, 5 sendsme for one AWB within the
 * window give 1 request, and the XTD usage ledger counts per forwarder and month.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";

let stack: RunningStack;
let receiver: Receiver;
const SENDSME = "/ffw/service/routemap/sendsme";
const fwd1 = tokens.forwarder("SRFWD1", "1234567", "0001");
const fwd2 = tokens.forwarder("SRFWD2", "7654321", "0042");
const support = () => tokens.support();
const month = () => new Date().toISOString().slice(0, 7);

/** A serial with its check digit (the first seven digits mod 7). */
const serial = (seven: number) => `${seven}${seven % 7}`;

const sendsme = (token: string, agent: [string, string], prefix: string, awbSerial: string) =>
  call(stack.url, "POST", SENDSME, {
    token,
    json: {
      AirlinePrefix: prefix,
      AwbNumber: awbSerial,
      AgentCode: agent[0],
      AgentCass: agent[1],
      IsXTD: true,
    },
  });
const AGENT1: [string, string] = ["1234567", "0001"];
const AGENT2: [string, string] = ["7654321", "0042"];

async function putCarrier(prefix: string, statusRequests?: Record<string, unknown>) {
  return call(stack.url, "PUT", `/support/carriers/${prefix}`, {
    token: support(),
    json: {
      Name: `Carrier ${prefix}`,
      QualityProgram: true,
      Xtd: true,
      ...(statusRequests ? { StatusRequests: statusRequests } : {}),
    },
  });
}

interface LogEntry {
  RequestId: string;
  AwbNumber: string;
  Status: string;
  Attempts: Array<{ Outcome: string; HttpStatus: number | null }>;
}
const requestLog = async (prefix: string): Promise<LogEntry[]> => {
  const log = await call(stack.url, "GET", `/support/carriers/${prefix}/requests`, { token: support() });
  expect(log.status).toBe(200);
  return (log.body as { Items: LogEntry[] }).Items;
};

let urlSecret = "";
/** The collapse window of this runner: short, so the test also sees it end. */
const WINDOW_SECONDS = 5;

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({
    DELIVERY_RETRY_SCALE: "0.0001",
    STATUS_REQUEST_WINDOW_SECONDS: String(WINDOW_SECONDS),
  });
  const url = await putCarrier("020", { Channel: "Url", Url: `${receiver.url}/fsr`, Format: "cargo-imp" });
  expect(url.status).toBe(200);
  urlSecret = (url.body as { SigningSecret: string }).SigningSecret;
  expect(urlSecret).toMatch(/^whsec_/);
  expect(
    (await putCarrier("057", { Channel: "Email", Email: "fsr@carrier057.example", Format: "json" })).status,
  ).toBe(200);
  expect((await putCarrier("176", { Channel: "Pull", Format: "json" })).status).toBe(200);
  receiver.on("/flaky", { statuses: [500, 500, 500, 204] });
  expect(
    (await putCarrier("081", { Channel: "Url", Url: `${receiver.url}/flaky`, Format: "json" })).status,
  ).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

describe("carrier status-request settings", () => {
  it("shows the channel but never again the signing secret; a same-Url PUT keeps it", async () => {
    const get = await call(stack.url, "GET", "/support/carriers/020", { token: support() });
    expect(get.body).toMatchObject({
      StatusRequests: { Channel: "Url", Url: `${receiver.url}/fsr`, Format: "cargo-imp" },
    });
    expect(JSON.stringify(get.body)).not.toContain("whsec_");
    const again = await putCarrier("020", {
      Channel: "Url",
      Url: `${receiver.url}/fsr`,
      Format: "cargo-imp",
    });
    expect(again.status).toBe(200);
    expect((again.body as Record<string, unknown>).SigningSecret).toBeUndefined();
  });

  it("refuses a channel without its address, a bad channel and an unusable Url with 4xx naming the field", async () => {
    const noUrl = await putCarrier("099", { Channel: "Url", Format: "json" });
    expect(noUrl.status).toBe(400);
    expect(JSON.stringify(noUrl.body)).toContain("StatusRequests.Url");
    const noEmail = await putCarrier("099", { Channel: "Email", Format: "json" });
    expect(noEmail.status).toBe(400);
    expect(JSON.stringify(noEmail.body)).toContain("StatusRequests.Email");
    const badChannel = await putCarrier("099", { Channel: "Fax", Format: "xml" });
    expect(badChannel.status).toBe(400);
    expect(JSON.stringify(badChannel.body)).toContain("StatusRequests.Channel");
    const metadata = await putCarrier("099", {
      Channel: "Url",
      Url: "http://169.254.169.254/latest",
      Format: "json",
    });
    expect(metadata.status).toBe(422);
    expect(JSON.stringify(metadata.body)).toContain("Url");
    expect((await call(stack.url, "GET", "/support/carriers/099", { token: support() })).status).toBe(404);
  });
});

describe("a sendsme's status request", () => {
  it("is POSTed to the carrier's Url as Cargo-IMP with a valid Standard Webhooks signature", async () => {
    const awb = serial(2000001);
    expect((await sendsme(fwd1, AGENT1, "020", awb)).status).toBe(200);
    await waitFor(() => receiver.postsTo("/fsr").length === 1);
    const [post] = receiver.postsTo("/fsr");
    expect(post?.body).toBe(`FSR/1\n020-${awb}\n`);
    expect(post?.headers["content-type"]).toContain("text/plain");
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [
        name,
        String(post?.headers[name]),
      ]),
    );
    expect(() =>
      new Webhook(urlSecret).verify(post?.body ?? "", headers, { jsonParse: false }),
    ).not.toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.from("wrong").toString("base64")}`).verify(post?.body ?? "", headers),
    ).toThrow();
    await waitFor(async () => (await requestLog("020")).some((entry) => entry.Status === "delivered"));
    const [entry] = await requestLog("020");
    expect(entry).toMatchObject({
      RequestId: headers["webhook-id"],
      AwbNumber: `020-${awb}`,
      Status: "delivered",
    });
  });

  it("is mailed through SES in the JSON form", async () => {
    const awb = serial(2000002);
    expect((await sendsme(fwd1, AGENT1, "057", awb)).status).toBe(200);
    interface Stored {
      subject: string;
      destination: { to: string[] };
      body: { text?: string };
    }
    let mail: Stored | undefined;
    await waitFor(async () => {
      const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: Stored[] };
      mail = store.emails.find((email) => email.destination.to.includes("fsr@carrier057.example"));
      return mail !== undefined;
    });
    expect(mail?.subject).toContain(`FSR 057-${awb}`);
    expect(JSON.parse(mail?.body.text ?? "")).toMatchObject({
      Type: "FSR",
      AwbNumber: `057-${awb}`,
      RequestId: expect.stringMatching(/^SR-\d{13}-057/),
    });
    await waitFor(async () => (await requestLog("057"))[0]?.Status === "delivered");
  });

  it("waits in the pull queue until the carrier acks it; another carrier cannot ack it", async () => {
    const awb = serial(2000003);
    expect((await sendsme(fwd1, AGENT1, "176", awb)).status).toBe(200);
    const carrier = tokens.carrier("176");
    let items: Array<{ RequestId: string; AwbNumber: string; Message: string }> = [];
    await waitFor(async () => {
      const pulled = await call(stack.url, "GET", "/carrier/requests", { token: carrier });
      items = (pulled.body as { Items: typeof items }).Items;
      return items.length === 1;
    });
    const [item] = items;
    expect(item?.AwbNumber).toBe(`176-${awb}`);
    expect(JSON.parse(item?.Message ?? "")).toMatchObject({ Type: "FSR", AwbNumber: `176-${awb}` });
    const id = item?.RequestId ?? "";
    const foreign = await call(stack.url, "POST", `/carrier/requests/${id}/ack`, {
      token: tokens.carrier("020"),
    });
    expect(foreign.status).toBe(404);
    expect((await call(stack.url, "POST", `/carrier/requests/${id}/ack`, { token: carrier })).status).toBe(
      204,
    );
    const after = await call(stack.url, "GET", "/carrier/requests", { token: carrier });
    expect((after.body as { Items: unknown[] }).Items).toEqual([]);
    expect((await call(stack.url, "POST", `/carrier/requests/${id}/ack`, { token: carrier })).status).toBe(
      404,
    );
    const malformed = await call(stack.url, "POST", "/carrier/requests/nope/ack", { token: carrier });
    expect(malformed.status).toBe(400);
  });

  it("reaches a receiver that failed 3 times (retries with backoff, every attempt logged)", async () => {
    const awb = serial(2000004);
    expect((await sendsme(fwd1, AGENT1, "081", awb)).status).toBe(200);
    await waitFor(() => receiver.postsTo("/flaky").length === 4, 30_000);
    await waitFor(async () => (await requestLog("081"))[0]?.Status === "delivered", 10_000);
    const [entry] = await requestLog("081");
    expect(entry?.Attempts.map((attempt) => [attempt.Outcome, attempt.HttpStatus])).toEqual([
      ["retry", 500],
      ["retry", 500],
      ["retry", 500],
      ["delivered", 204],
    ]);
    // Every copy carries the same webhook-id (the request id): the carrier de-duplicates on it.
    expect(new Set(receiver.postsTo("/flaky").map((post) => post.headers["webhook-id"])).size).toBe(1);
  });

  it("collapses 5 sendsme for one AWB within the window into 1 request; after the window, a new one", async () => {
    const awb = serial(2000005);
    const started = Date.now();
    const answers = await Promise.all(
      [fwd1, fwd2, fwd1, fwd2, fwd1].map((token, index) =>
        sendsme(token, index % 2 === 0 ? AGENT1 : AGENT2, "020", awb),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await waitFor(() => receiver.postsTo("/fsr").some((post) => post.body.includes(awb)));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.postsTo("/fsr").filter((post) => post.body.includes(awb))).toHaveLength(1);
    expect((await requestLog("020")).filter((entry) => entry.AwbNumber === `020-${awb}`)).toHaveLength(1);

    // The window (STATUS_REQUEST_WINDOW_SECONDS) ends: the next sendsme asks the carrier again.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, started + WINDOW_SECONDS * 1000 + 500 - Date.now())),
    );
    expect((await sendsme(fwd1, AGENT1, "020", awb)).status).toBe(200);
    await waitFor(() => receiver.postsTo("/fsr").filter((post) => post.body.includes(awb)).length === 2);
  });
});

describe("park and replay", () => {
  it("parks a request for a carrier without a channel; support's replay delivers it once one is set", async () => {
    expect((await putCarrier("125")).status).toBe(200);
    const awb = serial(2000006);
    // A QP trigger (the ledger counts XTD only): the carrier's pending request, nothing granted.
    const qp = await call(stack.url, "POST", SENDSME, {
      token: fwd1,
      json: { AirlinePrefix: "125", AwbNumber: awb, AgentCode: AGENT1[0], AgentCass: AGENT1[1] },
    });
    expect(qp.status).toBe(200);
    await waitFor(async () => (await requestLog("125"))[0]?.Status === "parked");
    const [parked] = await requestLog("125");
    const id = parked?.RequestId ?? "";
    const replayPath = `/support/carriers/125/requests/${id}/replay`;
    expect(
      (await putCarrier("125", { Channel: "Url", Url: `${receiver.url}/late`, Format: "json" })).status,
    ).toBe(200);
    const replay = await call(stack.url, "POST", replayPath, { token: support() });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ RequestId: id, ReplayAttempt: 2 });
    await waitFor(() => receiver.postsTo("/late").length === 1);
    expect(JSON.parse(receiver.postsTo("/late")[0]?.body ?? "")).toMatchObject({
      RequestId: id,
      AwbNumber: `125-${awb}`,
    });
    await waitFor(async () => (await requestLog("125"))[0]?.Status === "delivered");
    const unknown = `SR-0000000000000-125${awb}`;
    const missing = await call(stack.url, "POST", `/support/carriers/125/requests/${unknown}/replay`, {
      token: support(),
    });
    expect(missing.status).toBe(404);
    const foreign = await call(stack.url, "POST", `/support/carriers/020/requests/${id}/replay`, {
      token: support(),
    });
    expect(foreign.status).toBe(404);
  });
});

describe("the XTD usage ledger", () => {
  it("counts every XTD sendsme per forwarder and month, collapsed ones marked", async () => {
    // SRFWD1: 4 single requests above + 3 of the five for one AWB + 1 after its window; SRFWD2: 2 of the five.
    const own = await call(stack.url, "GET", `/ffw/service/routemap/usage?month=${month()}`, { token: fwd1 });
    expect(own.status).toBe(200);
    const body = own.body as {
      XtdRequests: number;
      TotalItems: number;
      Items: Array<{ Collapsed: boolean }>;
    };
    expect(body).toMatchObject({ ForwarderIdentifier: "SRFWD1", XtdRequests: 8, TotalItems: 8 });
    const other = await call(stack.url, "GET", `/ffw/service/routemap/usage?month=${month()}`, {
      token: fwd2,
    });
    expect(other.body).toMatchObject({ ForwarderIdentifier: "SRFWD2", XtdRequests: 2 });
    // Of the five for one AWB exactly one asked the carrier.
    const collapsed = [
      ...body.Items,
      ...(other.body as { Items: Array<{ Collapsed: boolean }> }).Items,
    ].filter((item) => item.Collapsed);
    expect(collapsed).toHaveLength(4);

    const all = await call(stack.url, "GET", `/support/usage?month=${month()}`, { token: support() });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      Month: month(),
      XtdRequests: 10,
      Items: [
        { ForwarderIdentifier: "SRFWD1", XtdRequests: 8 },
        { ForwarderIdentifier: "SRFWD2", XtdRequests: 2 },
      ],
    });
    const none = await call(stack.url, "GET", "/ffw/service/routemap/usage?month=2020-01", { token: fwd1 });
    expect(none.body).toMatchObject({ XtdRequests: 0, Items: [] });
  });

  it("answers 400 naming month for a missing or malformed month; support only for all forwarders", async () => {
    const missing = await call(stack.url, "GET", "/ffw/service/routemap/usage", { token: fwd1 });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain("month");
    const bad = await call(stack.url, "GET", "/support/usage?month=2026-13", { token: support() });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("month");
    expect((await call(stack.url, "GET", `/support/usage?month=${month()}`, { token: fwd1 })).status).toBe(
      403,
    );
  });
});
