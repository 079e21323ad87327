/** The HTTP pipeline: unexpected errors are logged with the request id and answered 500 without internals. */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it, vi } from "vitest";
import { logger } from "../../../functions/adapters/logger.ts";
import { httpRoute } from "../../../functions/http/pipeline.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;

function event(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: "/support/carriers/{prefix}",
    path: "/support/carriers/020",
    httpMethod: "GET",
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { prefix: "020" },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: "req-123", authorizer: { role: "support", sub: "support" } } as never,
    ...overrides,
  };
}

describe("httpRoute", () => {
  it("answers 500 problem+json without internals and logs the error with the request id", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const handler = httpRoute("get-carrier").handle(async () => {
      throw new Error("secret table name RouteMaps-XYZ exploded");
    });
    const response = await handler(event(), context);
    expect(response.statusCode).toBe(500);
    expect(response.headers?.["content-type"]).toBe("application/problem+json");
    expect(response.body).not.toContain("RouteMaps");
    expect(JSON.parse(response.body)).toMatchObject({ status: 500, title: "Internal Server Error" });
    expect(JSON.parse(response.body).detail).toContain("req-123");
    expect(logged).toHaveBeenCalledWith(
      "unexpected error",
      expect.objectContaining({ requestId: "req-123" }),
    );
    logged.mockRestore();
  });

  it("refuses a request without authorizer claims with 401 and a wrong role with 403", async () => {
    const handler = httpRoute("get-carrier").handle(async () => ({ status: 200, body: {} }));
    const noClaims = await handler(
      event({ requestContext: { requestId: "r1", authorizer: null } as never }),
      context,
    );
    expect(noClaims.statusCode).toBe(401);
    const carrier = await handler(
      event({
        requestContext: { requestId: "r2", authorizer: { role: "carrier", carrier_prefix: "020" } } as never,
      }),
      context,
    );
    expect(carrier.statusCode).toBe(403);
  });

  it("passes pre-serialised JSON through untouched", async () => {
    const handler = httpRoute("get-carrier").handle(async () => ({
      status: 200,
      rawJson: '{"kept":"as is"}',
    }));
    const response = await handler(event(), context);
    expect(response.body).toBe('{"kept":"as is"}');
  });
});

describe("per-caller rate limit", () => {
  it("answers 429 problem+json with Retry-After once a caller's burst is spent", async () => {
    const handler = httpRoute("get-carrier").handle(async () => ({ status: 200, body: {} }));
    const statuses: number[] = [];
    let limited: { headers?: Record<string, unknown>; body: string } | undefined;
    const authorizer = { role: "support", sub: "burst-tester" };
    for (let i = 0; i < 150; i++) {
      const response = await handler(
        event({ requestContext: { requestId: `r${i}`, authorizer } as never }),
        context,
      );
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited ??= response;
    }
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(100);
    expect(limited?.headers?.["retry-after"]).toMatch(/^\d+$/);
    expect(JSON.parse(limited?.body ?? "{}")).toMatchObject({ status: 429 });
  });
});
