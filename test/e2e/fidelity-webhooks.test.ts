/**
 * Issue 11, forwarders' integrations (webhooks and the tolerant reader), through the real local runner:
 * - point 1: `Enable: true` means enabled; the URL challenge only sets `Verified` and the last
 *   verification outcome (GET and list), `POST …/verify` re-runs it, and an unverified webhook gets events;
 * - point 2: unknown and response-only members are ignored on every JSON route; a GET body echoed into a
 *   PUT works (masked secrets keep the stored ones); wrong types stay 400;
 * - point 13: a Url with CR/LF, tabs or spaces is a 400 naming Url;
 * - point 20: a PUT that changes the Url needs the secrets again (or null), never sends the stored Token
 *   to the new Url;
 * - point 22: 90 simultaneous creations against a limit of 50 store exactly 50 (rules and webhooks);
 * - point 23: a receiver that reflects the request body does not pass the challenge.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { makeJwt } from "../unit/notifications/helpers.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

const FFW = "/ffw/service/routemap";
const RULES = `${FFW}/eventconfignotifier`;
const WEBHOOKS = `${FFW}/webhook`;
const LIMIT = 50;
const TOKEN = makeJwt({ alg: "RS256", typ: "JWT" }, { sub: "first-receiver" });
const OTHER_TOKEN = makeJwt({ alg: "RS256", typ: "JWT" }, { sub: "second-receiver" });
const PSK = "fidelity-pre-shared-key-0001";

type Json = Record<string, unknown>;
const asJson = (body: unknown) => body as Json;
const fieldsOf = (body: unknown) =>
  ((asJson(body).errors ?? []) as Array<{ field: string }>).map((e) => e.field);

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let stack: RunningStack;
let receiver: Server;
let receiverUrl: string;
/** A port nothing listens on: a receiver that is down. */
let downUrl: string;
const received: Received[] = [];
/** Paths whose receiver currently answers the challenge with its bare value. */
const answering = new Set<string>(["/bare"]);

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ path, headers: request.headers, body });
      const challenge = request.headers["x-route-map-challenge"];
      if (path === "/reflect") {
        // A reflector: answers 200 with exactly what it was sent.
        response.writeHead(200, { "content-type": String(request.headers["content-type"]) }).end(body);
      } else if (path === "/json-echo" && typeof challenge === "string") {
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ Challenge: challenge }));
      } else if (answering.has(path) && typeof challenge === "string") {
        response.writeHead(200, { "content-type": "text/plain" }).end(challenge);
      } else {
        response.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/down`;
  await new Promise((resolve) => closed.close(resolve));
  stack = await startRunner({
    MAX_WEBHOOKS_PER_FORWARDER: String(LIMIT),
    MAX_RULES_PER_FORWARDER: String(LIMIT),
    RATE_LIMIT_PER_SECOND: "1000",
    RATE_LIMIT_BURST: "1000",
  });
  const carrier = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Carrier 020", QualityProgram: true, Xtd: true },
  });
  expect(carrier.status, carrier.text).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

function forwarder(n: number) {
  const code = `${String(n).padStart(3, "0")}4567`;
  const cass = String(n).padStart(4, "0");
  return { id: `FID-FWD${n}`, code, cass, token: tokens.forwarder(`FID-FWD${n}`, code, cass, "FRA") };
}
type Forwarder = ReturnType<typeof forwarder>;

const post = (path: string, token: string, json?: unknown) => call(stack.url, "POST", path, { token, json });
const get = (path: string, token: string) => call(stack.url, "GET", path, { token });
const put = (path: string, token: string, json: unknown) => call(stack.url, "PUT", path, { token, json });

const webhookRequest = (path: string, extra: Json = {}) => ({
  Event: "DEP",
  Url: path.startsWith("http") ? path : `${receiverUrl}${path}`,
  Enable: true,
  Type: "json",
  AWB: "",
  ...extra,
});

async function createWebhook(owner: Forwarder, path: string, extra: Json = {}): Promise<Json> {
  const created = await post(WEBHOOKS, owner.token, webhookRequest(path, extra));
  expect(created.status, created.text).toBe(200);
  return asJson(created.body);
}

const challengesTo = (path: string) =>
  received.filter((r) => r.path === path && r.headers["x-route-map-challenge"]);
const eventsTo = (path: string) =>
  received.filter((r) => r.path === path && !r.headers["x-route-map-challenge"]);

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitForAsync(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const serial = (n: number) => `${String(n).padStart(7, "0")}${n % 7}`;
const N = minuteNow();
/** Books FRA->JFK on LH400, files the FWB naming the owner agent, then reports the DEP. */
async function shipAndDepart(awbSerial: string, owner: Forwarder): Promise<void> {
  const token = tokens.carrier("020");
  const std = N - 30 * MINUTE;
  const booking = await call(stack.url, "POST", "/carrier/messages", {
    token,
    json: {
      Type: "BKD",
      AirlinePrefix: "020",
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
  const awb = `020-${awbSerial}`;
  const fwb = `FWB/16\n${awb}FRAJFK/T10K250.0\nAGT//${owner.code}/${owner.cass}\n/ACME FORWARDING\n`;
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

describe("point 1: Enable true means enabled; verification is a proof, not a gate", () => {
  it(
    "a receiver that answers 204 is stored enabled and unverified, gets events, and verify re-runs the proof",
    async () => {
      const owner = forwarder(1);
      const created = await post(WEBHOOKS, owner.token, webhookRequest("/later-proof"));
      expect(created.status, created.text).toBe(200);
      const hook = asJson(created.body);
      expect(hook).toMatchObject({ Enabled: true, Verified: false });
      expect(hook.LastVerification).toMatchObject({ Outcome: "failed", At: expect.any(String) });
      expect(String(asJson(hook.LastVerification).Detail)).toMatch(/HTTP 204|challenge/);

      const read = asJson((await get(`${WEBHOOKS}/${hook.Id}`, owner.token)).body);
      expect(read).toMatchObject({ Enabled: true, Verified: false, LastVerification: hook.LastVerification });
      const listed = (asJson((await get(WEBHOOKS, owner.token)).body).Items as Json[]).find(
        (w) => w.Id === hook.Id,
      );
      expect(listed).toMatchObject({ Enabled: true, Verified: false });

      expect(read.LastDelivery).toBeNull();
      await shipAndDepart(serial(101), owner);
      await waitFor(() => eventsTo("/later-proof").length === 1);
      expect(JSON.parse(eventsTo("/later-proof")[0]?.body ?? "{}")).toMatchObject({ Event: "DEP" });
      // The last delivery outcome, in GET and in the list.
      let last: Json = {};
      await waitForAsync(async () => {
        last = asJson((await get(`${WEBHOOKS}/${hook.Id}`, owner.token)).body);
        return asJson(last.LastDelivery ?? {}).Status === "delivered";
      });
      expect(last.LastDelivery).toMatchObject({ Event: "DEP", Status: "delivered", HttpStatus: 204 });
      const inList = (asJson((await get(WEBHOOKS, owner.token)).body).Items as Json[]).find(
        (w) => w.Id === hook.Id,
      );
      expect(inList?.LastDelivery).toEqual(last.LastDelivery);

      answering.add("/later-proof");
      const verified = await post(`${WEBHOOKS}/${hook.Id}/verify`, owner.token);
      expect(verified.status, verified.text).toBe(200);
      expect(asJson(verified.body)).toMatchObject({ Enabled: true, Verified: true });
      expect(asJson(verified.body).LastVerification).toMatchObject({ Outcome: "verified" });
      expect(asJson((await get(`${WEBHOOKS}/${hook.Id}`, owner.token)).body)).toMatchObject({
        Verified: true,
      });
    },
    scaled(60_000),
  );

  it("a receiver that is down at creation is stored enabled, unverified, with the reason", async () => {
    const owner = forwarder(2);
    const hook = await createWebhook(owner, downUrl);
    expect(hook).toMatchObject({ Enabled: true, Verified: false });
    expect(String(asJson(hook.LastVerification).Detail)).toMatch(/network error/);
  });

  it("Enable false still creates a disabled webhook", async () => {
    const hook = await createWebhook(forwarder(3), "/bare", { Enable: false });
    expect(hook).toMatchObject({ Enabled: false, Verified: true });
  });
});

describe("point 23: a reflector cannot pass the challenge", () => {
  it("an endpoint echoing the request body (or the old JSON echo) stays unverified; the bare value passes", async () => {
    const owner = forwarder(4);
    const reflected = await createWebhook(owner, "/reflect");
    expect(reflected).toMatchObject({ Enabled: true, Verified: false });
    expect(String(asJson(reflected.LastVerification).Detail)).toMatch(/bare challenge/);
    expect(await createWebhook(owner, "/json-echo")).toMatchObject({ Verified: false });
    expect(await createWebhook(owner, "/bare")).toMatchObject({ Verified: true });
  });
});

describe("point 13: control characters and spaces in a Url", () => {
  it.each([
    ["CR/LF", "/a\r\nb"],
    ["LF", "/a\nb"],
    ["tab", "/a\tb"],
    ["space", "/a b"],
    ["trailing CR/LF", "/bare\r\n"],
  ])("a Url with %s is a 400 naming Url and nothing is stored", async (_name, path) => {
    const owner = forwarder(5);
    const before = asJson((await get(WEBHOOKS, owner.token)).body).TotalItems;
    const refused = await post(WEBHOOKS, owner.token, webhookRequest(`${receiverUrl}${path}`));
    expect(refused.status, refused.text).toBe(400);
    expect(fieldsOf(refused.body)).toEqual(["Url"]);
    expect(asJson((await get(WEBHOOKS, owner.token)).body).TotalItems).toBe(before);
    const endpoint = await post("/support/customer-endpoints", tokens.support(), {
      ForwarderIdentifier: owner.id,
      Url: `${receiverUrl}${path}`,
      HeaderName: "apiKey",
      HeaderValue: "customer-api-key-0001",
    });
    expect(endpoint.status, endpoint.text).toBe(400);
    expect(fieldsOf(endpoint.body)).toEqual(["Url"]);
  });
});

describe("point 20: a changed Url needs the secrets again", () => {
  it("echoing the masked secrets with a new Url is a 400 and sends nothing there; null clears them", async () => {
    const owner = forwarder(6);
    const hook = await createWebhook(owner, "/bare", { Token: TOKEN, Psk: PSK });
    const read = asJson((await get(`${WEBHOOKS}/${hook.Id}`, owner.token)).body);
    expect(read.Token).toMatch(/^••••/);

    const moved = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, {
      ...read,
      Url: `${receiverUrl}/attacker`,
    });
    expect(moved.status, moved.text).toBe(400);
    expect(fieldsOf(moved.body).sort()).toEqual(["Psk", "Token"]);
    expect(received.filter((r) => r.path === "/attacker")).toHaveLength(0);

    const kept = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, {
      ...webhookRequest("/attacker"),
      Token: TOKEN.slice(-4),
    });
    expect(kept.status).toBe(400);
    expect(received.filter((r) => r.path === "/attacker")).toHaveLength(0);

    const cleared = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, {
      ...read,
      Url: `${receiverUrl}/attacker`,
      Token: null,
      Psk: null,
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(asJson(cleared.body)).toMatchObject({ Token: null, Psk: null });
    const sent = received.filter((r) => r.path === "/attacker");
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request)).not.toContain(TOKEN);
    }

    const fresh = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, {
      ...webhookRequest("/bare"),
      Token: OTHER_TOKEN,
    });
    expect(fresh.status, fresh.text).toBe(200);
    expect(challengesTo("/bare").at(-1)?.headers.authorization).toBe(`Bearer ${OTHER_TOKEN}`);
  });
});

describe("point 2: tolerant reader", () => {
  it("a webhook GET body echoed into a PUT keeps the stored secrets (the next challenge carries them)", async () => {
    const owner = forwarder(7);
    const hook = await createWebhook(owner, "/bare", { Token: TOKEN, Psk: PSK, Comment: "ignored" });
    const read = asJson((await get(`${WEBHOOKS}/${hook.Id}`, owner.token)).body);
    const echoed = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, {
      ...read,
      Event: "DEP,ARR",
      Extra: { a: 1 },
    });
    expect(echoed.status, echoed.text).toBe(200);
    expect(asJson(echoed.body)).toMatchObject({
      Event: "DEP,ARR",
      Token: read.Token,
      Psk: read.Psk,
      Enabled: true,
    });
    const verified = await post(`${WEBHOOKS}/${hook.Id}/verify`, owner.token);
    expect(verified.status).toBe(200);
    expect(challengesTo("/bare").at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // `Enabled` echoed as false switches it off (Enable wins when both are sent).
    const off = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, { ...read, Enabled: false });
    expect(asJson(off.body).Enabled).toBe(false);
    const on = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, { ...read, Enabled: false, Enable: true });
    expect(asJson(on.body).Enabled).toBe(true);
    // A masked value that is not the stored one, and wrong types, stay 400.
    const wrongMask = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, { ...read, Psk: "••••zzzz" });
    expect(wrongMask.status).toBe(400);
    expect(fieldsOf(wrongMask.body)).toEqual(["Psk"]);
    const wrongType = await put(`${WEBHOOKS}/${hook.Id}`, owner.token, { ...read, Type: 5, Enable: "yes" });
    expect(wrongType.status).toBe(400);
    expect(fieldsOf(wrongType.body).sort()).toEqual(["Enable", "Type"]);
  });

  it("a rule GET body (with Id, ForwarderIdentifier, AgentCode, AgentCass, Origin, IgnoreStation) echoed into a PUT works", async () => {
    const owner = forwarder(8);
    const created = await post(RULES, owner.token, {
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
      Id: 999999,
      ForwarderIdentifier: "SOMEONE-ELSE",
      AgentCode: "0000000",
      IgnoreStation: null,
      Unknown: [1, 2],
    });
    expect(created.status, created.text).toBe(200);
    const rule = asJson(created.body);
    expect(rule.ForwarderIdentifier).toBe(owner.id);
    expect(rule.Id).not.toBe(999999);
    const read = asJson((await get(`${RULES}/${rule.Id}`, owner.token)).body);
    const echoed = await put(`${RULES}/${rule.Id}`, owner.token, { ...read, Event: "DEP,ARR", Note: "x" });
    expect(echoed.status, echoed.text).toBe(200);
    expect(asJson(echoed.body)).toMatchObject({
      Id: rule.Id,
      Event: "DEP,ARR",
      ForwarderIdentifier: owner.id,
    });
    const wrongType = await put(`${RULES}/${rule.Id}`, owner.token, { ...read, EventAlert: "yes" });
    expect(wrongType.status).toBe(400);
    expect(fieldsOf(wrongType.body)).toEqual(["EventAlert"]);
  });

  it("a prototype key is still refused (400 naming it), at any depth, and nothing is stored", async () => {
    const owner = forwarder(12);
    const body = JSON.stringify(webhookRequest("/bare"));
    for (const text of [
      `{"__proto__":{"admin":true},${body.slice(1)}`,
      `{"Extra":{"a":{"__proto__":{}}},${body.slice(1)}`,
    ]) {
      const refused = await call(stack.url, "POST", WEBHOOKS, {
        token: owner.token,
        body: text,
        contentType: "application/json",
      });
      expect(refused.status, refused.text).toBe(400);
      expect(fieldsOf(refused.body)[0]).toMatch(/__proto__$/);
    }
    expect(asJson((await get(WEBHOOKS, owner.token)).body).TotalItems).toBe(0);
  });

  it("customer endpoints, carriers, sendsme and search ignore unknown members", async () => {
    const support = tokens.support();
    const endpoint = await post("/support/customer-endpoints", support, {
      ForwarderIdentifier: "FID-FWD9",
      Url: `${receiverUrl}/customer`,
      HeaderName: "apiKey",
      HeaderValue: "customer-api-key-0009",
      Id: "ignored",
      Comment: "ignored",
    });
    expect(endpoint.status, endpoint.text).toBe(200);

    const carrier = asJson((await get("/support/carriers/020", support)).body);
    const echoedCarrier = await put("/support/carriers/020", support, { ...carrier, Extra: true });
    expect(echoedCarrier.status, echoedCarrier.text).toBe(200);
    const wrongCarrier = await put("/support/carriers/020", support, { ...carrier, Xtd: "yes" });
    expect(wrongCarrier.status).toBe(400);

    const owner = forwarder(9);
    const sendsme = await post(`${FFW}/sendsme`, owner.token, {
      AirlinePrefix: "020",
      AwbNumber: serial(109),
      AgentCode: owner.code,
      AgentCass: owner.cass,
      IsXTD: true,
      Comment: "ignored",
    });
    expect(sendsme.status, sendsme.text).toBeLessThan(300);

    const search = await post(FFW, owner.token, {
      AirlinePrefix: "020",
      CreationDate: { From: "2026-01-01", Note: 1 },
      Extra: 1,
    });
    expect(search.status, search.text).toBe(200);
    const wrongSearch = await post(FFW, owner.token, { AirlinePrefix: 20 });
    expect(wrongSearch.status).toBe(400);
  });
});

describe("point 22: limits hold under concurrency", () => {
  it(
    "90 simultaneous webhook creations against a limit of 50 store exactly 50",
    async () => {
      const owner = forwarder(10);
      const answers = await Promise.all(
        Array.from({ length: 90 }, () => post(WEBHOOKS, owner.token, webhookRequest("/limit"))),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 409)).toHaveLength(90 - LIMIT);
      expect(asJson((await get(`${WEBHOOKS}?PageSize=500`, owner.token)).body).TotalItems).toBe(LIMIT);
      // A deletion frees one slot, and exactly one.
      const first = (asJson((await get(WEBHOOKS, owner.token)).body).Items as Json[])[0];
      expect(
        (await call(stack.url, "DELETE", `${WEBHOOKS}/${first?.Id}`, { token: owner.token })).status,
      ).toBe(200);
      expect((await post(WEBHOOKS, owner.token, webhookRequest("/limit"))).status).toBe(200);
      expect((await post(WEBHOOKS, owner.token, webhookRequest("/limit"))).status).toBe(409);
    },
    scaled(60_000),
  );

  it(
    "90 simultaneous rule creations against a limit of 50 store exactly 50",
    async () => {
      const owner = forwarder(11);
      const rule = (n: number) => ({
        ChannelType: "Email",
        NotifyTo: `ops${n}@fwd.example`,
        HeaderItems: "AWB",
        FormatType: "Html",
        AirlinePrefix: "*",
        Event: "DEP",
        EventAlert: true,
        Enabled: true,
      });
      const answers = await Promise.all(
        Array.from({ length: 90 }, (_, n) => post(RULES, owner.token, rule(n))),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 409)).toHaveLength(90 - LIMIT);
      expect(asJson((await get(`${RULES}?PageSize=500`, owner.token)).body).TotalItems).toBe(LIMIT);
    },
    scaled(60_000),
  );
});
