/**
 * Breaks an adversarial run found, each sent through the real local runner as a client would send it:
 * - a malformed percent-encoding in any path parameter of the route table answers 400 naming the
 *   parameter (404 for a share token, whose existence never leaks), public routes included;
 * - a token stops working the second its `exp` passes, although the authorizer's Allow is cached;
 * - 40 simultaneous XTD sendsme by one forwarder on one AWB answer 2xx or 409/429 with Retry-After,
 *   and the usage ledger counts exactly the 2xx;
 * - wrong client secrets at the token endpoint are throttled per client id and per source address
 *   (429 with Retry-After), while other clients' correct secrets still work;
 * - share links are capped: active links per AWB and links per forwarder per day (problem+json naming
 *   the limit).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwarderClaims, signDevToken } from "../../bin/dev-issuer.ts";
import { ROUTES, type RouteDefinition, routePaths } from "../../functions/contracts/routes.ts";
import type { Role } from "../../functions/core/identity.ts";
import {
  basicAuthorization,
  call,
  type RunningStack,
  startRunner,
  tokenRequest,
  tokens,
} from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack | undefined;
const api = () => {
  if (!stack) throw new Error("the runner did not start");
  return stack;
};

const FFW = "/ffw/service/routemap";
const AWB = "02012345675";
const OTHER_AWB = "02012345686";
const owner = () => tokens.forwarder("FWD1", "1234567", "0001", "FRA");
/** Not the owner of either AWB: its sendsme are XTD requests. */
const reader = () => tokens.forwarder("FWD2", "7654321", "0002", "FRA");
/** What a sendsme has left of its function's time in this runner. */
const SENDSME_TIME_MS = 6_000;
/** The daily cap of this runner: low enough to reach after the per-AWB cap (its default, 20). */
const DAILY_SHARE_LINKS = 30;

const std = local("FRA", minuteNow() + 6 * HOUR);
const sta = local("JFK", minuteNow() + 14 * HOUR);
const booking = (serial: string) =>
  `FSU/13\n020-${serial}FRAJFK/T10K250.0\nBKD/LH400/${std.ddmmm}/FRAJFK/T10K250.0/S${std.hhmm}/S${sta.hhmm}\n`;
const fwb = (serial: string) =>
  `FWB/16\n020-${serial}FRAJFK/T10K250.0\nAGT//1234567/0001\n/ACME FORWARDING\n`;

beforeAll(async () => {
  stack = await startRunner({
    // Hundreds of probes from one caller: the rate limit is not what they test.
    RATE_LIMIT_PER_SECOND: "100000",
    RATE_LIMIT_BURST: "100000",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    RATE_LIMIT_PER_HOUR: "1000000000",
    RATE_LIMIT_PER_DAY: "1000000000",
    SHARE_LINKS_PER_FORWARDER_PER_DAY: String(DAILY_SHARE_LINKS),
    // A loaded machine, for sendsme: most of the function's time already gone (bin/local/faults.ts).
    LOCAL_FAULT_TIME_LEFT_MS: `trigger-route-map=${SENDSME_TIME_MS}`,
  });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Example Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
  for (const serial of ["12345675", "12345686"]) {
    for (const body of [booking(serial), fwb(serial)]) {
      const posted = await call(stack.url, "POST", "/carrier/messages", {
        token: tokens.carrier("020"),
        body,
        contentType: "text/plain",
      });
      expect(posted.status, posted.text).toBe(200);
    }
  }
}, scaled(180_000));

afterAll(async () => {
  await stack?.stop();
});

const isProblem = (headers: Headers) =>
  (headers.get("content-type") ?? "").startsWith("application/problem+json");

// ---- malformed percent-encoding in path parameters ------------------------------------------------

/** Percent-encodings decodeURIComponent refuses: not hex, cut short, invalid UTF-8, a lone surrogate. */
const MALFORMED = ["%ZZ", "%E0%A4%A", "%", "abc%2", "%C0%AF", "%ED%A0%80", "%FF"];

/** A body the route accepts, so the refusal comes from the path parameter, not from the body. */
const BODIES: Partial<Record<RouteDefinition["handler"], unknown>> = {
  "create-route-map-share": { ExpiresInHours: 24 },
  "put-carrier": { Name: "Example Cargo", QualityProgram: true, Xtd: true },
  "create-forwarder-client": { Name: "a client" },
  "create-carrier-client": { Name: "a client" },
  "create-forwarder-user": { Email: "person@fwd1.example" },
  "update-notification-rule": {
    ChannelType: "Email",
    NotifyTo: "ops@fwd1.example",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    AirlinePrefix: "020",
    Event: "DEP,ARR",
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Enabled: true,
  },
  "update-webhook": { Event: "DEP", Url: "http://127.0.0.1:9/hook", Enable: true, Type: "json" },
  "update-customer-endpoint": {
    ForwarderIdentifier: "FWD1",
    Url: "http://127.0.0.1:9/customer",
    HeaderName: "apiKey",
    HeaderValue: "k-0123456789abcdef",
  },
  "put-station": { MinimumConnectionMinutes: 90 },
};

/** Bodies of routes that read JSON-LD, sent with its content type (the parameter is checked first). */
const JSON_LD_BODIES: Partial<Record<RouteDefinition["handler"], string>> = {
  "one-record-post-event": JSON.stringify({ "@type": "https://onerecord.iata.org/ns/cargo#LogisticsEvent" }),
};

/** A well-formed value of each parameter, for the parameters a probe does not break. */
const WELL_FORMED: Record<string, string> = {
  awb: AWB,
  prefix: "020",
  id: "1",
  token: "A".repeat(43),
  userId: "0b7c6a1e-5b0e-4c52-9d59-0d4f2c1f7a11",
  clientId: "abc123",
  deliveryId: "0000-delivery",
};

function tokenFor(roles: RouteDefinition["roles"]): string | undefined {
  if (roles === "public") return undefined;
  const role: Role = roles[0] ?? "forwarder";
  if (role === "forwarder") return owner();
  if (role === "carrier") return tokens.carrier("020");
  return tokens.support();
}

describe("a malformed percent-encoding in a path parameter", () => {
  const parameterised = ROUTES.filter((route) => route.path.includes("{"));

  it(
    "is refused by every id route of the table: 400 naming the parameter, 404 for a share token",
    async () => {
      expect(parameterised.length).toBeGreaterThan(40);
      const failures: string[] = [];
      let probes = 0;
      for (const route of parameterised) {
        for (const template of routePaths(route)) {
          const names = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as string);
          for (const target of names) {
            for (const bad of MALFORMED) {
              const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
                name === target ? bad : (WELL_FORMED[name] ?? "x"),
              );
              const body = BODIES[route.handler];
              const jsonLd = JSON_LD_BODIES[route.handler];
              const token = tokenFor(route.roles);
              const answer = await call(api().url, route.method, path, {
                ...(token ? { token } : {}),
                ...(body === undefined ? {} : { json: body }),
                ...(jsonLd === undefined ? {} : { body: jsonLd, contentType: "application/ld+json" }),
              });
              probes++;
              // A HEAD answer has no body by HTTP: its status and content type are all it can say.
              const headOnly = route.method === "HEAD";
              const problem = (answer.body ?? {}) as { status?: number; errors?: Array<{ field: string }> };
              // A share token's routes never say whether a token exists: a malformed one is any unknown link.
              const expected = route.path.startsWith("/shared/") && target === "token" ? 404 : 400;
              const named =
                headOnly || expected === 404 || problem.errors?.some((error) => error.field === target);
              if (
                answer.status !== expected ||
                !isProblem(answer.headers) ||
                (!headOnly && problem.status !== expected) ||
                !named
              )
                failures.push(`${route.method} ${path} -> ${answer.status} ${answer.text.slice(0, 160)}`);
            }
          }
        }
      }
      expect(probes).toBeGreaterThan(500);
      expect(failures).toEqual([]);
    },
    scaled(300_000),
  );
});

// ---- token expiry ------------------------------------------------------------------------------------

describe("a token whose exp passes", () => {
  it(
    "works until exp and answers 401 from the second exp passes, although the authorizer's Allow is cached",
    async () => {
      const token = signDevToken(
        forwarderClaims({ forwarderId: "FWD1", agentCode: "1234567", agentCass: "0001", station: "FRA" }),
        3,
      );
      const exp = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"))
        .exp as number;
      const read = () => call(api().url, "GET", `${FFW}/${AWB}`, { token });
      const first = await read();
      expect(first.status, first.text).toBe(200);
      // Poll past exp: every answer to a request sent after exp (whole seconds: the next second) is 401.
      const answers: Array<{ sentAt: number; status: number }> = [];
      const until = exp * 1000 + 15_000;
      while (Date.now() < until) {
        const sentAt = Date.now();
        const answer = await read();
        answers.push({ sentAt, status: answer.status });
        if (answer.status === 401) {
          expect(isProblem(answer.headers)).toBe(true);
          if (sentAt >= exp * 1000) break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const afterExp = answers.filter((answer) => answer.sentAt >= exp * 1000);
      expect(afterExp.length).toBeGreaterThan(0);
      expect(afterExp.map((answer) => answer.status)).toEqual(afterExp.map(() => 401));
      // Still refused a while later (the cached Allow lasts minutes).
      expect((await read()).status).toBe(401);
    },
    scaled(60_000),
  );
});

// ---- concurrent XTD sendsme --------------------------------------------------------------------------

describe("40 simultaneous XTD sendsme by one forwarder on one AWB", () => {
  it(
    "answer 2xx or 409/429 with Retry-After, and the usage ledger counts exactly the 2xx",
    async () => {
      const month = new Date().toISOString().slice(0, 7);
      const usage = async () => {
        const answer = await call(api().url, "GET", `${FFW}/usage?month=${month}`, { token: reader() });
        expect(answer.status, answer.text).toBe(200);
        return (answer.body as { XtdRequests: number }).XtdRequests;
      };
      const before = await usage();
      const token = reader();
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          call(api().url, "POST", `${FFW}/sendsme`, {
            token,
            json: {
              AirlinePrefix: "020",
              AwbNumber: "12345675",
              AgentCode: "7654321",
              AgentCass: "0002",
              IsXTD: true,
            },
          }),
        ),
      );
      const unexpected = answers.filter(
        (answer) =>
          !(answer.status >= 200 && answer.status < 300) &&
          !((answer.status === 409 || answer.status === 429) && answer.headers.get("retry-after") !== null),
      );
      expect(
        unexpected.map((answer) => `${answer.status} ${answer.text.slice(0, 200)}`),
        "every answer is 2xx, or 409/429 with Retry-After",
      ).toEqual([]);
      const succeeded = answers.filter((answer) => answer.status >= 200 && answer.status < 300).length;
      expect((await usage()) - before).toBe(succeeded);
      // After the burst, a sendsme alone goes through and is counted once.
      const alone = await call(api().url, "POST", `${FFW}/sendsme`, {
        token,
        json: {
          AirlinePrefix: "020",
          AwbNumber: "12345675",
          AgentCode: "7654321",
          AgentCass: "0002",
          IsXTD: true,
        },
      });
      expect(alone.status, alone.text).toBe(200);
      expect((await usage()) - before).toBe(succeeded + 1);
    },
    scaled(120_000),
  );
});

// ---- token endpoint throttle -------------------------------------------------------------------------

describe("the token endpoint", () => {
  const bySupport = (method: string, path: string, json?: unknown) =>
    call(api().url, method, path, { token: tokens.support(), ...(json === undefined ? {} : { json }) });
  const newClient = async (name: string) => {
    const created = await bySupport("POST", "/support/forwarders/FWDTHROTL/clients", { Name: name });
    expect(created.status, created.text).toBe(201);
    const body = created.body as { ClientId: string; ClientSecret: string };
    return { clientId: body.ClientId, clientSecret: body.ClientSecret };
  };
  const tokenFor = (clientId: string, clientSecret: string) =>
    tokenRequest(
      api(),
      { grant_type: "client_credentials" },
      { authorization: basicAuthorization(clientId, clientSecret) },
    );

  it("throttles wrong secrets per client id (429 with Retry-After); other clients' correct secrets still work", async () => {
    const created = await bySupport("POST", "/support/forwarders", {
      ForwarderId: "FWDTHROTL",
      AgentCode: "7654322",
      AgentCass: "0003",
      AgentStation: "FRA",
      ContactEmail: "ops@fwd-throttle.example",
    });
    expect(created.status, created.text).toBe(201);
    const attacked = await newClient("attacked");
    const other = await newClient("other");
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 40; i++) {
      const answer = await tokenFor(attacked.clientId, `wrong-secret-${i}`);
      statuses.push(answer.status);
      if (answer.status === 429) {
        retryAfter = answer.headers.get("retry-after");
        expect(answer.body.error).toBeTypeOf("string");
      }
    }
    // A handful of 401s, then only 429s.
    const firstRefusal = statuses.indexOf(429);
    expect(firstRefusal).toBeGreaterThan(0);
    expect(firstRefusal).toBeLessThanOrEqual(10);
    expect(statuses.slice(0, firstRefusal)).toEqual(statuses.slice(0, firstRefusal).map(() => 401));
    expect(statuses.slice(firstRefusal)).toEqual(statuses.slice(firstRefusal).map(() => 429));
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Another client of the same address and tenant is not held back.
    const fine = await tokenFor(other.clientId, other.clientSecret);
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    // The attacked client id is refused unchecked until its window ends, its correct secret too.
    const attackedRight = await tokenFor(attacked.clientId, attacked.clientSecret);
    expect(attackedRight.status).toBe(429);
  });

  it("throttles a source address that keeps failing: a client id that already failed is refused unchecked", async () => {
    // Unknown client ids, each failing a few times from this address (under the per-client limit).
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await tokenFor(`unknownclient${i % 10}`, "wrong");
      statuses.push(answer.status);
      if (answer.status === 429) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toContain(429);
    expect(statuses.slice(0, 10)).toEqual(statuses.slice(0, 10).map(() => 401));
    // A client that has not failed still gets its token from this address.
    const fresh = await newClient("fresh");
    const answer = await tokenFor(fresh.clientId, fresh.clientSecret);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });
});

// ---- share link caps ---------------------------------------------------------------------------------

describe("share links", () => {
  const create = (awb: string) =>
    call(api().url, "POST", `${FFW}/${awb}/share`, { token: owner(), json: { ExpiresInHours: 24 } });

  it(
    "are capped per AWB: 60 simultaneous creations make exactly 20 active links, the rest 409 naming the limit",
    async () => {
      const answers = await Promise.all(Array.from({ length: 60 }, () => create(AWB)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201).length).toBe(20);
      const refused = answers.filter((answer) => answer.status !== 201);
      expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 409));
      for (const answer of refused) {
        expect(isProblem(answer.headers)).toBe(true);
        expect((answer.body as { detail: string }).detail).toMatch(/\b20\b.*share links/);
      }
      const listed = await call(api().url, "GET", `${FFW}/${AWB}/share`, { token: owner() });
      expect(listed.status, listed.text).toBe(200);
      const items = (listed.body as { Items: Array<{ Id: string }> }).Items;
      expect(items).toHaveLength(20);
      // Revoking one frees its place.
      const revoked = await call(api().url, "DELETE", `${FFW}/${AWB}/share/${items[0]?.Id}`, {
        token: owner(),
      });
      expect(revoked.status, revoked.text).toBeLessThan(300);
      expect((await create(AWB)).status).toBe(201);
      expect((await create(AWB)).status).toBe(409);
    },
    scaled(120_000),
  );

  it(
    "are capped per forwarder per day: past it 429 with Retry-After naming the daily limit",
    async () => {
      // 21 links made today on the first AWB; 9 more reach the daily cap of 30.
      for (let i = 0; i < DAILY_SHARE_LINKS - 21; i++) {
        const made = await create(OTHER_AWB);
        expect(made.status, made.text).toBe(201);
      }
      const refused = await create(OTHER_AWB);
      expect(refused.status, refused.text).toBe(429);
      expect(isProblem(refused.headers)).toBe(true);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((refused.body as { detail: string }).detail).toContain(String(DAILY_SHARE_LINKS));
      // Another forwarder is not held to this one's count.
      const grant = await call(api().url, "POST", `${FFW}/sendsme`, {
        token: reader(),
        json: {
          AirlinePrefix: "020",
          AwbNumber: "12345686",
          AgentCode: "7654321",
          AgentCass: "0002",
          IsXTD: true,
        },
      });
      expect(grant.status, grant.text).toBe(200);
      const theirs = await call(api().url, "POST", `${FFW}/${OTHER_AWB}/share`, {
        token: reader(),
        json: { ExpiresInHours: 24 },
      });
      expect(theirs.status, theirs.text).toBe(201);
    },
    scaled(60_000),
  );
});
