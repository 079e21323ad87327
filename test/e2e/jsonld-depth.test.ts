/**
 * Nested JSON-LD, at any depth, is refused as a carrier's mistake and never answered 500: posted as a
 * ONE Record body to POST /carrier/messages (10,000 nested arrays; an `@graph` holding nested arrays)
 * it is a 400 naming where; fetched as the event a notification announces (nested 100,000 deep) it is
 * a 422 naming the event's IRI. Nothing is stored either way. Through the real local runner, with a
 * local publisher serving the deep event document.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";

let stack: RunningStack;
let publisher: Server;
let publisherUrl = "";
const carrier = tokens.carrier("020");
const PUBLISHER_TOKEN = "publisher-bearer-token-0002";
const EVENT_PATH = "/logistics-objects/deep/logistics-events/e1";

const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

type Problem = { status: number; errors?: { field: string; message: string }[] };

beforeAll(async () => {
  publisher = createServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${PUBLISHER_TOKEN}` || request.url !== EVENT_PATH) {
      response.writeHead(404).end();
      return;
    }
    // An event document nested 100,000 levels deep (about 200 KB).
    response
      .writeHead(200, { "content-type": "application/ld+json" })
      .end(`{"@type":"https://onerecord.iata.org/ns/cargo#LogisticsEvent","x":${nestedArrays(100_000)}}`);
  });
  await new Promise<void>((resolve) => publisher.listen(0, "127.0.0.1", resolve));
  publisherUrl = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}`;
  stack = await startRunner();
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: {
      Name: "Lufthansa Cargo",
      QualityProgram: true,
      Xtd: true,
      OneRecord: { ServerUrl: `${publisherUrl}/`, Token: PUBLISHER_TOKEN },
    },
  });
  expect(put.status, put.text).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => publisher?.close(resolve));
});

describe("nested JSON-LD is refused at any depth, never a 500", () => {
  it("10,000 nested arrays posted as application/ld+json: 400 naming where", async () => {
    const answer = await call(stack.url, "POST", "/carrier/messages", {
      token: carrier,
      body: nestedArrays(10_000),
      contentType: "application/ld+json",
    });
    expect(answer.status, answer.text).toBe(400);
    const problem = answer.body as Problem;
    expect(problem.errors?.[0]?.field).toBe("line 1: [0]");
    expect(problem.errors?.[0]?.message).toContain("levels of nested arrays and objects");
  });

  it("an @graph holding nested arrays: 400 naming @graph", async () => {
    const answer = await call(stack.url, "POST", "/carrier/messages", {
      token: carrier,
      body: `{"@graph":[${nestedArrays(10_000)}]}`,
      contentType: "application/ld+json",
    });
    expect(answer.status, answer.text).toBe(400);
    expect((answer.body as Problem).errors?.[0]?.field).toBe("line 1: @graph");
  });

  it("an announced event document nested 100,000 deep: 422 naming its IRI, nothing fetched is applied", async () => {
    const eventIri = `${publisherUrl}${EVENT_PATH}`;
    const answer = await call(stack.url, "POST", "/onerecord/notifications", {
      token: carrier,
      contentType: "application/ld+json",
      body: JSON.stringify({
        "@context": { api: "https://onerecord.iata.org/ns/api#" },
        "@type": "api:Notification",
        "api:hasEventType": { "@id": "api:LOGISTICS_EVENT_RECEIVED" },
        "api:hasLogisticsObject": { "@id": `${publisherUrl}/logistics-objects/deep` },
        "api:hasLogisticsEvent": { "@id": eventIri },
      }),
    });
    expect(answer.status, answer.text).toBe(422);
    const problem = answer.body as Problem;
    expect(problem.errors?.[0]?.field).toContain(eventIri);
    expect(problem.errors?.[0]?.message).toContain("levels of nested arrays and objects");
  });
});
