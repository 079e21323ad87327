/**
 * The forwarder-user routes' handlers (`make` over memory adapters) through the whole HTTP pipeline:
 * 201 with the user (e-mail lower-cased), 400 naming Email with nothing written, 404 for a forwarder
 * never onboarded, 409 problem+json for a known address, 403 for a forwarder's token, and the delete
 * route's 200 then 404.
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { type Identity, identityToContext } from "../../../functions/core/identity.ts";
import type { ForwarderUserDirectory } from "../../../functions/core/ports/tenants.ts";
import { make as createForwarderUser } from "../../../functions/handlers/http/create-forwarder-user.ts";
import { make as deleteForwarderUser } from "../../../functions/handlers/http/delete-forwarder-user.ts";
import { make as listForwarderUsers } from "../../../functions/handlers/http/list-forwarder-users.ts";
import { memoryForwarderUserRepository } from "../../support/memory/forwarder-user-repository.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const support: Identity = { role: "support", subject: "ops" };
const forwarder: Identity = {
  role: "forwarder",
  forwarderId: "ACMECARGO",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: null,
};

let requests = 0;
function event(
  caller: Identity,
  request: { method: string; path: string; params: Record<string, string>; body?: unknown },
): APIGatewayProxyEvent {
  requests += 1;
  return {
    resource: request.path,
    path: request.path,
    httpMethod: request.method,
    headers: request.body === undefined ? {} : { "Content-Type": "application/json" },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: request.params,
    stageVariables: null,
    body: request.body === undefined ? null : JSON.stringify(request.body),
    isBase64Encoded: false,
    requestContext: {
      requestId: `req-${requests}`,
      authorizer: { ...identityToContext(caller), principalId: "caller" },
    } as never,
  };
}

const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;

async function setup() {
  const tenants = memoryTenantRepository();
  await tenants.createTenant({
    kind: "forwarder",
    forwarderId: "ACMECARGO",
    agentCode: "1234567",
    agentCass: "0001",
    agentStation: null,
    contactEmail: "it@fwd1.example",
    enabled: true,
    createdAt: "2026-11-24T10:00:00.000Z",
    updatedAt: "2026-11-24T10:00:00.000Z",
  });
  const users = memoryForwarderUserRepository();
  let next = 0;
  const directory: ForwarderUserDirectory = {
    createUser: async () => ({ userId: `0000000${++next}-aaaa-4bbb-8ccc-000000000000` }),
    deleteUser: async () => {},
  };
  const deps = () => ({ tenants, users, directory });
  return {
    users,
    create: createForwarderUser(deps),
    list: listForwarderUsers(deps),
    remove: deleteForwarderUser(deps),
  };
}

const post = (caller: Identity, id: string, body: unknown) =>
  event(caller, { method: "POST", path: `/support/forwarders/${id}/users`, params: { id }, body });

describe("forwarder-user handlers", () => {
  it("create 201, list, delete 200 then 404", async () => {
    const { create, list, remove } = await setup();
    const created = await create(post(support, "ACMECARGO", { Email: "Anna@FWD1.example" }), context);
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created)).toMatchObject({ Email: "anna@fwd1.example", ForwarderId: "ACMECARGO" });
    const userId = json(created).UserId as string;
    const listed = await list(
      event(support, {
        method: "GET",
        path: "/support/forwarders/ACMECARGO/users",
        params: { id: "ACMECARGO" },
      }),
      context,
    );
    expect((json(listed).Items as unknown[]).length).toBe(1);
    const del = () =>
      remove(
        event(support, {
          method: "DELETE",
          path: `/support/forwarders/ACMECARGO/users/${userId}`,
          params: { id: "ACMECARGO", userId },
        }),
        context,
      );
    expect((await del()).statusCode).toBe(200);
    const again = await del();
    expect(again.statusCode).toBe(404);
    expect(again.headers?.["Content-Type"] ?? again.headers?.["content-type"]).toMatch(/problem\+json/);
  });

  it("refuses a bad address naming Email, writing nothing; 404 unknown forwarder; 409 known address", async () => {
    const { create, users } = await setup();
    const bad = await create(post(support, "ACMECARGO", { Email: "nope" }), context);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(json(bad).errors)).toContain('"Email"');
    expect(users.writes()).toBe(0);
    expect((await create(post(support, "NOSUCH", { Email: "x@y.example" }), context)).statusCode).toBe(404);
    expect((await create(post(support, "ACMECARGO", { Email: "a@fwd1.example" }), context)).statusCode).toBe(
      201,
    );
    const twice = await create(post(support, "ACMECARGO", { Email: "A@fwd1.example" }), context);
    expect(twice.statusCode).toBe(409);
    expect(json(twice).type).toMatch(/user-exists$/);
  });

  it("is support's: a forwarder's token gets 403", async () => {
    const { create, users } = await setup();
    expect(
      (await create(post(forwarder, "ACMECARGO", { Email: "a@fwd1.example" }), context)).statusCode,
    ).toBe(403);
    expect(users.writes()).toBe(0);
  });
});
