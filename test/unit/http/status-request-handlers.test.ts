/**
 * The status-request and usage routes' handlers (`make` over memory adapters) through the whole HTTP
 * pipeline: the carrier's pull queue (list, ack 204, then 404; another carrier's id 404; a malformed id
 * 400 naming it), the usage routes (400 naming month; the caller's own ledger only), roles (403).
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { beforeEach, describe, expect, it } from "vitest";
import { type Identity, identityToContext } from "../../../functions/core/identity.ts";
import { statusRequestId } from "../../../functions/core/status-requests.ts";
import { make as ackCarrierRequest } from "../../../functions/handlers/http/ack-carrier-request.ts";
import { make as getXtdUsage } from "../../../functions/handlers/http/get-xtd-usage.ts";
import { make as listCarrierRequests } from "../../../functions/handlers/http/list-carrier-requests.ts";
import { make as listXtdUsage } from "../../../functions/handlers/http/list-xtd-usage.ts";
import { memoryCarrierInbox, memoryUsageLedger } from "../../support/memory/status-requests.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const carrier = (prefix: string): Identity => ({ role: "carrier", carrierPrefix: prefix });
const support: Identity = { role: "support", subject: "ops" };
const forwarder = (forwarderId: string): Identity => ({
  role: "forwarder",
  forwarderId,
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: null,
});

let requests = 0;
function event(
  caller: Identity,
  request: { method: string; path: string; params?: Record<string, string>; query?: Record<string, string> },
): APIGatewayProxyEvent {
  requests += 1;
  return {
    resource: request.path,
    path: request.path,
    httpMethod: request.method,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: request.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: request.params ?? null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: `req-${requests}`,
      authorizer: { ...identityToContext(caller), principalId: "caller" },
    } as never,
  };
}
const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;

const AT = "2026-05-02T10:00:00.000Z";
const AWB = { prefix: "176", serial: "12345675" };
const ID = statusRequestId(AWB, AT);
let inbox: ReturnType<typeof memoryCarrierInbox>;
let usage: ReturnType<typeof memoryUsageLedger>;

beforeEach(async () => {
  inbox = memoryCarrierInbox();
  usage = memoryUsageLedger();
  await inbox.put({
    request: {
      requestId: ID,
      carrierPrefix: "176",
      awb: AWB,
      origin: null,
      destination: null,
      requestedAt: AT,
      forwarderId: "ACMECARGO",
      isXtd: true,
    },
    format: "cargo-imp",
    contentType: "text/plain; charset=utf-8",
    body: "FSR/1\n176-12345675\n",
    availableAt: AT,
  });
  await usage.record({
    forwarderId: "ACMECARGO",
    month: "2026-05",
    at: AT,
    awb: AWB,
    requestId: ID,
    collapsed: false,
  });
  await usage.record({
    forwarderId: "FWD2",
    month: "2026-05",
    at: AT,
    awb: AWB,
    requestId: ID,
    collapsed: true,
  });
});

describe("the carrier's pull queue", () => {
  const list = (prefix: string) =>
    listCarrierRequests(() => ({ carrierInbox: inbox }))(
      event(carrier(prefix), { method: "GET", path: "/carrier/requests" }),
      context,
    );
  const ack = (caller: Identity, id: string) =>
    ackCarrierRequest(() => ({ carrierInbox: inbox }))(
      event(caller, { method: "POST", path: `/carrier/requests/${id}/ack`, params: { id } }),
      context,
    );

  it("lists the caller's requests only; ack 204, then 404; another carrier's ack 404", async () => {
    const own = await list("176");
    expect(own.statusCode, own.body).toBe(200);
    expect(json(own)).toMatchObject({
      TotalItems: 1,
      Items: [
        { RequestId: ID, AwbNumber: "176-12345675", Format: "cargo-imp", Message: "FSR/1\n176-12345675\n" },
      ],
    });
    expect(json(await list("020"))).toMatchObject({ TotalItems: 0, Items: [] });
    expect((await ack(carrier("020"), ID)).statusCode).toBe(404);
    expect((await ack(carrier("176"), ID)).statusCode).toBe(204);
    const again = await ack(carrier("176"), ID);
    expect(again.statusCode).toBe(404);
    expect(again.headers?.["content-type"] ?? again.headers?.["Content-Type"]).toMatch(/problem\+json/);
  });

  it("a malformed id is 400 naming id; a forwarder's token 403", async () => {
    const malformed = await ack(carrier("176"), "12");
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(json(malformed).errors)).toContain('"id"');
    expect((await ack(forwarder("ACMECARGO"), ID)).statusCode).toBe(403);
    expect(inbox.items.size).toBe(1);
  });
});

describe("the usage routes", () => {
  const own = (forwarderId: string, query: Record<string, string>) =>
    getXtdUsage(() => ({ usage }))(
      event(forwarder(forwarderId), { method: "GET", path: "/ffw/service/routemap/usage", query }),
      context,
    );

  it("the forwarder sees its own ledger of the month", async () => {
    const response = await own("FWD2", { month: "2026-05" });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toMatchObject({
      ForwarderIdentifier: "FWD2",
      Month: "2026-05",
      XtdRequests: 1,
      Items: [{ At: AT, AwbNumber: "176-12345675", RequestId: ID, Collapsed: true }],
    });
  });

  it("a missing or malformed month is 400 naming month", async () => {
    const queries: Array<Record<string, string>> = [{}, { month: "2026-5" }, { month: "2026-00" }];
    for (const query of queries) {
      const response = await own("ACMECARGO", query);
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(json(response).errors)).toContain("month");
    }
  });

  it("support sees every forwarder's count; a forwarder's token 403", async () => {
    const all = (caller: Identity) =>
      listXtdUsage(() => ({ usage }))(
        event(caller, { method: "GET", path: "/support/usage", query: { month: "2026-05" } }),
        context,
      );
    const response = await all(support);
    expect(json(response)).toMatchObject({
      XtdRequests: 2,
      Items: [
        { ForwarderIdentifier: "ACMECARGO", XtdRequests: 1 },
        { ForwarderIdentifier: "FWD2", XtdRequests: 1 },
      ],
    });
    expect((await all(forwarder("ACMECARGO"))).statusCode).toBe(403);
  });
});
