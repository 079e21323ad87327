/**
 * Issue 12, acceptance line 1, through the real local runner: the support client the runner prints
 * gets a token at /oauth2/token; support onboards a forwarder and a carrier and gives each its own
 * client credentials; each gets its token and the README walk-through runs with those tokens. A
 * disabled or deleted client and a disabled or deleted tenant get 401 invalid_client on the next
 * token request; a token without `exp` or with the wrong scope is refused by the API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwarderClaims, signDevToken } from "../../bin/dev-issuer.ts";
import {
  basicAuthorization,
  call,
  clientToken,
  type RunningStack,
  startRunner,
  tokenRequest,
} from "../support/runner.ts";

let stack: RunningStack;
let support: string;

beforeAll(async () => {
  stack = await startRunner();
  support = await clientToken(stack, stack.supportClient.clientId, stack.supportClient.clientSecret);
});

afterAll(async () => {
  await stack?.stop();
});

/** The payload of a JWT, decoded (no verification: the API verifies). */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;

const basic = (clientId: string, clientSecret: string) => ({
  authorization: basicAuthorization(clientId, clientSecret),
});

function expectInvalidClient(answer: { status: number; headers: Headers; body: Record<string, unknown> }) {
  expect(answer.status).toBe(401);
  expect(answer.body.error).toBe("invalid_client");
  expect(answer.headers.get("www-authenticate")).toBe('Basic realm="route-map-tracker"');
  expect(answer.headers.get("cache-control")).toBe("no-store");
}

describe("the first support credential", () => {
  it("is printed by the runner and gets an access token of the support tenant at /oauth2/token", async () => {
    const { clientId, clientSecret } = stack.supportClient;
    expect(stack.tokenUrl).toBe(`${stack.url}/oauth2/token`);
    const answer = await tokenRequest(
      stack,
      { grant_type: "client_credentials" },
      basic(clientId, clientSecret),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(answer.body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    expect(answer.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const claims = claimsOf(answer.body.access_token as string);
    expect(claims).toMatchObject({
      sub: clientId,
      client_id: clientId,
      token_use: "access",
      scope: "routemap/support",
      role: "support",
      support_subject: "support",
    });
    expect(claims).not.toHaveProperty("aud");
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    // client_secret_post works as well as HTTP Basic.
    const posted = await tokenRequest(stack, {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(posted.status).toBe(200);
  });

  it("is accepted by the API on a support route", async () => {
    const response = await call(stack.url, "PUT", "/support/carriers/176", {
      token: support,
      json: { Name: "Token Test Cargo", QualityProgram: false, Xtd: false },
    });
    expect(response.status).toBe(200);
  });
});

describe("token endpoint refusals", () => {
  it("answers a wrong secret and an unknown client alike with 401 invalid_client", async () => {
    const wrong = await tokenRequest(
      stack,
      { grant_type: "client_credentials" },
      basic(stack.supportClient.clientId, `${stack.supportClient.clientSecret}x`),
    );
    expectInvalidClient(wrong);
    const unknown = await tokenRequest(
      stack,
      { grant_type: "client_credentials" },
      basic("nobody", "secret"),
    );
    expectInvalidClient(unknown);
    expect(unknown.body).toEqual(wrong.body);
    expectInvalidClient(await tokenRequest(stack, { grant_type: "client_credentials" }));
  });

  it("answers 400 for another grant type, a foreign scope and a missing grant type, 415 for JSON", async () => {
    const { clientId, clientSecret } = stack.supportClient;
    const auth = basic(clientId, clientSecret);
    const grant = await tokenRequest(stack, { grant_type: "password" }, auth);
    expect([grant.status, grant.body.error]).toEqual([400, "unsupported_grant_type"]);
    const scope = await tokenRequest(
      stack,
      { grant_type: "client_credentials", scope: "routemap/forwarder" },
      auth,
    );
    expect([scope.status, scope.body.error]).toEqual([400, "invalid_scope"]);
    const missing = await tokenRequest(stack, { scope: "routemap/support" }, auth);
    expect([missing.status, missing.body.error]).toEqual([400, "invalid_request"]);
    const json = await fetch(stack.tokenUrl, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials" }),
    });
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });
  });

  it("refuses an oversized body with 400 and never answers 5xx", async () => {
    const response = await fetch(stack.tokenUrl, {
      method: "POST",
      headers: { ...basic("x", "y"), "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=client_credentials&pad=${"a".repeat(64 * 1024)}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
    const get = await fetch(stack.tokenUrl);
    expect(get.status).toBe(405);
  });
});

describe("tokens the API refuses", () => {
  const fwd = forwarderClaims({ forwarderId: "FWDX", agentCode: "7654321", agentCass: "0002" });
  const accessShaped = (extra: Record<string, unknown>) =>
    signDevToken({ ...fwd, aud: undefined, token_use: "access", client_id: "some-client", ...extra });
  const read = (token: string) => call(stack.url, "GET", "/ffw/service/routemap/02012345675", { token });

  it("refuses a token without exp with 401", async () => {
    expect((await read(accessShaped({ scope: "routemap/forwarder", exp: undefined }))).status).toBe(401);
  });

  it("refuses forwarder claims under the carrier scope, or without a scope, with 401", async () => {
    expect((await read(accessShaped({ scope: "routemap/carrier" }))).status).toBe(401);
    expect((await read(accessShaped({}))).status).toBe(401);
    // The same token with the right scope passes the authorizer (404: no such route map yet).
    expect((await read(accessShaped({ scope: "routemap/forwarder" }))).status).toBe(404);
  });
});

describe("onboarding, then each tenant with its own token", () => {
  const FORWARDER = {
    ForwarderId: "FWDTOKENS",
    AgentCode: "7654321",
    AgentCass: "0002",
    AgentStation: "FRA",
    ContactEmail: "ops@fwd-tok.example",
  };
  const bySupport = (method: string, path: string, json?: unknown) =>
    call(stack.url, method, path, { token: support, ...(json === undefined ? {} : { json }) });
  const newClient = async (path: string, name: string) => {
    const created = await bySupport("POST", path, { Name: name });
    expect(created.status, created.text).toBe(201);
    const body = created.body as { ClientId: string; ClientSecret: string };
    return { clientId: body.ClientId, clientSecret: body.ClientSecret };
  };
  const tokenFor = (client: { clientId: string; clientSecret: string }) =>
    tokenRequest(stack, { grant_type: "client_credentials" }, basic(client.clientId, client.clientSecret));

  it("support onboards a forwarder and a carrier; their tokens carry exactly their tenant's claims", async () => {
    expect((await bySupport("POST", "/support/forwarders", FORWARDER)).status).toBe(201);
    const forwarderClient = await newClient("/support/forwarders/FWDTOKENS/clients", "integration");
    const put = await bySupport("PUT", "/support/carriers/020", {
      Name: "Example Cargo",
      QualityProgram: true,
      Xtd: true,
    });
    expect(put.status).toBe(200);
    const carrierClient = await newClient("/support/carriers/020/clients", "messaging");

    const fwdAnswer = await tokenFor(forwarderClient);
    expect(fwdAnswer.status).toBe(200);
    const fwd = fwdAnswer.body.access_token as string;
    const claims = claimsOf(fwd);
    expect(claims).toEqual({
      iss: expect.any(String),
      sub: forwarderClient.clientId,
      client_id: forwarderClient.clientId,
      token_use: "access",
      scope: "routemap/forwarder",
      iat: expect.any(Number),
      exp: (claims.iat as number) + 3600,
      jti: expect.any(String),
      role: "forwarder",
      forwarder_id: "FWDTOKENS",
      agent_code: "7654321",
      agent_cass: "0002",
      agent_station: "FRA",
    });
    const carrier = await clientToken(
      stack,
      carrierClient.clientId,
      carrierClient.clientSecret,
      "routemap/carrier",
    );
    expect(claimsOf(carrier)).toMatchObject({
      role: "carrier",
      carrier_prefix: "020",
      scope: "routemap/carrier",
    });
    expect(claimsOf(carrier)).not.toHaveProperty("forwarder_id");

    // The README walk-through with those tokens: the carrier books and files the FWB naming the
    // forwarder's agent, the forwarder reads the route map and asks to be told.
    const post = (text: string) =>
      call(stack.url, "POST", "/carrier/messages", { token: carrier, body: text, contentType: "text/plain" });
    const booked = await post(
      "FSU/13\n020-12345675FRAJFK/T10K250.0\nBKD/LH400/14MAR/FRAJFK/T10K250.0/S1325/S1555\n",
    );
    expect(booked.status, booked.text).toBe(200);
    const fwb = await post("FWB/16\n020-12345675FRAJFK/T10K250.0\nAGT//7654321/0002\n/ACME FORWARDING\n");
    expect(fwb.status, fwb.text).toBe(200);
    const read = await call(stack.url, "GET", "/ffw/service/routemap/02012345675", { token: fwd });
    expect(read.status, read.text).toBe(200);
    expect(JSON.stringify(read.body)).toContain("12345675");
    const rule = await call(stack.url, "POST", "/ffw/service/routemap/eventconfignotifier", {
      token: fwd,
      json: {
        ChannelType: "Email",
        NotifyTo: "ops@fwd-tok.example",
        HeaderItems: "AWB,MIL,NTF",
        FormatType: "Html",
        AirlinePrefix: "*",
        Event: "DEP,ARR",
        EventAlert: true,
        MissedEventAlert: false,
        ProActiveAlert: false,
        ProActiveTime: 0,
        Enabled: true,
      },
    });
    expect(rule.status, rule.text).toBe(200);
    const hook = await call(stack.url, "POST", "/ffw/service/routemap/webhook", {
      token: fwd,
      json: { Event: "DEP,ARR,RMP", Url: "http://127.0.0.1:9/hook", Enable: true, Type: "json", AWB: "020" },
    });
    expect(hook.status, hook.text).toBe(200);
    // The carrier token is no forwarder's: the forwarder route refuses it (403), and the reverse.
    expect(
      (await call(stack.url, "GET", "/ffw/service/routemap/02012345675", { token: carrier })).status,
    ).toBe(403);
    const asForwarder = await call(stack.url, "POST", "/carrier/messages", {
      token: fwd,
      body: "FSU/13\n",
      contentType: "text/plain",
    });
    expect(asForwarder.status).toBe(403);
  });

  it("a disabled or deleted client gets 401 invalid_client on its next token request; enabling it again works", async () => {
    await bySupport("POST", "/support/forwarders", { ...FORWARDER, ForwarderId: "FWDCLIENT" });
    const client = await newClient("/support/forwarders/FWDCLIENT/clients", "rotating");
    const other = await newClient("/support/forwarders/FWDCLIENT/clients", "kept");
    expect((await tokenFor(client)).status).toBe(200);

    const disable = await bySupport(
      "POST",
      `/support/forwarders/FWDCLIENT/clients/${client.clientId}/disable`,
    );
    expect(disable.status, disable.text).toBe(200);
    expectInvalidClient(await tokenFor(client));
    expect((await tokenFor(other)).status).toBe(200);
    expect(
      (await bySupport("POST", `/support/forwarders/FWDCLIENT/clients/${client.clientId}/enable`)).status,
    ).toBe(200);
    expect((await tokenFor(client)).status).toBe(200);

    // Rotation: a new client, then the old one deleted.
    const deleted = await bySupport("DELETE", `/support/forwarders/FWDCLIENT/clients/${client.clientId}`);
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expectInvalidClient(await tokenFor(client));
    expect((await tokenFor(other)).status).toBe(200);
  });

  it("a disabled or deleted tenant's clients get 401 invalid_client on the next token request", async () => {
    await bySupport("POST", "/support/forwarders", { ...FORWARDER, ForwarderId: "FWDOFFXXX" });
    const fwdClient = await newClient("/support/forwarders/FWDOFFXXX/clients", "a");
    expect(
      (await bySupport("PUT", "/support/carriers/176", { Name: "C", QualityProgram: false, Xtd: false }))
        .status,
    ).toBe(200);
    const carrierClient = await newClient("/support/carriers/176/clients", "b");
    expect((await tokenFor(fwdClient)).status).toBe(200);
    expect((await tokenFor(carrierClient)).status).toBe(200);

    expect((await bySupport("POST", "/support/forwarders/FWDOFFXXX/disable")).status).toBe(200);
    expect((await bySupport("POST", "/support/carriers/176/disable")).status).toBe(200);
    expectInvalidClient(await tokenFor(fwdClient));
    expectInvalidClient(await tokenFor(carrierClient));
    expect((await bySupport("POST", "/support/forwarders/FWDOFFXXX/enable")).status).toBe(200);
    expect((await tokenFor(fwdClient)).status).toBe(200);

    expect((await bySupport("DELETE", "/support/forwarders/FWDOFFXXX")).status).toBeLessThan(300);
    expect((await bySupport("DELETE", "/support/carriers/176")).status).toBeLessThan(300);
    expectInvalidClient(await tokenFor(fwdClient));
    expectInvalidClient(await tokenFor(carrierClient));
  });
});
