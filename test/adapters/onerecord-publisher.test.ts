/** GETs on a carrier's ONE Record server: token, status mapping, size cap and the SSRF guard. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpSender } from "../../functions/adapters/http-sender.ts";
import {
  MAX_EVENT_DOCUMENT_BYTES,
  oneRecordPublisher,
} from "../../functions/adapters/onerecord-publisher.ts";

let server: Server;
let base = "";
const seen: { method: string; accept: string | undefined; authorization: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({
      method: request.method ?? "",
      accept: request.headers.accept,
      authorization: request.headers.authorization,
    });
    if (request.url === "/event") response.writeHead(200).end('{"@type":"cargo:LogisticsEvent"}');
    else if (request.url === "/huge") response.writeHead(200).end("x".repeat(MAX_EVENT_DOCUMENT_BYTES + 10));
    else if (request.url === "/down") response.writeHead(503).end();
    else response.writeHead(401).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("oneRecordPublisher", () => {
  const local = oneRecordPublisher(createHttpSender("local"));

  it("GETs with Accept application/ld+json and the bearer token, and returns the whole body", async () => {
    expect(await local.fetch(`${base}/event`, "token-1")).toEqual({
      kind: "ok",
      body: '{"@type":"cargo:LogisticsEvent"}',
    });
    expect(seen.at(-1)).toEqual({
      method: "GET",
      accept: "application/ld+json",
      authorization: "Bearer token-1",
    });
    await local.fetch(`${base}/event`, null);
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });

  it("maps error answers and oversized documents to failures", async () => {
    expect(await local.fetch(`${base}/down`, "t")).toMatchObject({ kind: "failed", status: 503 });
    expect(await local.fetch(`${base}/private`, "t")).toMatchObject({ kind: "failed", status: 401 });
    expect(await local.fetch(`${base}/huge`, "t")).toMatchObject({ kind: "failed", status: 200 });
    expect(await local.fetch("http://127.0.0.1:9/closed", "t")).toMatchObject({
      kind: "failed",
      status: null,
    });
  });

  it("production: loopback and plain http are refused before anything is sent", async () => {
    const before = seen.length;
    const production = oneRecordPublisher(createHttpSender("production"));
    expect(await production.fetch(`${base}/event`, "t")).toMatchObject({ kind: "refused" });
    expect(seen.length).toBe(before);
  });

  it("a stand-in origin (local runner) serves a publisher's IRIs: same path, other origin", async () => {
    const standIn = oneRecordPublisher(
      createHttpSender("local"),
      new Map([["https://1r.example.com", base]]),
    );
    expect(await standIn.fetch("https://1r.example.com/event", "t")).toMatchObject({ kind: "ok" });
    expect(await standIn.fetch("https://1r.example.com/down", "t")).toMatchObject({ status: 503 });
  });
});
