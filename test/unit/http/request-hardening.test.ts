/**
 * What a request cannot break in the pipeline: a path parameter that is not valid percent-encoding
 * (raw, as API Gateway's REST API passes it, or already decoded, as an HTTP API would) is 400 naming
 * it, 404 for a share token; a token whose exp has passed is 401 although the authorizer's cached
 * context still says who it was.
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { prefixFromPath, shareTokenFromPath } from "../../../functions/http/params.ts";
import { httpRoute } from "../../../functions/http/pipeline.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function event(
  pathParameters: Record<string, string>,
  authorizer: Record<string, unknown> | null = { role: "support", sub: "support" },
): APIGatewayProxyEvent {
  return {
    resource: "/",
    path: "/",
    httpMethod: "GET",
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: "req-1", authorizer } as never,
  };
}

const carrierRoute = httpRoute("get-carrier", { params: { prefix: prefixFromPath } }).handle(
  async ({ params }) => ({ status: 200, body: { prefix: params.prefix } }),
);
const sharedRoute = httpRoute("get-shared-route-map", { params: { token: shareTokenFromPath } }).handle(
  async () => ({ status: 200, body: {} }),
);

describe("a path parameter that is not valid percent-encoding", () => {
  it.each(["%ZZ", "%E0%A4%A", "%", "abc%2", "%C0%AF", "%ED%A0%80", "%FF"])(
    "%s is 400 naming the parameter",
    async (raw) => {
      const response = await carrierRoute(event({ prefix: raw }), context);
      expect(response.statusCode).toBe(400);
      expect(response.headers?.["content-type"]).toBe("application/problem+json");
      expect(JSON.parse(response.body).errors).toEqual([
        { field: "prefix", message: "must be valid percent-encoded UTF-8" },
      ]);
    },
  );

  it("is decoded once when valid, so an encoded value reaches its parser as the client meant it", async () => {
    const response = await carrierRoute(event({ prefix: "%30%32%30" }), context);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ prefix: "020" });
  });

  it("is 400 too when the gateway already decoded it and it still holds a %", async () => {
    // An HTTP API would pass `%25ZZ` as `%ZZ`: decoding it again fails the same way.
    const response = await carrierRoute(event({ prefix: "%ZZ" }), context);
    expect(response.statusCode).toBe(400);
  });

  it("is the share link's 404 for a share token, as any unknown token is", async () => {
    for (const raw of ["%ZZ", "%E0%A4%A", `${"A".repeat(42)}%`]) {
      const response = await sharedRoute(event({ token: raw }, null), context);
      expect(response.statusCode, raw).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ status: 404, title: "Not Found" });
    }
  });
});

describe("a token's exp in the authorizer context", () => {
  const support = (exp: unknown) => ({
    role: "support",
    sub: "support",
    ...(exp === undefined ? {} : { exp }),
  });
  const statusWith = async (exp: unknown) =>
    (await carrierRoute(event({ prefix: "020" }, support(exp)), context)).statusCode;

  it("lets the token through before exp and refuses it from the second exp passes", async () => {
    expect(await statusWith(nowSeconds() + 60)).toBe(200);
    expect(await statusWith(nowSeconds())).toBe(401);
    expect(await statusWith(nowSeconds() - 1)).toBe(401);
  });

  it("reads exp as API Gateway may hand it over (a string of digits); a malformed exp is 401", async () => {
    expect(await statusWith(String(nowSeconds() + 60))).toBe(200);
    expect(await statusWith(String(nowSeconds() - 1))).toBe(401);
    for (const exp of ["soon", "1e12", true, {}, Number.NaN])
      expect(await statusWith(exp), String(exp)).toBe(401);
  });

  it("lets a context without exp through (an Allow cached before the authorizer passed exp)", async () => {
    expect(await statusWith(undefined)).toBe(200);
  });
});
