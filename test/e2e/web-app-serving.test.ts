/**
 * The web app on the real local runner: /app/ serves the built app with the app's CSP and
 * security headers, config.json says how to sign in, assets are gzipped and cached for good while
 * index.html is revalidated, and the dev sign-in lists the forwarders support onboarded and mints a
 * person's token that reads that forwarder's route maps only. The browser tests (test/browser/)
 * drive the pages themselves.
 */
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  APP_SECURITY_HEADERS,
  appContentSecurityPolicy,
  LOCAL_SIGN_IN_PATH,
} from "../../functions/contracts/web-app.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
const AWB = "02012345675";

/** fetch without automatic decompression (Node's fetch would unzip and hide content-encoding). */
async function raw(path: string, headers: Record<string, string> = {}, method = "GET", body?: string) {
  const { request } = await import("node:http");
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const req = request(`${stack.url}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
          ),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

function expectAppHeaders(headers: Record<string, string>) {
  expect(headers["content-security-policy"]).toBe(appContentSecurityPolicy());
  for (const [name, value] of Object.entries(APP_SECURITY_HEADERS)) expect(headers[name], name).toBe(value);
}

const signIn = (forwarderId: unknown) =>
  call(stack.url, "POST", LOCAL_SIGN_IN_PATH, { json: { ForwarderId: forwarderId } });

beforeAll(async () => {
  stack = await startRunner();
  const support = tokens.support();
  for (const [id, agent, cass] of [
    ["WEBFWDXXX", "1234567", "0001"],
    ["WEBOTHERX", "7654321", "0042"],
  ] as const) {
    const created = await call(stack.url, "POST", "/support/forwarders", {
      token: support,
      json: {
        ForwarderId: id,
        AgentCode: agent,
        AgentCass: cass,
        ContactEmail: `ops@${id.toLowerCase()}.example`,
      },
    });
    expect(created.status, created.text).toBe(201);
  }
  const disabled = await call(stack.url, "POST", "/support/forwarders/WEBOTHERX/disable", { token: support });
  expect(disabled.status, disabled.text).toBe(200);
  // One route map of WEBFWDXXX's agent (its FWB names agent 1234567/0001).
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: support,
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
  const std = local("FRA", minuteNow() + 6 * HOUR);
  const sta = local("JFK", minuteNow() + 14 * HOUR);
  for (const body of [
    `FSU/13\n020-12345675FRAJFK/T10K250.0\nBKD/LH400/${std.ddmmm}/FRAJFK/T10K250.0/S${std.hhmm}/S${sta.hhmm}\n`,
    "FWB/16\n020-12345675FRAJFK/T10K250.0\nAGT//1234567/0001\n/ACME FORWARDING\n",
  ]) {
    const posted = await call(stack.url, "POST", "/carrier/messages", {
      token: tokens.carrier("020"),
      body,
      contentType: "text/plain",
    });
    expect(posted.status, posted.text).toBe(200);
  }
}, scaled(120_000));

afterAll(async () => {
  await stack?.stop();
});

describe("serving the app", () => {
  it("the banner names the app's URL", () => {
    expect(stack.output()).toContain(`App              ${stack.url}/app/`);
  });

  it("/app/ is the app's page with the CSP and security headers, never cached; /app redirects", async () => {
    const page = await raw("/app/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-cache");
    expectAppHeaders(page.headers);
    const html = page.body.toString("utf8");
    // No inline script or style (the CSP would block them): only the hashed files.
    expect(html).toMatch(/<script type="module" src="assets\/app-[A-Z0-9]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="assets\/app-[A-Z0-9]+\.css">/);
    expect(html).not.toMatch(/<script>|<style|style="/);

    const redirect = await raw("/app");
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe("/app/");
    expectAppHeaders(redirect.headers);
    // `/` stays the API's (no route there): the app does not take it over.
    expect((await raw("/")).status).toBe(404);
  });

  it("config.json says the local sign-in", async () => {
    const config = await raw("/app/config.json");
    expect(config.status).toBe(200);
    expect(config.headers["cache-control"]).toBe("no-cache");
    expectAppHeaders(config.headers);
    expect(JSON.parse(config.body.toString("utf8"))).toEqual({ SignIn: "local" });
  });

  it("assets are gzipped when accepted and cached as immutable; unknown files 404 with the headers", async () => {
    const html = (await raw("/app/")).body.toString("utf8");
    const script = /src="(assets\/app-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    const style = /href="(assets\/app-[A-Z0-9]+\.css)"/.exec(html)?.[1];
    expect(script && style).toBeTruthy();
    for (const [file, type] of [
      [script, "text/javascript; charset=utf-8"],
      [style, "text/css; charset=utf-8"],
    ] as const) {
      const zipped = await raw(`/app/${file}`, { "accept-encoding": "gzip, deflate, br" });
      expect(zipped.status).toBe(200);
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.headers["content-type"]).toBe(type);
      expect(zipped.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(zipped.headers.vary).toBe("accept-encoding");
      expectAppHeaders(zipped.headers);
      const plain = await raw(`/app/${file}`);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      expect(zipped.body.length).toBeLessThan(plain.body.length);
    }
    // The first page's transfer stays far under the 150 KB budget.
    const firstPage = await Promise.all(
      ["/app/", `/app/${script}`, `/app/${style}`].map((path) => raw(path, { "accept-encoding": "gzip" })),
    );
    expect(firstPage.reduce((sum, response) => sum + response.body.length, 0)).toBeLessThan(150 * 1024);

    const missing = await raw("/app/assets/nope.js");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toContain("application/problem+json");
    expectAppHeaders(missing.headers);
    const posted = await raw("/app/", {}, "POST");
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe("GET, HEAD");
  });
});

describe("dev sign-in", () => {
  it("lists the enabled onboarded forwarders, without a token", async () => {
    const listed = await call(stack.url, "GET", LOCAL_SIGN_IN_PATH);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("no-store");
    expect(listed.body).toEqual({ Items: [{ Id: "WEBFWDXXX", Name: "WEBFWDXXX" }] });
  });

  it("mints a person's token that reads that forwarder's route map, and only its own", async () => {
    const signedIn = await signIn("WEBFWDXXX");
    expect(signedIn.status, signedIn.text).toBe(200);
    const answer = signedIn.body as { access_token: string; token_type: string; expires_in: number };
    expect(answer).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 3600 });
    const claims = JSON.parse(Buffer.from(answer.access_token.split(".")[1] ?? "", "base64url").toString());
    expect(claims).toMatchObject({
      role: "forwarder",
      forwarder_id: "WEBFWDXXX",
      agent_code: "1234567",
      agent_cass: "0001",
      client_id: "local-web-app",
      token_use: "access",
      scope: "routemap/forwarder",
    });
    expect(claims.exp - claims.iat).toBe(3600);

    const own = await call(stack.url, "GET", `/ffw/service/routemap/${AWB}`, { token: answer.access_token });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ Shipment: { AirlinePrefix: "020", AwbNumber: "12345675" } });
    // A support route is not a forwarder's.
    const support = await call(stack.url, "GET", "/support/forwarders", { token: answer.access_token });
    expect(support.status).toBe(403);
  });

  it("refuses an unknown forwarder (404), a disabled one (403) and a bad body (400), all problem+json", async () => {
    const unknown = await signIn("NO-SUCH-FWD");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
    const disabled = await signIn("WEBOTHERX");
    expect(disabled.status).toBe(403);
    expect(disabled.headers.get("content-type")).toContain("application/problem+json");
    for (const body of [{ ForwarderId: 42 }, { ForwarderId: "../x" }, {}]) {
      const bad = await call(stack.url, "POST", LOCAL_SIGN_IN_PATH, { json: body });
      expect(bad.status).toBe(400);
      expect((bad.body as { errors: Array<{ field: string }> }).errors[0]?.field).toBe("ForwarderId");
    }
    const notJson = await call(stack.url, "POST", LOCAL_SIGN_IN_PATH, {
      body: "{",
      contentType: "application/json",
    });
    expect(notJson.status).toBe(400);
    const wrongMethod = await call(stack.url, "DELETE", LOCAL_SIGN_IN_PATH);
    expect(wrongMethod.status).toBe(405);
  });

  it("other /__local/ endpoints still need a support token", async () => {
    expect((await call(stack.url, "GET", "/__local/schedules")).status).toBe(401);
    const forwarder = (await signIn("WEBFWDXXX")).body as { access_token: string };
    expect(
      (await call(stack.url, "GET", "/__local/schedules", { token: forwarder.access_token })).status,
    ).toBe(403);
  });

  it("share links point at this runner's app (APP_BASE_URL set at start), whatever Host the call names", async () => {
    const forwarder = (await signIn("WEBFWDXXX")).body as { access_token: string };
    const created = await raw(
      `/ffw/service/routemap/${AWB}/share`,
      {
        host: "elsewhere.example",
        authorization: `Bearer ${forwarder.access_token}`,
        "content-type": "application/json",
      },
      "POST",
      JSON.stringify({ ExpiresInHours: 1 }),
    );
    expect(created.status, created.body.toString()).toBe(201);
    const { Url } = JSON.parse(created.body.toString()) as { Url: string };
    expect(Url).toMatch(new RegExp(`^${stack.url}/app/#/shared/[A-Za-z0-9_-]{43}$`));
  });
});
