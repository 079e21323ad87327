/**
 * Issue 11 point 21 at the HTTP edge, over memory adapters: the public confirmation link (GET shows,
 * POST confirms) and the base URL links are built from.
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { confirmationToRequest } from "../../../functions/core/notifications/index.ts";
import { make as confirmEmailAddress } from "../../../functions/handlers/http/confirm-email-address.ts";
import { make as showEmailConfirmation } from "../../../functions/handlers/http/show-email-confirmation.ts";
import { publicBaseUrl } from "../../../functions/http/pipeline.ts";
import { memoryDeliveryRepository } from "../../support/memory/delivery-repository.ts";
import { memoryEmailConfirmationRepository } from "../../support/memory/email-confirmation-repository.ts";
import { memorySubscriptionRepository } from "../../support/memory/subscription-repository.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const TOKEN = "unit-token-0123456789abcdefghijklmnopqrstu";

function event(
  method: string,
  path: string,
  extra: Partial<APIGatewayProxyEvent> = {},
): APIGatewayProxyEvent {
  return {
    resource: "/email-confirmations/{token}",
    path,
    httpMethod: method,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { token: path.split("/").at(-1) ?? "" },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: "req-1" } as never,
    ...extra,
  };
}

describe("publicBaseUrl", () => {
  it("API Gateway's domain and stage; a custom domain has no stage; locally the Host over http", () => {
    const path = "/ffw/service/routemap/eventconfignotifier";
    expect(
      publicBaseUrl(
        event("POST", path, {
          headers: { Host: "abc.execute-api.eu-central-1.amazonaws.com", "X-Forwarded-Proto": "https" },
          requestContext: {
            domainName: "abc.execute-api.eu-central-1.amazonaws.com",
            path: `/prod${path}`,
          } as never,
        }),
      ),
    ).toBe("https://abc.execute-api.eu-central-1.amazonaws.com/prod");
    expect(
      publicBaseUrl(
        event("POST", path, { requestContext: { domainName: "api.example.com", path } as never }),
      ),
    ).toBe("https://api.example.com");
    expect(
      publicBaseUrl(
        event("POST", path, { headers: { host: "127.0.0.1:3000" }, requestContext: { path } as never }),
      ),
    ).toBe("http://127.0.0.1:3000");
  });
});

describe("the confirmation link", () => {
  it("GET shows the page and changes nothing; POST confirms once; a made-up token is 404", async () => {
    const confirmations = memoryEmailConfirmationRepository();
    const pending = confirmationToRequest(null, {
      forwarderId: "FWD-UNIT",
      address: "ops@unit.example",
      token: TOKEN,
      now: new Date().toISOString(),
    });
    if (!pending) throw new Error("no confirmation");
    await confirmations.putPending(pending);
    const show = showEmailConfirmation(() => ({ confirmations }));
    const confirm = confirmEmailAddress(() => ({
      confirmations,
      subscriptions: memorySubscriptionRepository(),
      deliveries: memoryDeliveryRepository(),
      queue: { enqueue: async () => {} },
    }));
    const path = `/email-confirmations/${TOKEN}`;

    const page = await show(event("GET", path), context);
    expect(page.statusCode).toBe(200);
    expect(page.headers?.["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain('<form method="post">');
    expect(page.body).toContain("ops@unit.example");
    // Styled like the app, by a style its CSP allows by hash alone: no script, nothing loaded.
    expect(page.body).toContain("<style>");
    expect(page.body).not.toContain("<script");
    expect(page.headers?.["content-security-policy"]).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'/,
    );
    expect((await confirmations.get("FWD-UNIT", "ops@unit.example"))?.status).toBe("pending");

    const done = await confirm(event("POST", path), context);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain("Confirmed: ops@unit.example");
    expect((await confirmations.get("FWD-UNIT", "ops@unit.example"))?.status).toBe("confirmed");
    expect((await confirm(event("POST", path), context)).statusCode).toBe(404);
    expect((await show(event("GET", `/email-confirmations/${"B".repeat(43)}`), context)).statusCode).toBe(
      404,
    );
    const malformed = await show(event("GET", "/email-confirmations/short"), context);
    expect(malformed.statusCode).toBe(400);
    expect(JSON.parse(malformed.body).errors).toEqual([
      { field: "token", message: "must be the token of a confirmation link" },
    ]);
  });
});
