/**
 * Notifications end to end, through the real local runner: carrier messages become outbox events, the
 * stream handler matches them to rules and webhooks created over HTTP, the delivery handler sends
 * e-mail to the SES emulator and POSTs to a real local receiver. Retries run on a shrunken schedule
 * (DELIVERY_RETRY_SCALE), the first delivery batch crashes once (the runner's LOCAL_FAULT_CRASH_ONCE,
 * bin/local/faults.ts), and a long Retry-After goes through the Scheduler stand-in and the runner's
 * fake clock.
 */
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { confirmNotifyTo } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { makeJwt } from "../unit/notifications/helpers.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
let receiver: Receiver;
const carrier = tokens.carrier("020");
const RULES = "/ffw/service/routemap/eventconfignotifier";
const WEBHOOKS = "/ffw/service/routemap/webhook";
const PSK = "e2e-pre-shared-key-000001";
const WHSEC = `whsec_${Buffer.from("e2e-32-byte-signing-key-00000001").toString("base64")}`;
const TOKEN = makeJwt({ alg: "RS256", typ: "JWT" }, { sub: "route-map-tracker" });

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({
    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h -> 1, 1, 1, 1, 2, 4 s; a receiver's Retry-After is not scaled.
    DELIVERY_RETRY_SCALE: "0.0001",
    // The first deliver-job batch processes one record, then its Lambda crashes.
    LOCAL_FAULT_CRASH_ONCE: "deliver-job",
  });
  for (const prefix of ["020", "176"]) {
    const put = await call(stack.url, "PUT", `/support/carriers/${prefix}`, {
      token: tokens.support(),
      json: { Name: `Carrier ${prefix}`, QualityProgram: true, Xtd: true },
    });
    expect(put.status).toBe(200);
  }
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

interface Forwarder {
  id: string;
  code: string;
  cass: string;
  token: string;
}
function forwarder(n: number): Forwarder {
  const code = String(1_000_000 * n + n)
    .padStart(7, "0")
    .slice(0, 7);
  const cass = String(n).padStart(4, "0");
  return { id: `E2E-FWD${n}`, code, cass, token: tokens.forwarder(`E2E-FWD${n}`, code, cass, "FRA") };
}

/** 8-digit serial with its check digit (first seven digits mod 7). */
const serial = (n: number) => `${String(n).padStart(7, "0")}${n % 7}`;

const N = minuteNow();
/** Books FRA->JFK on LH400, files the FWB naming the owner agent, then reports the DEP. */
async function shipAndDepart(prefix: string, awbSerial: string, owner: Forwarder): Promise<void> {
  const std = N - 30 * MINUTE;
  const as = (p: string) => tokens.carrier(p);
  const token = prefix === "020" ? carrier : as(prefix);
  const booking = await call(stack.url, "POST", "/carrier/messages", {
    token,
    json: {
      Type: "BKD",
      AirlinePrefix: prefix,
      AwbNumber: awbSerial,
      Origin: "FRA",
      Destination: "JFK",
      Pieces: 10,
      WeightCode: "K",
      Weight: 250,
      Legs: [
        {
          CarrierCode: "LH",
          FlightNumber: "400",
          Date: local("FRA", std).date,
          Origin: "FRA",
          Destination: "JFK",
          ScheduledDeparture: local("FRA", std).jsonForm,
          ScheduledArrival: local("JFK", N + 8 * HOUR).jsonForm,
          IsRoadFeederService: false,
        },
      ],
    },
  });
  expect(booking.status, booking.text).toBe(200);
  const awb = `${prefix}-${awbSerial}`;
  const fwb = `FWB/16\n${awb}FRAJFK/T10K250.0MC1.5\nAGT//${owner.code}/${owner.cass}\n/ACME FORWARDING\n`;
  const t = local("FRA", N - 10 * MINUTE);
  const dep = `FSU/13\n${awb}FRAJFK/T10K250.0\nDEP/LH400/${t.ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}\n`;
  for (const body of [fwb, dep]) {
    const posted = await call(stack.url, "POST", "/carrier/messages", {
      token,
      body,
      contentType: "text/plain",
    });
    expect(posted.status, posted.text).toBe(200);
  }
}

function ruleBody(overrides: Record<string, unknown>) {
  return {
    ChannelType: "Email",
    NotifyTo: "ops@fwd.example",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    AirlinePrefix: "*",
    AwbNumber: "",
    Event: "DEP",
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Destination: "",
    Enabled: true,
    ...overrides,
  };
}

async function createRule(owner: Forwarder, overrides: Record<string, unknown>) {
  const created = await call(stack.url, "POST", RULES, { token: owner.token, json: ruleBody(overrides) });
  expect(created.status, created.text).toBe(200);
  return created.body as { Id: number };
}

async function createWebhook(owner: Forwarder, path: string, overrides: Record<string, unknown> = {}) {
  const created = await call(stack.url, "POST", WEBHOOKS, {
    token: owner.token,
    json: { Event: "DEP", Url: `${receiver.url}${path}`, Enable: true, Type: "json", AWB: "", ...overrides },
  });
  expect(created.status, created.text).toBe(200);
  return created.body as { Id: number; Enabled: boolean };
}

interface DeliveryView {
  DeliveryId: string;
  Status: string;
  Attempts: Array<{ Attempt: number; HttpStatus: number | null; Outcome: string; Detail: string }>;
}
async function webhookDeliveries(owner: Forwarder, id: number): Promise<DeliveryView[]> {
  const listed = await call(stack.url, "GET", `${WEBHOOKS}/${id}/deliveries`, { token: owner.token });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { Items: DeliveryView[] }).Items;
}
async function settledDelivery(owner: Forwarder, id: number, timeoutMs = 30_000): Promise<DeliveryView> {
  let found: DeliveryView | undefined;
  try {
    await waitFor(async () => {
      found = (await webhookDeliveries(owner, id)).find(
        (d) => d.Status === "delivered" || d.Status === "parked",
      );
      return found !== undefined;
    }, timeoutMs);
  } catch (error) {
    // What the forwarder would see, to tell "nothing matched" from "not delivered yet".
    console.error("deliveries so far", JSON.stringify(await webhookDeliveries(owner, id)));
    throw error;
  }
  if (!found) throw new Error("no settled delivery");
  return found;
}

interface StoredEmail {
  subject: string;
  destination: { to: string[] };
  body: { html?: string; text?: string };
}
async function emailsTo(address: string): Promise<StoredEmail[]> {
  const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: StoredEmail[] };
  // Alerts only: the confirmation e-mail a new NotifyTo address gets is not one.
  return store.emails.filter(
    (email) => email.destination.to.includes(address) && !email.subject.startsWith("Confirm shipment alerts"),
  );
}
const quietPeriod = () => new Promise((resolve) => setTimeout(resolve, 2000));

describe("one DEP, every channel", () => {
  it("e-mail, Url channel and json/xml/text webhooks get exactly one delivery each; nobody else gets any", async () => {
    const owner = forwarder(1);
    const stranger = forwarder(2);
    const endpoint = await call(stack.url, "POST", "/support/customer-endpoints", {
      token: tokens.support(),
      json: {
        ForwarderIdentifier: owner.id,
        Url: `${receiver.url}/all/url`,
        HeaderName: "apiKey",
        HeaderValue: "k-123456789",
      },
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    const guid = (endpoint.body as { Id: string }).Id;
    await createRule(owner, { NotifyTo: "dep@one.example" });
    await confirmNotifyTo(stack.sesUrl, "dep@one.example");
    await createRule(owner, { ChannelType: "Url", NotifyTo: guid, HeaderItems: "", FormatType: "Json" });
    const json = await createWebhook(owner, "/all/json", { Token: TOKEN, Psk: PSK });
    await createWebhook(owner, "/all/xml", { Type: "xml", Psk: WHSEC });
    await createWebhook(owner, "/all/text", { Type: "text", Token: TOKEN, AWB: "020" });
    // None of these may hear the DEP of 020-<serial 1>:
    await createRule(owner, { NotifyTo: "disabled@one.example", Enabled: false });
    await createRule(owner, { NotifyTo: "other-carrier@one.example", AirlinePrefix: "176" });
    await createRule(owner, {
      NotifyTo: "other-awb@one.example",
      AirlinePrefix: "020",
      AwbNumber: serial(2),
    });
    await createWebhook(owner, "/all/disabled", { Enable: false });
    await createWebhook(owner, "/all/other-carrier", { AWB: "176" });
    await createWebhook(owner, "/all/other-awb", { AWB: `020-${serial(2)}` });
    await createWebhook(stranger, "/all/stranger");

    await shipAndDepart("020", serial(1), owner);

    await waitFor(
      async () => receiver.received.filter((p) => p.path.startsWith("/all/")).length >= 4,
      30_000,
    );
    await waitFor(async () => (await emailsTo("dep@one.example")).length >= 1);
    await quietPeriod();

    const paths = receiver.received.filter((p) => p.path.startsWith("/all/")).map((p) => p.path);
    expect(paths.sort()).toEqual(["/all/json", "/all/text", "/all/url", "/all/xml"]);
    const mails = await emailsTo("dep@one.example");
    expect(mails.map((m) => m.subject)).toEqual([`AWB 020-${serial(1)} | MIL DEP | NTF Event`]);
    expect(mails[0]?.body.html).toContain("<table");
    for (const address of ["disabled@one.example", "other-carrier@one.example", "other-awb@one.example"])
      expect(await emailsTo(address)).toEqual([]);

    const [jsonPost] = receiver.postsTo("/all/json");
    expect(jsonPost?.headers["content-type"]).toBe("application/json");
    expect(jsonPost?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const payload = new StandardWebhook(PSK, { format: "raw" }).verify(
      jsonPost?.body ?? "",
      jsonPost?.headers as Record<string, string>,
    ) as Record<string, unknown>;
    expect(payload).toMatchObject({
      AirWaybillPrefix: "020",
      AirWaybillNumber: serial(1),
      ForwarderIdentifier: owner.id,
      AgentCode: owner.code,
      AgentCass: owner.cass,
      Type: "Event",
      Event: "DEP",
      CarrierCode: "LH",
      FlightNumber: "400",
    });
    const [delivery] = await webhookDeliveries(owner, json.Id);
    expect(jsonPost?.headers["webhook-id"]).toBe(delivery?.DeliveryId);

    const [xmlPost] = receiver.postsTo("/all/xml");
    expect(xmlPost?.headers["content-type"]).toBe("application/xml");
    new StandardWebhook(WHSEC).verify(xmlPost?.body ?? "", xmlPost?.headers as Record<string, string>, {
      jsonParse: false,
    });
    const [textPost] = receiver.postsTo("/all/text");
    expect(textPost?.headers["content-type"]).toBe("text/plain");
    expect(textPost?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(textPost?.body).toContain("Event: DEP\n");
    const [urlPost] = receiver.postsTo("/all/url");
    expect(urlPost?.headers["content-type"]).toBe("application/json");
    expect(urlPost?.headers.apikey).toBe("k-123456789");

    // The first delivery batch crashed after its first record, and still nothing was lost or doubled.
    expect(stack.output()).toContain("simulated crash after the first record");
  });
});

describe("retries", () => {
  it("a receiver answering 500 three times gets the event on the 4th attempt; the log shows all 4", async () => {
    const owner = forwarder(3);
    receiver.on("/flaky", { statuses: [500, 500, 500, 204] });
    const hook = await createWebhook(owner, "/flaky");
    await shipAndDepart("020", serial(3), owner);

    const delivery = await settledDelivery(owner, hook.Id);

    expect(delivery.Status).toBe("delivered");
    expect(delivery.Attempts.map((a) => [a.Attempt, a.HttpStatus, a.Outcome])).toEqual([
      [1, 500, "retry"],
      [2, 500, "retry"],
      [3, 500, "retry"],
      [4, 204, "delivered"],
    ]);
    expect(receiver.postsTo("/flaky")).toHaveLength(4);
  });

  it(
    "a receiver that never recovers ends parked, and a replay delivers it once it is back",
    async () => {
      const owner = forwarder(4);
      receiver.on("/dead", { statuses: [503] });
      const hook = await createWebhook(owner, "/dead");
      await shipAndDepart("020", serial(4), owner);

      const parked = await settledDelivery(owner, hook.Id, 45_000);
      expect(parked.Status).toBe("parked");
      expect(parked.Attempts).toHaveLength(7);
      expect(parked.Attempts.at(-1)?.Detail).toMatch(/retries-exhausted/);

      receiver.on("/dead", { statuses: [204] });
      const replay = await call(
        stack.url,
        "POST",
        `${WEBHOOKS}/${hook.Id}/deliveries/${encodeURIComponent(parked.DeliveryId)}/replay`,
        { token: owner.token },
      );
      expect(replay.status, replay.text).toBe(202);
      await waitFor(async () => (await webhookDeliveries(owner, hook.Id))[0]?.Status === "delivered");
      const [replayed] = await webhookDeliveries(owner, hook.Id);
      expect(replayed?.Attempts.at(-1)).toMatchObject({ Attempt: 8, HttpStatus: 204, Outcome: "delivered" });
      expect(receiver.postsTo("/dead")).toHaveLength(8);
    },
    scaled(60_000),
  );

  it("410 Gone switches the webhook off", async () => {
    const owner = forwarder(5);
    receiver.on("/gone", { statuses: [410] });
    const hook = await createWebhook(owner, "/gone");
    await shipAndDepart("020", serial(5), owner);

    const delivery = await settledDelivery(owner, hook.Id);

    expect(delivery.Attempts.map((a) => [a.HttpStatus, a.Outcome])).toEqual([[410, "disabled"]]);
    const read = await call(stack.url, "GET", `${WEBHOOKS}/${hook.Id}`, { token: owner.token });
    expect((read.body as { Enabled: boolean }).Enabled).toBe(false);

    // Switching it back on challenges the Url again before it hears anything.
    const challenged = receiver.challenges.filter((c) => c.path === "/gone").length;
    const back = await call(stack.url, "PUT", `${WEBHOOKS}/${hook.Id}`, {
      token: owner.token,
      json: { Event: "DEP", Url: `${receiver.url}/gone`, Enable: true, Type: "json", AWB: "" },
    });
    expect(back.status, back.text).toBe(200);
    expect(receiver.challenges.filter((c) => c.path === "/gone")).toHaveLength(challenged + 1);
    expect(back.headers.get("x-webhook-verification")).toBe("verified");
  });

  // Last: it moves the runner's clock forward.
  it("a Retry-After beyond 15 minutes waits in the Scheduler and fires when the clock gets there", async () => {
    const owner = forwarder(6);
    receiver.on("/later", { statuses: [503, 204], retryAfter: "1200" });
    const hook = await createWebhook(owner, "/later", { Psk: PSK });
    await shipAndDepart("020", serial(6), owner);

    await waitFor(async () => (await webhookDeliveries(owner, hook.Id))[0]?.Status === "retrying");
    const schedules = (await call(stack.url, "GET", "/__local/schedules", { token: tokens.support() }))
      .body as Array<{
      Name: string;
      Target: { Arn: string };
    }>;
    expect(schedules.filter((s) => s.Target.Arn.endsWith(":DeliveryJobs"))).toHaveLength(1);
    await quietPeriod();
    expect(receiver.postsTo("/later")).toHaveLength(1);

    // Retry-After 1200 plus its upward jitter (up to 20 %).
    const moved = await call(stack.url, "POST", "/__local/clock", {
      json: { advanceMs: 1_441_000 },
      token: tokens.support(),
    });
    expect(moved.status).toBe(200);

    const delivery = await settledDelivery(owner, hook.Id);
    expect(delivery.Attempts.map((a) => [a.HttpStatus, a.Outcome])).toEqual([
      [503, "retry"],
      [204, "delivered"],
    ]);
    expect(receiver.postsTo("/later")).toHaveLength(2);
    // The runner's clock is 24 minutes ahead now, but webhook-timestamp is real time, so a receiver
    // checking it against its own clock (standardwebhooks: 5 minutes' tolerance) accepts it.
    const retried = receiver.postsTo("/later")[1];
    expect(() =>
      new StandardWebhook(PSK, { format: "raw" }).verify(
        retried?.body ?? "",
        retried?.headers as Record<string, string>,
      ),
    ).not.toThrow();
  });
});
