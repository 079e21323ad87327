/**
 * Issue 11, platform points through the real local runner: token lifetimes (11), the local control
 * endpoints (12), the runner's own hardening (24) and the windowed rate limits (6).
 */
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierClaims, forwarderClaims, signDevToken, supportClaims } from "../../bin/dev-issuer.ts";
import { ROUTES, type RouteDefinition } from "../../functions/contracts/routes.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";

const AWB_PATH = "/ffw/service/routemap/02012345675";
const forwarder = forwarderClaims({ forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001" });

function claimsFor(route: RouteDefinition): Record<string, unknown> {
  const role = route.roles === "public" ? "support" : route.roles[0];
  if (role === "forwarder") return forwarder;
  if (role === "carrier") return carrierClaims("020");
  return supportClaims();
}

const filled = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "awb" ? "02012345675" : name === "prefix" ? "020" : "00000000-0000-4000-8000-000000000000",
  );

function expectProblem(response: { status: number; headers: Headers; body: unknown }, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  expect(response.body).toMatchObject({ status });
}

describe("platform hardening (one runner)", () => {
  let stack: RunningStack;

  beforeAll(async () => {
    stack = await startRunner();
  }, scaled(60_000));

  afterAll(async () => {
    await stack?.stop();
  });

  describe("11: tokens must carry exp and a bounded lifetime", () => {
    it("refuses a token without exp on every route, while the same token with exp passes the authorizer", async () => {
      for (const route of ROUTES.filter((candidate) => candidate.roles !== "public")) {
        const claims = claimsFor(route);
        const body = route.body ? { body: "{}", contentType: "application/json" } : {};
        const withoutExp = signDevToken({ ...claims, exp: undefined });
        const refused = await call(stack.url, route.method, filled(route.path), {
          token: withoutExp,
          ...body,
        });
        expect(refused.status, `${route.method} ${route.path}`).toBe(401);
        const accepted = await call(stack.url, route.method, filled(route.path), {
          token: signDevToken(claims),
          ...body,
        });
        expect(accepted.status, `${route.method} ${route.path}`).not.toBe(401);
      }
    });

    it("refuses lifetimes beyond the 24 h maximum, by exp and by exp - iat, and a foreign audience", async () => {
      const now = Math.floor(Date.now() / 1000);
      const tooLong = signDevToken(forwarder, 48 * 3600);
      const oldIat = signDevToken({ ...forwarder, iat: now - 2 * 24 * 3600, nbf: now - 2 * 24 * 3600 }, 3600);
      const foreignAudience = signDevToken({ ...forwarder, aud: "someone-else" });
      const noAudience = signDevToken({ ...forwarder, aud: undefined });
      for (const token of [tooLong, oldIat, foreignAudience, noAudience])
        expectProblem(await call(stack.url, "GET", AWB_PATH, { token }), 401);
      // Within the maximum: the handler answers (no route map yet).
      expectProblem(
        await call(stack.url, "GET", AWB_PATH, { token: signDevToken(forwarder, 24 * 3600) }),
        404,
      );
    });
  });

  describe("12: /__local/* needs a support token and valid input", () => {
    it("answers 401 without a token and 403 for other roles", async () => {
      expectProblem(await call(stack.url, "POST", "/__local/clock", { json: { advanceMs: 1 } }), 401);
      expectProblem(await call(stack.url, "GET", "/__local/schedules"), 401);
      expectProblem(
        await call(stack.url, "POST", "/__local/clock", {
          json: { advanceMs: 1 },
          token: tokens.forwarder(),
        }),
        403,
      );
      expectProblem(await call(stack.url, "GET", "/__local/schedules", { token: tokens.carrier() }), 403);
      const ok = await call(stack.url, "GET", "/__local/schedules", { token: tokens.support() });
      expect(ok.status).toBe(200);
    });

    it("refuses advanceMs 1e308, negative, fractional, non-numeric or a broken body with 400 naming advanceMs; the clock keeps working", async () => {
      const support = tokens.support();
      const before = await call(stack.url, "POST", "/__local/clock", {
        json: { advanceMs: 0 },
        token: support,
      });
      expect(before.status).toBe(200);
      for (const body of [
        '{"advanceMs": 1e308}',
        '{"advanceMs": -1}',
        '{"advanceMs": 1.5}',
        '{"advanceMs": "60000"}',
        '{"advanceMs": 1e12}',
        "{}",
        "[]",
        "not json",
      ]) {
        const refused = await call(stack.url, "POST", "/__local/clock", {
          body,
          contentType: "application/json",
          token: support,
        });
        expectProblem(refused, 400);
        expect(refused.body, body).toMatchObject({ errors: [{ field: "advanceMs" }] });
      }
      const after = await call(stack.url, "POST", "/__local/clock", {
        json: { advanceMs: 0 },
        token: support,
      });
      expect(after.status).toBe(200);
      const { now } = after.body as { now: string };
      expect(Math.abs(Date.parse(now) - Date.parse((before.body as { now: string }).now))).toBeLessThan(
        60_000,
      );
      // Every route-map handler still answers (no Invalid Date).
      const message = "FSU/15\n020-12345675LHRJFK/T2K20\nRCS/22NOV1000/LHR/T2K20\n";
      const ingested = await call(stack.url, "POST", "/carrier/messages", {
        body: message,
        contentType: "text/plain",
        token: tokens.carrier(),
      });
      expect(ingested.status).toBeLessThan(500);
      expect((await call(stack.url, "GET", AWB_PATH, { token: tokens.forwarder() })).status).toBeLessThan(
        500,
      );
    });
  });

  describe("24: the local runner", () => {
    // Read from Linux's /proc (the CI and development machines); skipped where there is none.
    it.skipIf(!existsSync("/proc/net/tcp"))("binds the API and every emulator to 127.0.0.1 only", () => {
      const ports = [
        stack.url,
        stack.dynamoEndpoint,
        stack.sqsEndpoint,
        stack.sesUrl,
        stack.schedulerEndpoint,
      ].map((url) => Number(new URL(url).port));
      const listening = listeningAddresses();
      for (const port of ports) {
        const addresses = listening.get(port) ?? [];
        expect(addresses.length, `port ${port}`).toBeGreaterThan(0);
        // (the order of ports: API, DynamoDB Local, SQS, SES, Scheduler)
        for (const address of addresses)
          expect(LOOPBACK, `port ${port} listens on ${address}`).toContain(address);
      }
    });

    it("treats query and header names such as toString, constructor and __proto__ as data (never 500)", async () => {
      const query = "?toString=1&constructor=2&__proto__=3&hasOwnProperty=4&valueOf=5";
      const headers = { toString: "1", constructor: "2", hasOwnProperty: "3", valueOf: "4" };
      const anonymous = await call(stack.url, "GET", `${AWB_PATH}${query}`, { headers });
      expectProblem(anonymous, 401);
      const authorised = await call(stack.url, "GET", `${AWB_PATH}${query}`, {
        headers,
        token: tokens.forwarder(),
      });
      expect(authorised.status).toBeLessThan(500);
      const listed = await call(stack.url, "GET", `/ffw/service/routemap/notification${query}`, {
        headers,
        token: tokens.forwarder(),
      });
      expect(listed.status).toBeLessThan(500);
    });

    it("closes a keep-alive connection after answering 413 to a body over 10 MB", async () => {
      const { port } = new URL(stack.url);
      const outcome = await new Promise<{ response: string; closed: boolean }>((resolve) => {
        const socket = connect(Number(port), "127.0.0.1");
        let response = "";
        const timer = setTimeout(() => {
          socket.destroy();
          resolve({ response, closed: false });
        }, 15_000);
        socket.on("data", (chunk) => {
          response += chunk.toString();
        });
        socket.on("error", () => undefined);
        socket.on("close", () => {
          clearTimeout(timer);
          resolve({ response, closed: true });
        });
        const size = 11 * 1024 * 1024;
        socket.write(
          `POST ${AWB_PATH} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
        );
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < size && !socket.destroyed) {
            sent += chunk.length;
            if (!socket.write(chunk)) return void socket.once("drain", pump);
          }
        };
        pump();
      });
      expect(outcome.response).toMatch(/^HTTP\/1\.1 413/);
      expect(outcome.closed).toBe(true);
      // The runner still answers on new connections.
      expect((await call(stack.url, "GET", "/openapi.json")).status).toBe(200);
    });
  });
});

/** Loopback as /proc/net/tcp{,6} print it: 127.0.0.1, ::1 and ::ffff:127.0.0.1. */
const LOOPBACK = ["0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F"];

/** Port -> local addresses of the sockets listening on it (Linux /proc). */
function listeningAddresses(): Map<number, string[]> {
  const result = new Map<number, string[]>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [address, portHex] = (fields[1] ?? "").split(":");
      if (fields[3] !== "0A" || !address || !portHex) continue; // 0A = LISTEN
      const port = Number.parseInt(portHex, 16);
      result.set(port, [...(result.get(port) ?? []), address]);
    }
  }
  return result;
}

describe("6: minute, hour and day windows per caller, counted in the shared RateLimits table", () => {
  let stack: RunningStack;
  const support = () => tokens.support();

  beforeAll(async () => {
    stack = await startRunner({
      RATE_LIMIT_PER_MINUTE: "3",
      RATE_LIMIT_PER_HOUR: "5",
      RATE_LIMIT_PER_DAY: "7",
    });
  }, scaled(60_000));

  afterAll(async () => {
    await stack?.stop();
  });

  const advance = async (advanceMs: number) => {
    const moved = await call(stack.url, "POST", "/__local/clock", { json: { advanceMs }, token: support() });
    expect(moved.status).toBe(200);
    return Date.parse((moved.body as { now: string }).now);
  };
  const get = (token: string) => call(stack.url, "GET", AWB_PATH, { token });

  function expectWindow(
    response: Awaited<ReturnType<typeof get>>,
    window: string,
    limit: number,
    maxRetry: number,
  ) {
    expectProblem(response, 429);
    expect(response.headers.get("x-ratelimit-window")).toBe(window);
    expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
    expect(response.headers.get("ratelimit-policy")).toContain(`"${window}";q=${limit};w=`);
    expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"${window}";r=0;t=\\d+$`));
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(maxRetry);
    expect((response.body as { detail: string }).detail).toContain(`per-${window} limit of ${limit}`);
  }

  it("refuses past each window with 429 naming it, counts refused requests nowhere, and keeps callers apart", async () => {
    // Start at 00:00:01 UTC of the next day, so the minute and hour steps below cross no other boundary.
    const now = await advance(0);
    await advance(86_400_000 - (now % 86_400_000) + 1000);
    const busy = signDevToken(
      forwarderClaims({ forwarderId: "FWD-RL", agentCode: "1234567", agentCass: "0001" }),
    );

    expect([(await get(busy)).status, (await get(busy)).status, (await get(busy)).status]).toEqual([
      404, 404, 404,
    ]);
    expectWindow(await get(busy), "minute", 3, 60);
    // Another caller has its own windows.
    expect((await get(tokens.forwarder("FWD-OTHER", "7654321", "0042"))).status).toBe(404);

    await advance(60_000); // 00:01:01: a new minute; the hour holds 3 (the refused request was not counted)
    expect([(await get(busy)).status, (await get(busy)).status]).toEqual([404, 404]);
    expectWindow(await get(busy), "hour", 5, 3600);

    await advance(3_600_000); // 01:01:01: a new hour; the day holds 5
    expect([(await get(busy)).status, (await get(busy)).status]).toEqual([404, 404]);
    expectWindow(await get(busy), "day", 7, 86_400);
  });

  it("is exact under concurrency: of 12 simultaneous requests exactly the minute's 3 pass", async () => {
    const now = await advance(0);
    await advance(60_000 - (now % 60_000) + 1000);
    // A fresh token each: every request passes the authorizer on its own, as from separate clients.
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(stack.url, "GET", "/ffw/service/routemap/02012345675", {
          token: signDevToken(
            forwarderClaims({ forwarderId: "FWD-RACE", agentCode: "1234567", agentCass: "0001" }),
          ),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 404)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });

  it("keeps the counters in the RateLimits table (shared by every container), one item per caller with a TTL", async () => {
    const { DynamoDBClient, ScanCommand } = await import("@aws-sdk/client-dynamodb");
    const client = new DynamoDBClient({
      endpoint: stack.dynamoEndpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    });
    const items = (await client.send(new ScanCommand({ TableName: "RateLimits" }))).Items ?? [];
    client.destroy();
    const busy = items.find((item) => item.pk?.S === "forwarder:FWD-RL");
    // The day holds the 7 admitted requests, the last hour 2; the 3 refused ones count nowhere.
    expect(Number(busy?.dN?.N)).toBe(7);
    expect(Number(busy?.hN?.N)).toBe(2);
    expect(Number(busy?.expiresAt?.N)).toBeGreaterThan(Date.now() / 1000);
    const racer = items.find((item) => item.pk?.S === "forwarder:FWD-RACE");
    expect(Number(racer?.mN?.N)).toBe(3);
  });
});

describe("6: tiers: named per-caller limits (RATE_LIMIT_TIERS, RATE_LIMIT_CALLER_TIERS)", () => {
  let stack: RunningStack;

  beforeAll(async () => {
    stack = await startRunner({
      RATE_LIMIT_PER_MINUTE: "2",
      RATE_LIMIT_TIERS: JSON.stringify({ gold: { perMinute: 5 } }),
      RATE_LIMIT_CALLER_TIERS: JSON.stringify({ "forwarder:FWD-GOLD": "gold" }),
    });
  }, scaled(60_000));

  afterAll(async () => {
    await stack?.stop();
  });

  it("holds a tiered forwarder to its tier's window and others to the defaults; 429 names the tier", async () => {
    const moved = await call(stack.url, "POST", "/__local/clock", {
      json: { advanceMs: 0 },
      token: tokens.support(),
    });
    const now = Date.parse((moved.body as { now: string }).now);
    // Start one second into a fresh minute, so the requests below share one minute window.
    const step = 60_000 - (now % 60_000) + 1000;
    expect(
      (
        await call(stack.url, "POST", "/__local/clock", {
          json: { advanceMs: step },
          token: tokens.support(),
        })
      ).status,
    ).toBe(200);
    const gold = tokens.forwarder("FWD-GOLD");
    const plain = tokens.forwarder("FWD-PLAIN");
    const get = (token: string) => call(stack.url, "GET", AWB_PATH, { token });

    const plainStatuses = [(await get(plain)).status, (await get(plain)).status];
    const plainRefused = await get(plain);
    const goldStatuses: number[] = [];
    for (let i = 0; i < 5; i++) goldStatuses.push((await get(gold)).status);
    const goldRefused = await get(gold);

    expect(plainStatuses).toEqual([404, 404]);
    expectProblem(plainRefused, 429);
    expect(plainRefused.headers.get("x-ratelimit-window")).toBe("minute");
    expect(plainRefused.headers.get("x-ratelimit-limit")).toBe("2");
    expect((plainRefused.body as { detail: string }).detail).toContain(
      "the per-minute limit of 2 requests of tier default is used up",
    );

    // The gold forwarder passes where the plain one was refused.
    expect(goldStatuses).toEqual([404, 404, 404, 404, 404]);
    expectProblem(goldRefused, 429);
    expect(goldRefused.headers.get("x-ratelimit-window")).toBe("minute");
    expect(goldRefused.headers.get("x-ratelimit-limit")).toBe("5");
    expect(goldRefused.headers.get("ratelimit-policy")).toContain('"minute";q=5;w=60');
    expect((goldRefused.body as { detail: string }).detail).toContain(
      "the per-minute limit of 5 requests of tier gold is used up",
    );
  });
});
