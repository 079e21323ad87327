/**
 * Issue 12 point 5: the handlers' Powertools EMF metrics. The adapter writes CloudWatch EMF lines
 * (namespace RouteMapTracker, `service` dimension plus the point's own), nothing when
 * POWERTOOLS_METRICS_DISABLED=true (the local runner); handlers count what their use cases returned:
 * ingest counts messages, changed route maps and refusals by class, delivery counts outcomes and the
 * latency from the event's recording to its delivery.
 */
import { readFileSync } from "node:fs";
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  deliveryPoints,
  emfMetrics,
  ingestErrorPoints,
  type MetricPoint,
} from "../../../functions/adapters/metrics.ts";
import { METRICS_NAMESPACE, METRICS_SERVICE } from "../../../functions/contracts/metrics.ts";
import { type Identity, identityToContext } from "../../../functions/core/identity.ts";
import { make as ingestCarrierMessage } from "../../../functions/handlers/http/ingest-carrier-message.ts";
import { errorClassOf } from "../../../functions/http/error-metrics.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";

const FWB = readFileSync(new URL("../../fixtures/json-events/fwb-single.json", import.meta.url), "utf8");

/** What the EMF lines written to standard output during `run` say. */
function emitted(run: () => void): Array<Record<string, unknown>> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .flatMap((chunk) => chunk.split("\n"))
    .filter((line) => line.includes("_aws"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the EMF adapter", () => {
  const saved = process.env.POWERTOOLS_METRICS_DISABLED;
  beforeEach(() => {
    delete process.env.POWERTOOLS_METRICS_DISABLED;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
    else process.env.POWERTOOLS_METRICS_DISABLED = saved;
  });

  it("writes one EMF line per dimension set, in the RouteMapTracker namespace with the service dimension", () => {
    const lines = emitted(() =>
      emfMetrics([
        { name: "Deliveries", value: 1, dimensions: { Outcome: "delivered" } },
        { name: "DeliveryLatency", value: 1234, unit: "Milliseconds" },
        { name: "EventsMatched", value: 1 },
      ]),
    );
    expect(lines).toHaveLength(2);
    const [outcome, plain] = lines;
    expect(outcome).toMatchObject({
      service: METRICS_SERVICE,
      Outcome: "delivered",
      Deliveries: 1,
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Dimensions: [expect.arrayContaining(["service", "Outcome"])],
            Metrics: [{ Name: "Deliveries", Unit: "Count" }],
          },
        ],
      },
    });
    expect(plain).toMatchObject({ service: METRICS_SERVICE, DeliveryLatency: 1234, EventsMatched: 1 });
    expect(JSON.stringify(plain)).toContain('{"Name":"DeliveryLatency","Unit":"Milliseconds"}');
    expect(plain).not.toHaveProperty("Outcome");
  });

  it("writes nothing when POWERTOOLS_METRICS_DISABLED=true (the local runner sets it)", () => {
    process.env.POWERTOOLS_METRICS_DISABLED = "true";
    expect(emitted(() => emfMetrics([{ name: "EventsMatched", value: 1 }]))).toEqual([]);
  });

  it("the local runner sets it", () => {
    const runner = readFileSync(new URL("../../../bin/local/runner.ts", import.meta.url), "utf8");
    expect(runner).toContain('POWERTOOLS_METRICS_DISABLED: "true"');
  });
});

describe("what a delivery attempt counts", () => {
  const event = { recordedAt: "2026-03-14T12:00:00.000Z" };
  const at = "2026-03-14T12:00:02.500Z";

  it("a delivery: Outcome delivered and its latency since the event was recorded", () => {
    expect(deliveryPoints({ outcome: "delivered" }, event, at)).toEqual([
      { name: "Deliveries", value: 1, dimensions: { Outcome: "delivered" } },
      { name: "DeliveryLatency", value: 2500, unit: "Milliseconds" },
    ]);
  });

  it("retries, failures, parked and suppressed deliveries by Outcome, without latency; duplicates not at all", () => {
    const outcome = (result: string, unfinished = false) =>
      deliveryPoints({ outcome: result }, event, at, unfinished).map((point) => point.dimensions?.Outcome);
    expect(outcome("retry")).toEqual(["retried"]);
    expect(outcome("parked")).toEqual(["failed"]);
    expect(outcome("disabled")).toEqual(["failed"]);
    expect(outcome("skipped")).toEqual(["parked"]);
    expect(outcome("parked", true)).toEqual(["parked"]);
    expect(outcome("suppressed")).toEqual(["suppressed"]);
    expect(outcome("duplicate")).toEqual([]);
  });
});

describe("what the ingest handler counts", () => {
  let requests = 0;
  const carrier: Identity = { role: "carrier", carrierPrefix: "020" };
  const request = (
    caller: Identity,
    body: string,
    contentType = "application/json",
  ): APIGatewayProxyEvent => {
    requests += 1;
    return {
      resource: "/carrier/messages",
      path: "/carrier/messages",
      httpMethod: "POST",
      headers: { "Content-Type": contentType },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      body,
      isBase64Encoded: false,
      requestContext: {
        requestId: `metrics-${requests}`,
        authorizer: { ...identityToContext(caller), principalId: "caller" },
      } as never,
    };
  };
  const points: MetricPoint[] = [];
  const ingest = ingestCarrierMessage(
    () => ({
      routeMaps: memoryRouteMapRepository(),
      carriers: { get: async () => null } as never,
      backoff: async () => undefined,
    }),
    (batch) => points.push(...batch),
  );
  const context = { awsRequestId: "lambda" } as Context;
  beforeEach(() => {
    points.length = 0;
  });

  it("messages ingested and route maps changed", async () => {
    const response = await ingest(request(carrier, FWB), context);
    expect(response.statusCode).toBe(200);
    expect(points).toEqual([
      { name: "MessagesIngested", value: 1 },
      { name: "RouteMapsChanged", value: 1 },
    ]);
  });

  it("refusals by their problem class, as the caller saw them", async () => {
    const malformed = await ingest(request(carrier, "FSU/14\nnonsense", "text/plain"), context);
    expect(malformed.statusCode).toBe(400);
    const forwarder: Identity = {
      role: "forwarder",
      forwarderId: "F",
      agentCode: "1234567",
      agentCass: "0001",
      agentStation: null,
    };
    const forbidden = await ingest(request(forwarder, FWB), context);
    expect(forbidden.statusCode).toBe(403);
    const slug = (response: { body: string }) =>
      String((JSON.parse(response.body) as { type: string }).type).split("/problems/")[1];
    expect(points).toEqual([
      { name: "IngestErrors", value: 1, dimensions: { ErrorClass: slug(malformed) } },
      { name: "IngestErrors", value: 1, dimensions: { ErrorClass: slug(forbidden) } },
    ]);
    expect(slug(forbidden)).toBe("forbidden");
  });

  it("a partly stored request: its refusal, and the messages it did store", () => {
    const problem = JSON.stringify({
      type: "https://route-map-tracker.dev/problems/conflict",
      status: 409,
      Applied: [
        { AwbNumber: "020-76543213", Changed: true },
        { AwbNumber: "020-12345675", Changed: false },
      ],
    });
    expect(ingestErrorPoints("conflict", problem)).toEqual([
      { name: "IngestErrors", value: 1, dimensions: { ErrorClass: "conflict" } },
      { name: "MessagesIngested", value: 2 },
      { name: "RouteMapsChanged", value: 1 },
    ]);
    expect(ingestErrorPoints("server-error", "not json")).toEqual([
      { name: "IngestErrors", value: 1, dimensions: { ErrorClass: "server-error" } },
    ]);
  });

  it("classes a 5xx as server-error", () => {
    expect(
      errorClassOf({ statusCode: 500, body: '{"type":"https://route-map-tracker.dev/problems/internal"}' }),
    ).toBe("server-error");
    expect(errorClassOf({ statusCode: 413, body: "" })).toBe("http-413");
    expect(errorClassOf({ statusCode: 200, body: "{}" })).toBeNull();
  });
});
