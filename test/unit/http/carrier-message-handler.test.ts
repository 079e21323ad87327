/** GET /support/carriers/{prefix}/messages/{id} over a memory store: support reads a kept raw message. */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { type Identity, identityToContext } from "../../../functions/core/identity.ts";
import { make } from "../../../functions/handlers/http/get-carrier-message.ts";
import { memoryRawMessageStore } from "../../support/memory/raw-messages.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const support: Identity = { role: "support", subject: "ops" };
const ID = "20260314T120301Z-3f9a1c2b7e";

function event(caller: Identity, prefix: string, id: string): APIGatewayProxyEvent {
  const path = `/support/carriers/${prefix}/messages/${id}`;
  return {
    resource: "/support/carriers/{prefix}/messages/{id}",
    path,
    httpMethod: "GET",
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { prefix, id },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: `req-${prefix}-${id}`,
      authorizer: { ...identityToContext(caller), principalId: "caller" },
    } as never,
  };
}

describe("get-carrier-message", () => {
  it("answers the raw message as received, 404 for another carrier's, 400 for a malformed id, 403 for others", async () => {
    const store = memoryRawMessageStore();
    const body = "FSU/15\r\n020-12345675FRAJFK/T10K250.0\r\nDEP/LH400/14MAR/FRAJFK/T10K250.0/A1341\r\n";
    await store.put({
      carrierPrefix: "020",
      receiptId: ID,
      channel: "email",
      receivedAt: "2026-03-14T12:03:01.250Z",
      contentType: "text/plain",
      body,
    });
    const handler = make(() => ({ rawMessages: store }));
    const found = await handler(event(support, "020", ID), context);
    expect(found.statusCode, found.body).toBe(200);
    expect(JSON.parse(found.body)).toEqual({
      ReceiptId: ID,
      Carrier: "020",
      Channel: "Email",
      ReceivedAt: "2026-03-14T12:03:01.250Z",
      ContentType: "text/plain",
      FetchedFrom: null,
      Body: body,
    });
    expect((await handler(event(support, "057", ID), context)).statusCode).toBe(404);
    const malformed = await handler(event(support, "020", "latest"), context);
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(malformed.body).errors[0].field).toBe("id");
    expect(
      (await handler(event({ role: "carrier", carrierPrefix: "020" }, "020", ID), context)).statusCode,
    ).toBe(403);
  });
});
