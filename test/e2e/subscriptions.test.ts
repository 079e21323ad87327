/**
 * Notification rules, webhooks (with the URL challenge against a real local receiver), deliveries and
 * customer endpoints through the real local runner: validation, paging, masking, limits and the rule
 * that forwarder B can neither see nor change forwarder A's subscriptions or deliveries (404).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import type { DeliveryRepository } from "../../functions/core/ports/notifications.ts";
import { deliveryRecord } from "../adapters/subscriptions/fixtures.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { emailRuleBody, makeEvent } from "../unit/notifications/helpers.ts";

const FFW = "/ffw/service/routemap";
const RULES = `${FFW}/eventconfignotifier`;
const WEBHOOKS = `${FFW}/webhook`;
const A = { id: "FWD-A", agent: "1234567", cass: "0001" };
const tokenA = tokens.forwarder(A.id, A.agent, A.cass, "FRA");
const tokenB = tokens.forwarder("FWD-B", "7654321", "0042", "JFK");
const tokenLimited = tokens.forwarder("FWD-LIMITED", "1111111", "0003");
const support = tokens.support();
const MAX_WEBHOOKS = 3;

let stack: RunningStack;
let receiver: Server;
let receiverUrl: string;
let deliveries: DeliveryRepository;
const received: Array<{ path: string; headers: IncomingMessage["headers"]; body: string }> = [];
/** Whether /toggle echoes the challenge (switched by a test). */
let toggleEchoes = false;

type Json = Record<string, unknown>;
const asJson = (body: unknown) => body as Json;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      const path = request.url ?? "";
      received.push({ path, headers: request.headers, body });
      const challenge = String(request.headers["x-route-map-challenge"] ?? "");
      if (path.startsWith("/echo") || (path === "/toggle" && toggleEchoes)) {
        // The proof the service expects: the bare challenge value.
        if (challenge) response.writeHead(200, { "content-type": "text/plain" }).end(challenge);
        else response.writeHead(204).end();
      } else if (path === "/json-echo") {
        // The old answer, { "Challenge": ... }: a reflector could produce it, so it no longer passes.
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ Challenge: challenge }));
      } else {
        response.writeHead(200).end("ok");
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  stack = await startRunner({ MAX_WEBHOOKS_PER_FORWARDER: String(MAX_WEBHOOKS) });
  // The test seeds delivery records straight into the runner's DynamoDB Local.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: stack.dynamoEndpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
  const { dynamoDeliveryRepository } = await import("../../functions/adapters/delivery-repository.ts");
  deliveries = dynamoDeliveryRepository("Deliveries");
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const post = (path: string, token: string, json?: unknown) => call(stack.url, "POST", path, { token, json });
const get = (path: string, token: string) => call(stack.url, "GET", path, { token });
const put = (path: string, token: string, json: unknown) => call(stack.url, "PUT", path, { token, json });
const del = (path: string, token: string) => call(stack.url, "DELETE", path, { token });
const fieldsOf = (body: unknown) => (asJson(body).errors as Array<{ field: string }>).map((e) => e.field);

async function registerEndpoint(forwarderId: string): Promise<string> {
  const response = await post("/support/customer-endpoints", support, {
    ForwarderIdentifier: forwarderId,
    Url: `${receiverUrl}/customer`,
    HeaderName: "apiKey",
    HeaderValue: "customer-api-key-0001",
  });
  expect(response.status).toBe(200);
  return asJson(response.body).Id as string;
}

const webhookRequest = (path: string, extra: Json = {}) => ({
  Event: "DEP,ARR",
  Url: `${receiverUrl}${path}`,
  Enable: true,
  Type: "json",
  AWB: "",
  ...extra,
});

describe("customer endpoints (support)", () => {
  it("registers with a GUID, reveals the header value once, lists it masked", async () => {
    const response = await post("/support/customer-endpoints", support, {
      ForwarderIdentifier: A.id,
      Url: `${receiverUrl}/customer`,
      HeaderName: "apiKey",
      HeaderValue: "customer-api-key-9876",
    });
    expect(response.status).toBe(200);
    const body = asJson(response.body);
    expect(body.Id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(body.HeaderValue).toBe("customer-api-key-9876");
    const list = await get("/support/customer-endpoints?PageSize=500", support);
    expect(list.status).toBe(200);
    const item = (asJson(list.body).Items as Json[]).find((e) => e.Id === body.Id);
    expect(item?.HeaderValue).toBe("••••9876");
    expect(list.text).not.toContain("customer-api-key-9876");
  });

  it("only support may register; bad input is a 400 naming the fields", async () => {
    expect((await post("/support/customer-endpoints", tokenA, {})).status).toBe(403);
    const bad = await post("/support/customer-endpoints", support, {
      ForwarderIdentifier: "",
      Url: "ftp://x",
      HeaderName: "Content-Type",
      HeaderValue: "a\nb",
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(["ForwarderIdentifier", "HeaderName", "HeaderValue", "Url"]);
  });
});

describe("notification rules", () => {
  it("creates an Email rule with the spec's response fields from the token", async () => {
    const response = await post(RULES, tokenA, emailRuleBody({ Event: "DEP" }));
    expect(response.status).toBe(200);
    const rule = asJson(response.body);
    expect(rule).toMatchObject({
      ChannelType: "Email",
      Event: "DEP",
      ForwarderIdentifier: A.id,
      AgentCode: A.agent,
      AgentCass: A.cass,
      Origin: null,
      IgnoreStation: null,
      Enabled: true,
    });
    expect(Number.isInteger(rule.Id)).toBe(true);
    const second = await post(`/api.routemap${RULES}`, tokenA, emailRuleBody());
    expect(second.status).toBe(200);
    expect(asJson(second.body).Id as number).toBeGreaterThan(rule.Id as number);
  });

  it("Url rule: needs an endpoint support registered for this very forwarder", async () => {
    const guid = await registerEndpoint(A.id);
    const body = emailRuleBody({ ChannelType: "Url", NotifyTo: guid, HeaderItems: "", FormatType: "Json" });
    const ok = await post(RULES, tokenA, body);
    expect(ok.status).toBe(200);
    expect(asJson(ok.body).NotifyTo).toBe(guid);
    const foreign = await post(RULES, tokenB, body);
    expect(foreign.status).toBe(422);
    expect(fieldsOf(foreign.body)).toEqual(["NotifyTo"]);
    const unknown = await post(RULES, tokenA, { ...body, NotifyTo: "3f2504e0-4f89-41d3-9a0c-0305e82c3301" });
    expect(unknown.status).toBe(422);
    expect(fieldsOf(unknown.body)).toEqual(["NotifyTo"]);
  });

  it.each([
    ["no alert flag", { EventAlert: false }, ["EventAlert"]],
    ["two alert flags", { MissedEventAlert: true }, ["MissedEventAlert"]],
    ["unknown event", { Event: "DEP,XYZ" }, ["Event"]],
    ["Email without HeaderItems", { HeaderItems: "" }, ["HeaderItems"]],
    ["Email with a non-address", { NotifyTo: "not-an-address" }, ["NotifyTo"]],
    ["Email with Json format", { FormatType: "Json" }, ["FormatType"]],
    ["bad airline prefix", { AirlinePrefix: "20" }, ["AirlinePrefix"]],
    ["AWB with a wrong check digit", { AirlinePrefix: "020", AwbNumber: "12345670" }, ["AwbNumber"]],
    ["ProActiveTime without ProActiveAlert", { ProActiveTime: 240 }, ["ProActiveTime"]],
    ["ProActiveAlert without time", { EventAlert: false, ProActiveAlert: true }, ["ProActiveTime"]],
    ["lower-case destination", { Destination: "jfk" }, ["Destination"]],
    ["unknown channel", { ChannelType: "Sms" }, ["ChannelType"]],
    ["Enabled missing", { Enabled: undefined }, ["Enabled"]],
    [
      "Url rule with header items",
      { ChannelType: "Url", NotifyTo: "3f2504e0-4f89-41d3-9a0c-0305e82c3301", FormatType: "Json" },
      ["HeaderItems"],
    ],
  ])("400 naming the field: %s", async (_name, overrides, fields) => {
    const before = asJson((await get(`${RULES}?PageSize=1`, tokenA)).body).TotalItems;
    const response = await post(RULES, tokenA, emailRuleBody(overrides));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(fieldsOf(response.body)).toEqual(fields);
    expect(asJson((await get(`${RULES}?PageSize=1`, tokenA)).body).TotalItems).toBe(before);
  });

  it("malformed JSON, a wrong content type and bad paging are refused", async () => {
    const malformed = await call(stack.url, "POST", RULES, {
      token: tokenA,
      body: "{",
      contentType: "application/json",
    });
    expect(malformed.status).toBe(400);
    const wrongType = await call(stack.url, "POST", RULES, {
      token: tokenA,
      body: "x",
      contentType: "text/plain",
    });
    expect(wrongType.status).toBe(415);
    const paging = await get(`${RULES}?PageSize=501&CurrentPage=0`, tokenA);
    expect(paging.status).toBe(400);
    expect(fieldsOf(paging.body).sort()).toEqual(["CurrentPage", "PageSize"]);
  });

  it("lists the caller's rules paged; another forwarder sees none of them", async () => {
    const token = tokens.forwarder("FWD-PAGING", "2222222", "0004");
    // Five distinct rules (an identical one is refused).
    for (let i = 0; i < 5; i++)
      expect((await post(RULES, token, emailRuleBody({ NotifyTo: `page${i}@fwd.example` }))).status).toBe(
        200,
      );
    const page = await get(`${RULES}?CurrentPage=2&PageSize=2`, token);
    expect(page.status).toBe(200);
    const body = asJson(page.body);
    expect(body).toMatchObject({ TotalItems: 5, TotalPages: 3, PageSize: 2, CurrentPage: 2 });
    expect(body.Items as Json[]).toHaveLength(2);
    const all = asJson((await get(RULES, token)).body);
    expect(all).toMatchObject({ TotalItems: 5, PageSize: 100, CurrentPage: 1 });
    const ids = (all.Items as Json[]).map((r) => r.Id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const other = asJson((await get(RULES, tokenB)).body);
    expect((other.Items as Json[]).some((r) => r.ForwarderIdentifier === "FWD-PAGING")).toBe(false);
  });

  it("the owner reads, replaces, disables, enables and deletes; forwarder B gets 404 for each", async () => {
    // Its own NotifyTo: an identical rule is refused.
    const created = asJson(
      (await post(RULES, tokenA, emailRuleBody({ Event: "DEP", NotifyTo: "crud@fwd.example" }))).body,
    );
    const path = `${RULES}/${created.Id}`;
    const replacement = emailRuleBody({ Event: "ARR,NFD", Destination: "JFK", NotifyTo: "crud@fwd.example" });
    for (const response of [
      await get(path, tokenB),
      await put(path, tokenB, replacement),
      await post(`${path}/disable`, tokenB),
      await post(`${path}/enable`, tokenB),
      await get(`${path}/deliveries`, tokenB),
      await post(`${path}/deliveries/evt-1:rule-${created.Id}/replay`, tokenB),
      await del(path, tokenB),
    ]) {
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(asJson((await get(path, tokenA)).body)).toEqual(created);
    const replaced = await put(path, tokenA, replacement);
    expect(replaced.status).toBe(200);
    expect(asJson(replaced.body)).toMatchObject({ Id: created.Id, Event: "ARR,NFD", Destination: "JFK" });
    expect(asJson((await post(`${path}/disable`, tokenA)).body).Enabled).toBe(false);
    expect(asJson((await get(path, tokenA)).body).Enabled).toBe(false);
    expect(asJson((await post(`${path}/enable`, tokenA)).body).Enabled).toBe(true);
    const deliveriesPage = await get(`${path}/deliveries`, tokenA);
    expect(deliveriesPage.status).toBe(200);
    expect(asJson(deliveriesPage.body)).toMatchObject({ TotalItems: 0, Items: [] });
    const deleted = await del(path, tokenA);
    expect(deleted.status).toBe(200);
    expect(asJson(deleted.body).Id).toBe(created.Id);
    expect((await get(path, tokenA)).status).toBe(404);
    expect((await del(path, tokenA)).status).toBe(404);
    expect((await get(`${RULES}/abc`, tokenA)).status).toBe(400);
  });

  it("a PUT with invalid content is a 400 and changes nothing", async () => {
    const created = asJson(
      (await post(RULES, tokenA, emailRuleBody({ NotifyTo: "badput@fwd.example" }))).body,
    );
    const path = `${RULES}/${created.Id}`;
    const bad = await put(path, tokenA, emailRuleBody({ Event: "", NotifyTo: "badput@fwd.example" }));
    expect(bad.status).toBe(400);
    expect(asJson((await get(path, tokenA)).body)).toEqual(created);
  });
});

describe("webhooks", () => {
  it("a receiver that echoes the challenge: verified, Enabled true, secrets shown once", async () => {
    const psk = "a-pre-shared-key-0123";
    const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    const before = received.length;
    const response = await post(WEBHOOKS, tokenA, webhookRequest("/echo", { Psk: psk, Token: token }));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-webhook-verification")).toBe("verified");
    const webhook = asJson(response.body);
    expect(Object.keys(webhook)).toEqual([
      "Id",
      "ForwarderIdentifier",
      "Event",
      "Url",
      "Token",
      "Enabled",
      "Type",
      "Psk",
      "AWB",
      "Verified",
      "LastVerification",
    ]);
    expect(webhook).toMatchObject({
      ForwarderIdentifier: A.id,
      Enabled: true,
      Verified: true,
      Psk: psk,
      Token: token,
      AWB: null,
    });
    const challenge = received.slice(before).find((r) => r.path === "/echo");
    expect(JSON.parse(challenge?.body ?? "{}")).toMatchObject({
      Type: "WebhookVerification",
      WebhookId: webhook.Id,
    });
    expect(challenge?.headers.authorization).toBe(`Bearer ${token}`);

    const read = await get(`${WEBHOOKS}/${webhook.Id}`, tokenA);
    expect(asJson(read.body)).toMatchObject({ Psk: "••••0123", Token: "••••dXJl", Enabled: true });
    expect(read.text).not.toContain(psk);
    const list = await get(WEBHOOKS, tokenA);
    expect(list.text).not.toContain(psk);
    expect(list.text).not.toContain(token);
  });

  it("bad webhook input is a 400 naming the fields; a Url the service may not call is a 422", async () => {
    const before = asJson((await get(WEBHOOKS, tokenA)).body).TotalItems;
    const bad = await post(WEBHOOKS, tokenA, {
      ...webhookRequest("/echo"),
      Event: "DEP,AWD",
      AWB: "020-12345670",
      Psk: "short",
      Enable: "yes",
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body).sort()).toEqual(["AWB", "Enable", "Event", "Psk"]);
    const privateTarget = await post(WEBHOOKS, tokenA, {
      ...webhookRequest("/echo"),
      Url: "http://10.0.0.1/hook",
    });
    expect(privateTarget.status).toBe(422);
    expect(fieldsOf(privateTarget.body)).toEqual(["Url"]);
    expect(asJson((await get(WEBHOOKS, tokenA)).body).TotalItems).toBe(before);
  });

  it("a JSON { Challenge } echo no longer passes (a reflector could produce it); the webhook is enabled anyway", async () => {
    const response = await post(WEBHOOKS, tokenA, webhookRequest("/json-echo"));
    expect(asJson(response.body)).toMatchObject({ Enabled: true, Verified: false });
    await del(`${WEBHOOKS}/${asJson(response.body).Id}`, tokenA);
  });

  it("a receiver that does not answer the challenge: stored enabled, unverified with the reason; verify passes once it answers", async () => {
    toggleEchoes = false;
    const response = await post(WEBHOOKS, tokenA, webhookRequest("/toggle"));
    expect(response.status).toBe(200);
    expect(asJson(response.body)).toMatchObject({ Enabled: true, Verified: false });
    expect(response.headers.get("x-webhook-verification")).toBe(
      "failed; answer is not the bare challenge value (HTTP 200, answer body: ok)",
    );
    const id = asJson(response.body).Id;
    const read = await get(`${WEBHOOKS}/${id}`, tokenA);
    expect(asJson(read.body)).toMatchObject({ Enabled: true, Verified: false });
    expect(read.headers.get("x-webhook-verification")).toMatch(/^failed; /);
    toggleEchoes = true;
    const verified = await post(`${WEBHOOKS}/${id}/verify`, tokenA);
    expect(verified.status).toBe(200);
    expect(asJson(verified.body)).toMatchObject({ Enabled: true, Verified: true });
    expect(verified.headers.get("x-webhook-verification")).toBe("verified");
    await del(`${WEBHOOKS}/${id}`, tokenA);
  });

  it("a PUT with a new Url (and the secret sent again) challenges the new receiver; secrets stay masked", async () => {
    const created = asJson(
      (await post(WEBHOOKS, tokenA, webhookRequest("/echo", { Psk: "another-psk-value-4567" }))).body,
    );
    const before = received.length;
    const updated = await put(
      `${WEBHOOKS}/${created.Id}`,
      tokenA,
      webhookRequest("/echo-2", { Event: "NFD", Psk: "another-psk-value-4567" }),
    );
    expect(updated.status).toBe(200);
    expect(asJson(updated.body)).toMatchObject({ Event: "NFD", Psk: "••••4567", Enabled: true });
    expect(received.slice(before).map((r) => r.path)).toEqual(["/echo-2"]);
    const invalid = await put(
      `${WEBHOOKS}/${created.Id}`,
      tokenA,
      webhookRequest("/echo", { Type: "yaml", Token: "abc" }),
    );
    expect(invalid.status).toBe(400);
    expect(fieldsOf(invalid.body).sort()).toEqual(["Token", "Type"]);
    await del(`${WEBHOOKS}/${created.Id}`, tokenA);
  });

  it("forwarder B can neither see nor change A's webhook or its deliveries", async () => {
    const created = asJson((await post(WEBHOOKS, tokenA, webhookRequest("/echo"))).body);
    const path = `${WEBHOOKS}/${created.Id}`;
    const record = deliveryRecord(
      `evt-b-${Date.now()}`,
      created.Id as number,
      { status: "parked" },
      {
        forwarderId: A.id,
        agentCode: A.agent,
        agentCass: A.cass,
        agentStation: "FRA",
      },
    );
    await deliveries.create({ ...record, createdAt: new Date().toISOString() });
    for (const response of [
      await get(path, tokenB),
      await put(path, tokenB, webhookRequest("/echo")),
      await post(`${path}/verify`, tokenB),
      await get(`${path}/deliveries`, tokenB),
      await post(`${path}/deliveries/${encodeURIComponent(record.deliveryId)}/replay`, tokenB),
      await del(path, tokenB),
    ]) {
      expect(response.status).toBe(404);
    }
    expect(
      (asJson((await get(WEBHOOKS, tokenB)).body).Items as Json[]).some((w) => w.Id === created.Id),
    ).toBe(false);
    // GET adds the newest delivery (LastDelivery) to what the creation answered.
    const { LastDelivery, ...read } = asJson((await get(path, tokenA)).body);
    expect(read).toEqual(created);
    expect(LastDelivery).toMatchObject({ DeliveryId: record.deliveryId, Status: "parked" });
    const own = await get(`${path}/deliveries`, tokenA);
    expect(asJson(own.body)).toMatchObject({ TotalItems: 1 });
    expect((asJson(own.body).Items as Json[])[0]).toMatchObject({
      DeliveryId: record.deliveryId,
      Status: "parked",
    });
  });

  it("replays a parked delivery (202) onto the delivery queue; an unknown delivery is 404", async () => {
    const created = asJson(
      (await post(WEBHOOKS, tokenA, webhookRequest("/echo-replay", { Event: "DEP" }))).body,
    );
    const eventId = `evt-replay-${Date.now()}`;
    const owner = { forwarderId: A.id, agentCode: A.agent, agentCass: A.cass, agentStation: "FRA" };
    const base = deliveryRecord(eventId, created.Id as number, { status: "parked" }, owner);
    const event = makeEvent({
      eventId,
      recordedAt: new Date().toISOString(),
      audience: { ownerAgent: { code: A.agent, cass: A.cass }, xtdForwarders: [] },
    });
    const job = { ...base.job, event, target: { ...base.job.target, url: `${receiverUrl}/echo-replay` } };
    await deliveries.create({ ...base, job, createdAt: new Date().toISOString() });
    await deliveries.recordAttempt(
      base.deliveryId,
      {
        attempt: 1,
        at: new Date().toISOString(),
        status: 500,
        latencyMs: 5,
        outcome: "parked",
        detail: "HTTP 500",
      },
      "parked",
    );
    const path = `${WEBHOOKS}/${created.Id}/deliveries`;
    const replay = await post(`${path}/${encodeURIComponent(base.deliveryId)}/replay`, tokenA);
    expect(replay.status).toBe(202);
    expect(asJson(replay.body)).toMatchObject({
      DeliveryId: base.deliveryId,
      ReplayAttempt: 2,
      Status: "parked",
    });
    expect((await post(`${path}/nope:webhook-${created.Id}/replay`, tokenA)).status).toBe(404);
    // The delivery handler (queue poller) takes the replayed job and POSTs the event to the receiver.
    const deadline = Date.now() + 15_000;
    const delivered = () =>
      received.find(
        (r) =>
          r.path === "/echo-replay" &&
          r.headers["webhook-id"] === undefined &&
          !r.headers["x-route-map-challenge"],
      );
    while (!delivered() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(JSON.parse(delivered()?.body ?? "{}")).toMatchObject({
      IdMessage: expect.any(String),
      Event: "DEP",
    });
    const log = asJson((await get(path, tokenA)).body).Items as Json[];
    expect(log[0]).toMatchObject({ Status: "delivered" });
    expect(((log[0]?.Attempts ?? []) as Json[]).map((a) => a.Attempt)).toEqual([1, 2]);
  });

  it("DELETE removes the webhook; at most MAX_WEBHOOKS_PER_FORWARDER per forwarder (409)", async () => {
    for (let i = 0; i < MAX_WEBHOOKS; i++) {
      expect((await post(WEBHOOKS, tokenLimited, webhookRequest("/echo"))).status).toBe(200);
    }
    const refused = await post(WEBHOOKS, tokenLimited, webhookRequest("/echo"));
    expect(refused.status).toBe(409);
    const first = (asJson((await get(WEBHOOKS, tokenLimited)).body).Items as Json[])[0];
    const deleted = await del(`${WEBHOOKS}/${first?.Id}`, tokenLimited);
    expect(deleted.status).toBe(200);
    expect((await get(`${WEBHOOKS}/${first?.Id}`, tokenLimited)).status).toBe(404);
    expect((await post(WEBHOOKS, tokenLimited, webhookRequest("/echo"))).status).toBe(200);
  });

  it("the OpenAPI document lists the routes and documents the challenge", async () => {
    const document = asJson((await call(stack.url, "GET", "/openapi.json")).body);
    const paths = document.paths as Record<string, Record<string, Json>>;
    for (const path of [
      RULES,
      `${RULES}/{id}`,
      `${RULES}/{id}/enable`,
      `${WEBHOOKS}/{id}/verify`,
      `${WEBHOOKS}/{id}/deliveries/{deliveryId}/replay`,
      "/support/customer-endpoints",
    ]) {
      expect(paths[path], path).toBeDefined();
    }
    expect(JSON.stringify(paths[WEBHOOKS]?.post)).toContain("x-route-map-challenge");
  });
});
