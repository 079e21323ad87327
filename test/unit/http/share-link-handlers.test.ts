/**
 * Share-link handlers over memory adapters: the whole pipeline (identity, rate limit, body, params,
 * problems), including the public route, which has no caller and skips the rate limit.
 */
import { readFileSync } from "node:fs";
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { type Identity, identityToContext } from "../../../functions/core/identity.ts";
import { make as createShare } from "../../../functions/handlers/http/create-route-map-share.ts";
import { make as deleteShare } from "../../../functions/handlers/http/delete-route-map-share.ts";
import { make as getShared } from "../../../functions/handlers/http/get-shared-route-map.ts";
import { make as ingestCarrierMessage } from "../../../functions/handlers/http/ingest-carrier-message.ts";
import { make as listShares } from "../../../functions/handlers/http/list-route-map-shares.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";
import { memoryShareLinkRepository } from "../../support/memory/share-link-repository.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const FWB = readFileSync(new URL("../../fixtures/json-events/fwb-single.json", import.meta.url), "utf8");
const AWB = "020-76543213";
const carrier: Identity = { role: "carrier", carrierPrefix: "020" };
const owner: Identity = {
  role: "forwarder",
  forwarderId: "FWD-SHARE",
  agentCode: "7654321",
  agentCass: "0042",
  agentStation: "MUC",
};
const stranger: Identity = { ...owner, forwarderId: "FWD-OTHER", agentCode: "1111111" } as Identity;

let requests = 0;
function event(
  caller: Identity | null,
  request: {
    method?: string;
    params?: Record<string, string>;
    body?: string;
    headers?: Record<string, string>;
  },
): APIGatewayProxyEvent {
  requests += 1;
  return {
    resource: "/",
    path: "/",
    httpMethod: request.method ?? "GET",
    headers: { host: "api.example.test", ...(request.body ? { "Content-Type": "application/json" } : {}) },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: request.params ?? null,
    stageVariables: null,
    body: request.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      requestId: `share-${requests}`,
      ...(caller ? { authorizer: { ...identityToContext(caller), principalId: "caller" } } : {}),
    } as never,
  };
}
const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;

describe("share-link handlers", () => {
  const routeMaps = memoryRouteMapRepository();
  const shareLinks = memoryShareLinkRepository();
  const deps = () => ({ routeMaps, shareLinks, limits: { activePerAwb: 20, perDay: 200 } });
  const create = createShare(deps);
  const list = listShares(deps);
  const revoke = deleteShare(deps);
  const open = getShared(deps);

  it("creates (201), opens signed out (200, no-store), lists without the token, revokes (204, then 404)", async () => {
    const ingest = ingestCarrierMessage(() => ({
      routeMaps,
      carriers: { get: async () => null },
      backoff: async () => undefined,
    }));
    const ingested = await ingest(event(carrier, { method: "POST", body: FWB, headers: {} }), context);
    expect(ingested.statusCode).toBe(200);

    const created = await create(
      event(owner, { method: "POST", params: { awb: AWB }, body: JSON.stringify({ ExpiresInHours: 2 }) }),
      context,
    );
    expect(created.statusCode, created.body).toBe(201);
    const { Id, Url, ExpiresAt } = json(created) as { Id: string; Url: string; ExpiresAt: string };
    expect(Url).toMatch(/^http:\/\/api\.example\.test\/app\/#\/shared\/[A-Za-z0-9_-]{43}$/);
    expect(ExpiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const token = Url.split("/").at(-1) ?? "";

    const opened = await open(event(null, { params: { token } }), context);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers?.["cache-control"]).toBe("no-store");
    expect(json(opened)).toMatchObject({ Shipment: { AirlinePrefix: "020", AwbNumber: "76543213" } });

    const listed = await list(event(owner, { params: { awb: AWB } }), context);
    expect(json(listed)).toEqual({ Items: [{ Id, ExpiresAt, CreatedAt: expect.any(String) }] });
    expect(listed.body).not.toContain(token);
    expect((await list(event(stranger, { params: { awb: AWB } }), context)).statusCode).toBe(404);
    expect(
      (await revoke(event(stranger, { method: "DELETE", params: { awb: AWB, id: Id } }), context)).statusCode,
    ).toBe(404);

    expect(
      (await revoke(event(owner, { method: "DELETE", params: { awb: AWB, id: Id } }), context)).statusCode,
    ).toBe(204);
    const gone = await open(event(null, { params: { token } }), context);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers?.["content-type"]).toBe("application/problem+json");
  });

  it('400 naming ExpiresInHours for 0, 721, 1.5 and "x"; nothing stored', async () => {
    const before = shareLinks.all().length;
    for (const value of [0, 721, 1.5, "x", null]) {
      const response = await create(
        event(owner, {
          method: "POST",
          params: { awb: AWB },
          body: JSON.stringify({ ExpiresInHours: value }),
        }),
        context,
      );
      expect(response.statusCode).toBe(400);
      expect(json(response)).toMatchObject({ errors: [{ field: "ExpiresInHours" }] });
    }
    expect(shareLinks.all()).toHaveLength(before);
  });

  it("the same 404 for malformed and unknown tokens, without a caller", async () => {
    for (const token of ["x", "A".repeat(43), "A".repeat(44), "../../etc/passwd", `${"A".repeat(42)}=`]) {
      const response = await open(event(null, { params: { token } }), context);
      expect(response.statusCode).toBe(404);
      expect(json(response)).toMatchObject({ status: 404, errors: [] });
    }
  });
});

describe("the share Url's origin", () => {
  it("is APP_BASE_URL when deployed (the distribution), else the request's origin without the stage", async () => {
    const { appBaseUrl } = await import("../../../functions/adapters/app-base-url.ts");
    const { configFrom } = await import("../../../functions/adapters/config.ts");
    const configured = (env: Record<string, string>) => configFrom(env).appBaseUrl();
    expect(appBaseUrl(configured({}), "http://api.example.test/prod")).toBe("http://api.example.test");
    expect(
      appBaseUrl(
        configured({ APP_BASE_URL: "https://d111.cloudfront.example/" }),
        "http://api.example.test/prod",
      ),
    ).toBe("https://d111.cloudfront.example");
  });
});
