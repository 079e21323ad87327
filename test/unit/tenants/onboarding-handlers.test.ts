/**
 * The onboarding handlers over memory adapters (no emulator): the whole pipeline runs, so statuses,
 * PascalCase answers, problem+json for domain refusals and the secret shown only once are checked here.
 */
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { localClientRegistry } from "../../../functions/adapters/local-client-registry.ts";
import { localUserDirectory } from "../../../functions/adapters/local-user-directory.ts";
import type { CarrierSettings } from "../../../functions/core/carriers.ts";
import { type Identity, identityToContext } from "../../../functions/core/identity.ts";
import { make as createCarrierClient } from "../../../functions/handlers/http/create-carrier-client.ts";
import { make as createForwarder } from "../../../functions/handlers/http/create-forwarder.ts";
import { make as createForwarderClient } from "../../../functions/handlers/http/create-forwarder-client.ts";
import { make as deleteForwarder } from "../../../functions/handlers/http/delete-forwarder.ts";
import { make as getForwarder } from "../../../functions/handlers/http/get-forwarder.ts";
import { make as listCarriers } from "../../../functions/handlers/http/list-carriers.ts";
import { make as listForwarderClients } from "../../../functions/handlers/http/list-forwarder-clients.ts";
import { make as listForwarders } from "../../../functions/handlers/http/list-forwarders.ts";
import { make as putCarrier } from "../../../functions/handlers/http/put-carrier.ts";
import { memoryForwarderUserRepository } from "../../support/memory/forwarder-user-repository.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const context = { awsRequestId: "lambda-request-id" } as Context;
const support: Identity = { role: "support", subject: "ops" };

let requests = 0;
function event(
  request: {
    params?: Record<string, string>;
    query?: Record<string, string>;
    body?: unknown;
    caller?: Identity;
  } = {},
): APIGatewayProxyEvent {
  requests += 1;
  return {
    resource: "/",
    path: "/",
    httpMethod: "POST",
    headers: request.body === undefined ? {} : { "Content-Type": "application/json" },
    multiValueHeaders: {},
    queryStringParameters: request.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: request.params ?? null,
    stageVariables: null,
    body: request.body === undefined ? null : JSON.stringify(request.body),
    isBase64Encoded: false,
    requestContext: {
      requestId: `req-${requests}`,
      authorizer: { ...identityToContext(request.caller ?? support), principalId: "caller" },
    } as never,
  };
}

const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;
const FORWARDER = {
  ForwarderId: "DEMOFWDXX",
  AgentCode: "1234567",
  AgentCass: "0001",
  AgentStation: "FRA",
  ContactEmail: "ops@demofwd.example",
};

describe("onboarding handlers over memory adapters", () => {
  const tenants = memoryTenantRepository();
  const clients = localClientRegistry();
  const settings = new Map<string, CarrierSettings>();
  const carriers = {
    get: async (prefix: string) => settings.get(prefix) ?? null,
    put: async (carrier: CarrierSettings) => {
      settings.set(carrier.airlinePrefix, carrier);
    },
  };

  it("creates a forwarder (201), refuses it again (409 problem+json), reads it, 404 for an unknown one", async () => {
    const create = createForwarder(() => ({ tenants }));
    const created = await create(event({ body: FORWARDER }), context);
    expect(created.statusCode, created.body).toBe(201);
    expect(json(created)).toMatchObject({ ...FORWARDER, Enabled: true });
    const again = await create(event({ body: FORWARDER }), context);
    expect(again.statusCode).toBe(409);
    expect(again.headers?.["content-type"]).toContain("application/problem+json");
    const read = await getForwarder(() => ({ tenants }))(event({ params: { id: "DEMOFWDXX" } }), context);
    expect(json(read)).toMatchObject(FORWARDER);
    const unknown = await getForwarder(() => ({ tenants }))(event({ params: { id: "NOBODY" } }), context);
    expect(unknown.statusCode).toBe(404);
  });

  it("a forwarder or carrier caller gets 403 and nothing is written", async () => {
    const before = tenants.writes();
    const forwarderCaller: Identity = {
      role: "forwarder",
      forwarderId: "DEMOFWDXX",
      agentCode: "1234567",
      agentCass: "0001",
      agentStation: "FRA",
    };
    for (const caller of [forwarderCaller, { role: "carrier", carrierPrefix: "020" } as const]) {
      const answer = await createForwarder(() => ({ tenants }))(
        event({ body: { ...FORWARDER, ForwarderId: "INTRUDERX" }, caller }),
        context,
      );
      expect(answer.statusCode).toBe(403);
    }
    expect(tenants.writes()).toBe(before);
  });

  it("creates a client: 201 with the secret once; the list never shows it", async () => {
    const created = await createForwarderClient(() => ({ tenants, clients }))(
      event({ params: { id: "DEMOFWDXX" }, body: { Name: "ops" } }),
      context,
    );
    expect(created.statusCode, created.body).toBe(201);
    const body = json(created);
    expect(Object.keys(body).sort()).toEqual(["ClientId", "ClientSecret", "CreatedAt", "Name"]);
    const listed = await listForwarderClients(() => ({ tenants }))(
      event({ params: { id: "DEMOFWDXX" } }),
      context,
    );
    expect(json(listed)).toEqual({
      Items: [{ ClientId: body.ClientId, Name: "ops", Enabled: true, CreatedAt: body.CreatedAt }],
    });
    expect(listed.body).not.toContain(String(body.ClientSecret));
  });

  it("lists forwarders with Limit and NextCursor; a bad Limit is 400 naming it", async () => {
    await createForwarder(() => ({ tenants }))(
      event({ body: { ...FORWARDER, ForwarderId: "ZZFWDXXXX" } }),
      context,
    );
    const list = listForwarders(() => ({ tenants }));
    const first = json(await list(event({ query: { Limit: "1" } }), context));
    expect((first.Items as Array<Record<string, unknown>>).map((f) => f.ForwarderId)).toEqual(["DEMOFWDXX"]);
    const second = json(
      await list(event({ query: { Limit: "1", Cursor: String(first.NextCursor) } }), context),
    );
    expect((second.Items as Array<Record<string, unknown>>).map((f) => f.ForwarderId)).toEqual(["ZZFWDXXXX"]);
    expect(second.NextCursor).toBeNull();
    const bad = await list(event({ query: { Limit: "101" } }), context);
    expect(bad.statusCode).toBe(400);
    expect((json(bad).errors as Array<{ field: string }>).map((e) => e.field)).toEqual(["Limit"]);
  });

  it("a carrier's client needs its settings (404), PUT makes it a listed tenant", async () => {
    const early = await createCarrierClient(() => ({ tenants, clients, carriers }))(
      event({ params: { prefix: "020" }, body: {} }),
      context,
    );
    expect(early.statusCode).toBe(404);
    const put = await putCarrier(() => ({ tenants, carriers }))(
      event({ params: { prefix: "020" }, body: { Name: "Example Cargo", QualityProgram: true, Xtd: false } }),
      context,
    );
    expect(put.statusCode, put.body).toBe(200);
    const listed = json(await listCarriers(() => ({ tenants, carriers }))(event({}), context));
    expect(listed).toEqual({
      Items: [
        { AirlinePrefix: "020", Name: "Example Cargo", QualityProgram: true, Xtd: false, Enabled: true },
      ],
      NextCursor: null,
    });
  });

  it("deleting a forwarder answers it with DeletedClients", async () => {
    const users = memoryForwarderUserRepository();
    const directory = localUserDirectory();
    const deleted = await deleteForwarder(() => ({ tenants, clients, users, directory }))(
      event({ params: { id: "DEMOFWDXX" } }),
      context,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(json(deleted)).toMatchObject({
      ForwarderId: "DEMOFWDXX",
      DeletedClients: [expect.any(String)],
      DeletedUsers: [],
    });
  });
});
