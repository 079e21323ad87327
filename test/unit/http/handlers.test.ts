/**
 * HTTP handlers are unit-testable without Java or AWS: `make(deps)` over memory adapters, called with
 * API Gateway proxy events shaped like the local runner's (bin/local/http-api.ts: authorizer claims in
 * requestContext.authorizer). The whole middleware pipeline runs: identity and role, rate limit, body
 * limits and parsing, and domain errors mapped to problem+json through the one table.
 */
import { readFileSync } from "node:fs";
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { type Identity, identityToContext } from "../../../functions/core/identity.ts";
import { make as createNotificationRule } from "../../../functions/handlers/http/create-notification-rule.ts";
import { make as getNotificationRule } from "../../../functions/handlers/http/get-notification-rule.ts";
import { make as getRouteMap } from "../../../functions/handlers/http/get-route-map.ts";
import { make as ingestCarrierMessage } from "../../../functions/handlers/http/ingest-carrier-message.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";
import { memorySubscriptionRepository } from "../../support/memory/subscription-repository.ts";
import { emailRuleBody } from "../notifications/helpers.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const FWB = readFileSync(new URL("../../fixtures/json-events/fwb-single.json", import.meta.url), "utf8");

const carrier: Identity = { role: "carrier", carrierPrefix: "020" };
/** The FWB's agent (7654321 / 0042): the owner of its route map. */
const owner: Identity = {
  role: "forwarder",
  forwarderId: "FWD-OWNER",
  agentCode: "7654321",
  agentCass: "0042",
  agentStation: "MUC",
};

let requests = 0;
function event(
  caller: Identity,
  request: {
    method?: string;
    path?: string;
    params?: Record<string, string>;
    body?: string;
    contentType?: string;
  } = {},
): APIGatewayProxyEvent {
  requests += 1;
  return {
    resource: request.path ?? "/",
    path: request.path ?? "/",
    httpMethod: request.method ?? "GET",
    headers: request.contentType ? { "Content-Type": request.contentType } : {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: request.params ?? null,
    stageVariables: null,
    body: request.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      requestId: `req-${requests}`,
      authorizer: { ...identityToContext(caller), principalId: "caller" },
    } as never,
  };
}

const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;

describe("route-map handlers over the memory repository", () => {
  const routeMaps = memoryRouteMapRepository();
  const noCarrierSettings = { get: async () => null };
  const ingest = ingestCarrierMessage(() => ({
    routeMaps,
    carriers: noCarrierSettings,
    backoff: async () => undefined,
  }));
  const read = getRouteMap(() => ({ routeMaps }));

  it("a carrier's FWB, then 200 with the route map for its owner", async () => {
    const ingested = await ingest(
      event(carrier, {
        method: "POST",
        path: "/carrier/messages",
        body: FWB,
        contentType: "application/json",
      }),
      context,
    );
    expect(ingested.statusCode).toBe(200);
    expect(json(ingested)).toMatchObject({ Applied: [{ AwbNumber: "020-76543213", Changed: true }] });

    const response = await read(event(owner, { params: { awb: "020-76543213" } }), context);
    expect(response.statusCode).toBe(200);
    expect(response.headers?.["content-type"]).toBe("application/json");
    expect(response.headers?.["x-request-id"]).toMatch(/^req-\d+$/);
    expect(json(response)).toMatchObject({ Shipment: { AirlinePrefix: "020", AwbNumber: "76543213" } });
  });

  it("404 problem+json from the use case's RouteMapNotFoundError", async () => {
    const response = await read(event(owner, { params: { awb: "02012345675" } }), context);
    expect(response.statusCode).toBe(404);
    expect(response.headers?.["content-type"]).toBe("application/problem+json");
    expect(json(response)).toMatchObject({
      type: "https://route-map-tracker.dev/problems/not-found",
      status: 404,
      errors: [],
    });
  });

  it("400 naming the path parameter for an AWB with a wrong check digit", async () => {
    const response = await read(event(owner, { params: { awb: "02012345670" } }), context);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ errors: [{ field: "awb" }] });
  });

  it("403 for a role the route table does not allow", async () => {
    const response = await read(event(carrier, { params: { awb: "020-76543213" } }), context);
    expect(response.statusCode).toBe(403);
    expect(json(response)).toMatchObject({
      type: "https://route-map-tracker.dev/problems/forbidden",
      detail: "This operation is not allowed for role carrier.",
    });
  });

  it("429 with Retry-After once one caller's burst is spent", async () => {
    const burster: Identity = { ...owner, forwarderId: "FWD-BURST" } as Identity;
    const statuses: number[] = [];
    let limited: { headers?: Record<string, unknown>; body: string } | undefined;
    for (let i = 0; i < 150; i++) {
      const response = await read(event(burster, { params: { awb: "02012345675" } }), context);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited ??= response;
    }
    expect(statuses.filter((status) => status === 404).length).toBeGreaterThanOrEqual(100);
    expect(limited?.headers?.["retry-after"]).toMatch(/^\d+$/);
    expect(JSON.parse(limited?.body ?? "{}")).toMatchObject({
      type: "https://route-map-tracker.dev/problems/rate-limited",
      status: 429,
    });
  });
});

describe("notification-rule handlers over the memory subscription repository", () => {
  const subscriptions = memorySubscriptionRepository();
  const swept: unknown[] = [];
  const create = createNotificationRule(() => ({
    subscriptions,
    limits: { rules: 10, webhooks: 10 },
    proActiveSweeps: { request: async (sweep) => void swept.push(sweep) },
  }));
  const get = getNotificationRule(() => ({ subscriptions }));
  const post = (body: string, contentType = "application/json") =>
    create(event(owner, { method: "POST", body, contentType }), context);

  it("200 with the rule, owned by the caller, then readable by id", async () => {
    const response = await post(JSON.stringify(emailRuleBody()));
    expect(response.statusCode).toBe(200);
    const rule = json(response);
    expect(rule).toMatchObject({ ChannelType: "Email", ForwarderIdentifier: "FWD-OWNER", Enabled: true });
    const read = await get(event(owner, { params: { id: String(rule.Id) } }), context);
    expect(read.statusCode).toBe(200);
    expect(json(read)).toEqual(rule);
  });

  it("404 problem+json for another forwarder's rule (SubscriptionNotFoundError through the table)", async () => {
    const stranger: Identity = { ...owner, forwarderId: "FWD-STRANGER" } as Identity;
    const response = await get(event(stranger, { params: { id: "1" } }), context);
    expect(response.statusCode).toBe(404);
    expect(response.headers?.["content-type"]).toBe("application/problem+json");
    expect(json(response)).toMatchObject({ type: "https://route-map-tracker.dev/problems/not-found" });
  });

  it("400 with field errors for a body the schema refuses", async () => {
    const response = await post(JSON.stringify(emailRuleBody({ ChannelType: "Fax" })));
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({
      type: "https://route-map-tracker.dev/problems/validation",
      detail: "The request body is invalid.",
      errors: [{ field: "ChannelType" }],
    });
  });

  it("400 for malformed JSON and 415 for another content type", async () => {
    const malformed = await post("{");
    expect(malformed.statusCode).toBe(400);
    expect(json(malformed)).toMatchObject({ type: "https://route-map-tracker.dev/problems/malformed-json" });
    const text = await post(JSON.stringify(emailRuleBody()), "text/plain");
    expect(text.statusCode).toBe(415);
    expect(json(text)).toMatchObject({
      type: "https://route-map-tracker.dev/problems/unsupported-media-type",
      detail: "Content-Type must be application/json, not text/plain.",
    });
  });

  it("403 for support calling a forwarder route", async () => {
    const support: Identity = { role: "support", subject: "ops" };
    const response = await create(
      event(support, {
        method: "POST",
        body: JSON.stringify(emailRuleBody()),
        contentType: "application/json",
      }),
      context,
    );
    expect(response.statusCode).toBe(403);
  });
});
