/**
 * The URL challenge against a real local receiver (node:http on loopback; the sender in local mode):
 * the bare challenge value passes (plain text, or a JSON string); a reflector of the request, the old
 * `{ "Challenge" }` JSON echo, a wrong value, a non-2xx, a timeout and a refused target fail with a
 * reason. Token and Psk travel with the challenge.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClock, resetClock } from "../../../functions/adapters/clock.ts";
import { createHttpSender } from "../../../functions/adapters/http-sender.ts";
import { CHALLENGE_HEADER, createWebhookVerifier } from "../../../functions/adapters/webhook-verifier.ts";
import { scaled } from "../../support/time.ts";
import { webhook } from "./fixtures.ts";

type Reply = (request: IncomingMessage, body: string, response: ServerResponse) => void;
let server: Server;
let base: string;
const replies = new Map<string, Reply>();
const seen: Array<{ path: string; headers: IncomingMessage["headers"]; body: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      seen.push({ path: request.url ?? "", headers: request.headers, body });
      const reply = replies.get(request.url ?? "");
      if (reply) reply(request, body, response);
      else response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  replies.set("/bare", (request, _body, response) =>
    response.writeHead(200, { "content-type": "text/plain" }).end(String(request.headers[CHALLENGE_HEADER])),
  );
  replies.set("/json-string", (request, _body, response) =>
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify(request.headers[CHALLENGE_HEADER])),
  );
  replies.set("/json", (request, _body, response) =>
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ Challenge: request.headers[CHALLENGE_HEADER] })),
  );
  replies.set("/reflect", (request, body, response) =>
    response.writeHead(200, { "content-type": String(request.headers["content-type"]) }).end(body),
  );
  replies.set("/text", (_request, body, response) =>
    response
      .writeHead(200, { "content-type": "text/plain" })
      .end(`${(JSON.parse(body) as { Challenge: string }).Challenge}\n`),
  );
  replies.set("/wrong", (_request, _body, response) => response.writeHead(200).end("hello"));
  replies.set("/error", (_request, _body, response) => response.writeHead(500).end("boom"));
  replies.set("/slow", () => undefined);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const verifier = () => createWebhookVerifier(createHttpSender("local"));
const at = (path: string, overrides: Record<string, unknown> = {}) =>
  webhook(9, { Url: `${base}${path}`, ...overrides });

describe("webhook verifier", () => {
  it("passes on the bare challenge value and sends the documented body and header", async () => {
    expect(await verifier().verify(at("/bare"))).toEqual({ ok: true });
    const request = seen.at(-1);
    const body = JSON.parse(request?.body ?? "{}") as Record<string, unknown>;
    expect(body).toEqual({
      Type: "WebhookVerification",
      Challenge: request?.headers[CHALLENGE_HEADER],
      WebhookId: 9,
    });
    expect(request?.headers["content-type"]).toBe("application/json");
  });

  it("passes on the bare value read from the body (whitespace ignored) or a JSON string of it", async () => {
    expect(await verifier().verify(at("/text"))).toEqual({ ok: true });
    expect(await verifier().verify(at("/json-string"))).toEqual({ ok: true });
  });

  it("a reflector of the request and the { Challenge } JSON echo do not pass (the answer differs from the request)", async () => {
    const reflected = await verifier().verify(at("/reflect"));
    expect(reflected).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^answer is not the bare challenge value/),
    });
    expect(await verifier().verify(at("/json"))).toMatchObject({ ok: false });
  });

  it(
    "fails with a reason on a wrong echo, a non-2xx answer and a timeout",
    async () => {
      expect(await verifier().verify(at("/wrong"))).toEqual({
        ok: false,
        reason: "answer is not the bare challenge value (HTTP 200, answer body: hello)",
      });
      expect(await verifier().verify(at("/error"))).toEqual({
        ok: false,
        reason: "receiver answered HTTP 500, expected 2xx",
      });
      const slow = await verifier().verify(at("/slow"));
      expect(slow).toEqual({ ok: false, reason: "no answer within 5 s" });
    },
    scaled(15_000),
  );

  it("carries the bearer Token and a Standard Webhooks signature when set", async () => {
    const psk = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    expect(await verifier().verify(at("/bare", { Psk: psk, Token: token }))).toEqual({ ok: true });
    const request = seen.at(-1);
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    const headers = {
      "webhook-id": String(request?.headers["webhook-id"]),
      "webhook-timestamp": String(request?.headers["webhook-timestamp"]),
      "webhook-signature": String(request?.headers["webhook-signature"]),
    };
    expect(() => new StandardWebhook(psk).verify(request?.body ?? "", headers)).not.toThrow();
  });

  it("signs with the real time even when the local fake clock has been moved forward", async () => {
    const psk = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    advanceClock(3_600_000);
    try {
      expect(await verifier().verify(at("/bare", { Psk: psk }))).toEqual({ ok: true });
    } finally {
      resetClock();
    }
    const request = seen.at(-1);
    const headers = {
      "webhook-id": String(request?.headers["webhook-id"]),
      "webhook-timestamp": String(request?.headers["webhook-timestamp"]),
      "webhook-signature": String(request?.headers["webhook-signature"]),
    };
    // standardwebhooks refuses timestamps more than 5 minutes off the receiver's (real) clock.
    expect(() => new StandardWebhook(psk).verify(request?.body ?? "", headers)).not.toThrow();
  });

  it("checkTarget: production refuses http and loopback, an unresolvable host is left to the challenge", async () => {
    const production = createWebhookVerifier(createHttpSender("production"));
    expect((await production.checkTarget(`${base}/json`)).allowed).toBe(false);
    expect((await production.checkTarget("https://127.0.0.1/x")).allowed).toBe(false);
    expect(await production.checkTarget("https://no-such-host.invalid/x")).toEqual({ allowed: true });
    expect(await verifier().checkTarget(`${base}/json`)).toEqual({ allowed: true });
    expect((await verifier().checkTarget("http://10.1.2.3/x")).allowed).toBe(false);
  });
});
