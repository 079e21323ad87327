/**
 * Bad-input suite: well over 1,000 generated malformed requests across every route of the route table
 * (foreign, expired, alg=none and garbage tokens, wrong roles, bad path parameters and AWBs, invalid
 * JSON, wrong content types, oversize bodies, wrong field types, injection strings, malformed carrier
 * messages). Every answer must be a 4xx problem+json — never a 5xx — and no table may change.
 */
import { createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { toJsonSchema } from "@valibot/to-json-schema";
import { afterAll, beforeAll, expect, it } from "vitest";
import { carrierClaims, forwarderClaims, signDevToken, supportClaims } from "../../bin/dev-issuer.ts";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import type { Role } from "../../functions/core/identity.ts";
import { ROUTES, type RouteDefinition, routePaths } from "../../functions/handlers/http/routes.ts";
import { TABLES } from "../../lib/definitions.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";

let stack: RunningStack;
let db: DynamoDBDocumentClient;

const AWB = "02012345675";
const INJECTIONS = [
  "' OR '1'='1",
  '"; DROP TABLE RouteMaps; --',
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell-style payload, literally.
  "${jndi:ldap://x/a}",
  "{{7*7}}",
  "\u0000",
  "%00",
  "\r\nX-Injected: yes",
  "😀".repeat(50),
];
const BAD_PATH_VALUES = [
  "x",
  "-1",
  "0",
  "1e9",
  "02012345670",
  "020-1234567",
  "9".repeat(300),
  ...INJECTIONS.slice(0, 6),
];

async function snapshotTables(): Promise<string> {
  const dump: Record<string, unknown[]> = {};
  for (const table of Object.values(TABLES)) {
    const items: unknown[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      // A Scan is fine here: this is the test looking at everything, not the service.
      const page = await db.send(new ScanCommand({ TableName: table.id, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    dump[table.id] = items.map((item) => JSON.stringify(item)).sort();
  }
  return JSON.stringify(dump);
}

beforeAll(async () => {
  stack = await startRunner({ RATE_LIMIT_PER_SECOND: "100000", RATE_LIMIT_BURST: "100000" });
  db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamoEndpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  // Something to be refused access to: a carrier, a route map owned by FWD1.
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Example Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status).toBe(200);
  const booking = await call(stack.url, "POST", "/carrier/messages", {
    token: tokens.carrier("020"),
    contentType: "text/plain",
    body: "FSU/13\n020-12345675FRAJFK/T10K250.0\nBKD/LH400/14MAR/FRAJFK/T10K250.0/S1325/S1555",
  });
  expect(booking.status).toBe(200);
}, 90_000);

afterAll(async () => {
  db?.destroy();
  await stack?.stop();
});

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

function badTokens(): string[] {
  const claims = forwarderClaims({ forwarderId: "FWD1", agentCode: "1234567", agentCass: "0001" });
  const [header, payload] = signDevToken(claims).split(".") as [string, string];
  const foreignKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    type: "pkcs8",
    format: "pem",
  });
  const foreign = `${header}.${payload}.${base64url(sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), createPrivateKey(foreignKey)))}`;
  const none = `${base64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`;
  const hs256 = `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${payload}.${base64url("forged")}`;
  const tampered = `${header}.${base64url(JSON.stringify({ ...claims, role: "support" }))}.${signDevToken(claims).split(".")[2]}`;
  return [
    signDevToken(claims, -3600),
    foreign,
    none,
    hs256,
    tampered,
    "garbage",
    "a.b.c",
    `${header}.${payload}`,
    signDevToken({ role: "forwarder", forwarder_id: "F", agent_code: "12", agent_cass: "x" }),
    signDevToken({ role: "pilot" }),
  ];
}

function tokenFor(role: Role): string {
  if (role === "forwarder") return tokens.forwarder();
  if (role === "carrier") return signDevToken(carrierClaims("020"));
  return signDevToken(supportClaims());
}

/** Fills a path template: valid-looking values everywhere except `bad` at parameter `target`. */
function fillPath(template: string, target: string | null, bad: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === target) return encodeURIComponent(bad);
    if (name === "awb") return AWB;
    if (name === "prefix") return "020";
    if (name === "id") return "987654";
    return "0000-no-such-thing";
  });
}

interface Probe {
  label: string;
  method: string;
  path: string;
  token?: string;
  headers?: Record<string, string>;
  body?: string;
  contentType?: string;
}

function wrongValuesFor(schema: Record<string, unknown>): unknown[] {
  const type = schema.type;
  if (type === "string") return [12345, true, [], { nested: 1 }, ...(schema.enum ? ["NOT_A_VALUE"] : [])];
  if (type === "boolean") return ["yes", 1, [], { value: true }];
  if (type === "number" || type === "integer") return ["1", "x", [], { n: 1 }, true];
  if (type === "array") return ["not-an-array", 7, { item: 1 }];
  if (type === "object") return ["not-an-object", 7, [1, 2]];
  return [Symbol.for("skip")];
}

function bodyProbes(route: RouteDefinition, path: string, token: string): Probe[] {
  const probes: Probe[] = [];
  const contentTypes = route.body?.contentTypes ?? [];
  const label = `${route.method} ${route.path}`;
  const post = (what: string, body: string, contentType: string): Probe => ({
    label: `${label} ${what}`,
    method: route.method,
    path,
    token,
    body,
    contentType,
  });
  for (const type of [
    "application/x-www-form-urlencoded",
    "image/png",
    "text/html",
    "application/octet-stream",
  ]) {
    if (!contentTypes.includes(type)) probes.push(post(`content-type ${type}`, "a=1", type));
  }
  probes.push(
    post("oversize", JSON.stringify({ blob: "x".repeat(300 * 1024) }), contentTypes[0] ?? "application/json"),
  );
  if (contentTypes.includes("application/json")) {
    for (const text of ["{", '{"a":}', "[1,2", "nul", "{'single':1}", "\u0000", "", '{"a":1}}']) {
      probes.push(post(`invalid JSON ${JSON.stringify(text)}`, text, "application/json"));
    }
  }
  if (
    route.body?.schema &&
    contentTypes.includes("application/json") &&
    route.handler !== "ingest-carrier-message"
  ) {
    const schema = toJsonSchema(route.body.schema, { errorMode: "ignore" }) as {
      properties?: Record<string, Record<string, unknown>>;
    };
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
      for (const wrong of wrongValuesFor(fieldSchema)) {
        if (typeof wrong === "symbol") continue;
        probes.push(
          post(`${field}=${JSON.stringify(wrong)}`, JSON.stringify({ [field]: wrong }), "application/json"),
        );
      }
      if (fieldSchema.type === "string") {
        for (const injection of INJECTIONS.slice(0, 4)) {
          probes.push(
            post(
              `${field} injection`,
              JSON.stringify({ [field]: injection, __unknown: 1 }),
              "application/json",
            ),
          );
        }
      }
    }
  }
  if (route.handler === "ingest-carrier-message") {
    const cargoImp = [
      "garbage",
      "FSU/13",
      "FSU/13\n020-12345675FRAJFK/T10",
      "FSU/13\n020-12345670FRAJFK/T10K250.0\nDEP/LH400/14MAR/FRAJFK/T10/A1341",
      "FSU/13\n020-12345675FRAJFK/T10K250.0\nDEP/LH400/32MAR/FRAJFK/T10/A1341",
      "FSU/13\n020-12345675FRAJFK/T10K250.0\nDEP/LH400/14MAR/FRAJFK/T10/A2561",
      "FSU/13\n020-12345675FRAJFK/T10K250.0\nXYZ/14MAR0910/FRA/T10",
      "FSU/13\n020-12345675FRAQQQ/T10K250.0\nRCS/14MAR0910/QQQ/T10",
      `FSU/13\n020-12345675FRAJFK/T10K250.0\nRCS/14MAR0910/FRA/T10/${"X".repeat(200)}`,
      "FSU/13\n176-12345675FRAJFK/T10K250.0\nRCS/14MAR0910/FRA/T10",
      ...INJECTIONS,
    ];
    for (const text of cargoImp)
      probes.push(post(`Cargo-IMP ${JSON.stringify(text.slice(0, 30))}`, text, "text/plain"));
    const xml = [
      "<xml",
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      '<rsm:StatusMessage xmlns:rsm="x"></rsm:StatusMessage>',
      "<a><b></a>",
    ];
    for (const text of xml)
      probes.push(post(`XFSU ${JSON.stringify(text.slice(0, 30))}`, text, "application/xml"));
    for (const json of [
      {},
      { Messages: [] },
      { Type: "DEP" },
      { Messages: [{ Type: "XXX" }] },
      { Type: "DEP", AirlinePrefix: 20 },
    ]) {
      probes.push(post(`JSON ${JSON.stringify(json)}`, JSON.stringify(json), "application/json"));
    }
  }
  return probes;
}

function probesFor(route: RouteDefinition): Probe[] {
  const probes: Probe[] = [];
  for (const template of routePaths(route)) {
    const label = `${route.method} ${template}`;
    const params = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);
    const path = fillPath(template, null, "");
    if (route.roles === "public") continue;
    probes.push({ label: `${label} no token`, method: route.method, path });
    probes.push({
      label: `${label} basic auth`,
      method: route.method,
      path,
      headers: { authorization: "Basic Zm9vOmJhcg==" },
    });
    for (const token of badTokens())
      probes.push({ label: `${label} bad token`, method: route.method, path, token });
    const allowed = route.roles;
    for (const role of (["forwarder", "carrier", "support"] as const).filter((r) => !allowed.includes(r))) {
      probes.push({
        label: `${label} role ${role}`,
        method: route.method,
        path,
        token: tokenFor(role),
        ...(route.body ? { contentType: route.body.contentTypes[0], body: "{}" } : {}),
      });
    }
    const token = tokenFor(allowed[0] ?? "forwarder");
    for (const param of params) {
      for (const bad of BAD_PATH_VALUES) {
        const probe: Probe = {
          label: `${label} ${param}=${bad.slice(0, 20)}`,
          method: route.method,
          path: fillPath(template, param, bad),
          token,
        };
        if (route.body) Object.assign(probe, { body: "{}", contentType: route.body.contentTypes[0] });
        probes.push(probe);
      }
    }
    if (route.query) {
      for (const query of [
        "CurrentPage=-1",
        "CurrentPage=abc",
        "PageSize=0",
        "PageSize=501",
        "PageSize=1e3",
        `CurrentPage=${"9".repeat(40)}`,
      ]) {
        probes.push({
          label: `${label} ?${query}`,
          method: route.method,
          path: `${path}?${query}`,
          token,
          ...(route.body ? { body: "{}", contentType: "application/json" } : {}),
        });
      }
    }
    if (route.body && params.length === 0) probes.push(...bodyProbes(route, path, token));
    if (route.body && params.length > 0 && route.method !== "GET") {
      // Bodies on parameterised routes: the valid-looking ids above do not exist, so only refusals.
      probes.push(...bodyProbes(route, path, token).slice(0, 12));
    }
  }
  return probes;
}

it("answers 1,000+ malformed requests with 4xx problem+json and changes nothing", async () => {
  const before = await snapshotTables();
  const probes = ROUTES.flatMap(probesFor);
  expect(probes.length).toBeGreaterThanOrEqual(1000);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < probes.length; i += 16) {
    await Promise.all(
      probes.slice(i, i + 16).map(async (probe) => {
        const response = await call(stack.url, probe.method, probe.path, {
          ...(probe.token ? { token: probe.token } : {}),
          ...(probe.headers ? { headers: probe.headers } : {}),
          ...(probe.body !== undefined ? { body: probe.body } : {}),
          ...(probe.contentType ? { contentType: probe.contentType } : {}),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const body = response.body as Record<string, unknown> | null;
        const isProblem =
          response.headers.get("content-type")?.includes("application/problem+json") &&
          body !== null &&
          typeof body === "object" &&
          ["type", "title", "status", "detail", "errors"].every((key) => key in body) &&
          body.status === response.status;
        if (response.status < 400 || response.status >= 500 || !isProblem) {
          failures.push(`${probe.label} -> ${response.status} ${response.text.slice(0, 160)}`);
        }
      }),
    );
  }
  expect(failures).toEqual([]);
  expect(await snapshotTables()).toBe(before);
  // What the suite exercised, for the reader of the test log.
  process.stdout.write(
    `bad-input suite: ${probes.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
  );
}, 240_000);
