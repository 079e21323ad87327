/**
 * The foundation's contract through the real local runner: OpenAPI, authentication, roles and the
 * problem+json error model for what the gateway and the handlers refuse.
 */
import { spawnSync } from "node:child_process";
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwarderClaims, signDevToken } from "../../bin/dev-issuer.ts";
import { ROUTES, routePaths } from "../../functions/contracts/routes.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";

let stack: RunningStack;

beforeAll(async () => {
  stack = await startRunner();
});

afterAll(async () => {
  await stack?.stop();
});

function expectProblem(response: { status: number; headers: Headers; body: unknown }, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const body = response.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["detail", "errors", "status", "title", "type"]);
  expect(body.status).toBe(status);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|node_modules|Error:/);
  return body;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");
const forwarderPath = "/ffw/service/routemap/02012345675";

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document listing every route, without a token", async () => {
    const response = await call(stack.url, "GET", "/openapi.json");
    expect(response.status).toBe(200);
    const document = response.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const route of ROUTES) {
      for (const path of routePaths(route)) {
        expect(document.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
      }
    }
  });
});

describe("authentication", () => {
  it("answers 401 problem+json on a spec route without a token", async () => {
    expectProblem(await call(stack.url, "GET", forwarderPath), 401);
  });

  it("reaches the handler with a dev token from `npm run token`", async () => {
    const cli = spawnSync(
      "npm",
      ["run", "--silent", "token", "--", "forwarder", "ACMECARGO", "--agent", "1234567", "--cass", "0001"],
      {
        encoding: "utf8",
      },
    );
    expect(cli.status).toBe(0);
    const token = cli.stdout.trim();
    expect(token.split(".")).toHaveLength(3);
    const response = await call(stack.url, "GET", forwarderPath, { token });
    // The handler answered (it sets x-request-id); the AWB has no route map yet.
    expect(response.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
    expectProblem(response, 404);
  });

  it("refuses expired, foreign-signed, alg=none and malformed tokens with 401", async () => {
    const claims = forwarderClaims({ forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001" });
    const expired = signDevToken(claims, -60);
    const [header, payload] = signDevToken(claims).split(".") as [string, string, string];
    const foreignKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const foreign = `${header}.${payload}.${base64url(sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), createPrivateKey(foreignKey.export({ type: "pkcs8", format: "pem" }))))}`;
    const none = `${base64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`;
    for (const token of [expired, foreign, none, "not-a-jwt", `${header}.${payload}`]) {
      expectProblem(await call(stack.url, "GET", forwarderPath, { token }), 401);
    }
    expectProblem(
      await call(stack.url, "GET", forwarderPath, { headers: { authorization: "Basic Zm9vOmJhcg==" } }),
      401,
    );
  });

  it("answers 403 when the role may not call the route", async () => {
    expectProblem(await call(stack.url, "GET", forwarderPath, { token: tokens.carrier() }), 403);
    expectProblem(await call(stack.url, "GET", "/support/carriers/020", { token: tokens.forwarder() }), 403);
  });
});

describe("errors are problem+json", () => {
  const support = () => tokens.support();

  it("unknown route 404, wrong method 405 with Allow", async () => {
    expectProblem(await call(stack.url, "GET", "/no/such/route", { token: support() }), 404);
    // GET, PUT and DELETE (offboarding) are this path's methods; POST is not.
    const wrongMethod = await call(stack.url, "POST", "/support/carriers/020", { token: support() });
    expectProblem(wrongMethod, 405);
    expect(wrongMethod.headers.get("allow")).toContain("PUT");
  });

  it("malformed JSON 400, wrong content type 415, too large 413, invalid fields 400 with field errors", async () => {
    const path = "/support/carriers/020";
    expectProblem(
      await call(stack.url, "PUT", path, {
        token: support(),
        body: '{"Name":',
        contentType: "application/json",
      }),
      400,
    );
    expectProblem(
      await call(stack.url, "PUT", path, { token: support(), body: "Name=x", contentType: "text/plain" }),
      415,
    );
    expectProblem(await call(stack.url, "PUT", path, { token: support(), body: "{}" }), 415);
    const huge = JSON.stringify({ Name: "x".repeat(300 * 1024), QualityProgram: true, Xtd: false });
    expectProblem(
      await call(stack.url, "PUT", path, { token: support(), body: huge, contentType: "application/json" }),
      413,
    );
    const invalid = expectProblem(
      await call(stack.url, "PUT", path, {
        token: support(),
        json: { Name: "", QualityProgram: "yes", Extra: 1 },
      }),
      400,
    );
    const fields = (invalid.errors as Array<{ field: string }>).map((error) => error.field);
    expect(fields).toEqual(expect.arrayContaining(["Name", "QualityProgram"]));
    // Nothing was written by the refused requests.
    expectProblem(await call(stack.url, "GET", path, { token: support() }), 404);
  });

  it("serves every route under the service prefix too", async () => {
    const put = await call(stack.url, "PUT", "/api.routemap/support/carriers/176", {
      token: support(),
      json: { Name: "Example Air Cargo", QualityProgram: false, Xtd: true },
    });
    expect(put.status).toBe(200);
    const get = await call(stack.url, "GET", "/support/carriers/176", { token: support() });
    expect(get.body).toEqual({
      AirlinePrefix: "176",
      Name: "Example Air Cargo",
      QualityProgram: false,
      Xtd: true,
    });
  });
});
