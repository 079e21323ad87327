/**
 * Issue 12 point 1 end to end through the local runner: support onboards a forwarder and a carrier and
 * manages their machine clients; bad input is 400 naming the field, unknown tenants and clients 404, a
 * second onboarding 409, other roles 403, and nothing is written on a refused request.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import { TABLES } from "../../functions/contracts/resources.ts";
import { call, clientToken, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";

let stack: RunningStack;
let db: DynamoDBDocumentClient;

type Json = Record<string, unknown>;
type Problem = {
  type: string;
  status: number;
  detail: string;
  errors: Array<{ field: string; message: string }>;
};

const support = () => tokens.support();
const as = (token: string, method: string, path: string, json?: unknown) =>
  call(stack.url, method, path, { token, ...(json === undefined ? {} : { json }) });
const bySupport = (method: string, path: string, json?: unknown) => as(support(), method, path, json);

const forwarder = (forwarderId: string) => ({
  ForwarderId: forwarderId,
  AgentCode: "1234567",
  AgentCass: "0001",
  AgentStation: "FRA",
  ContactEmail: "ops@forwarder.example",
});

/** Every item of the Tenants table, as sorted JSON: a refused request must leave it as it was. */
async function tenantItems(): Promise<string[]> {
  const items: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    // A Scan is fine here: this is the test looking at everything, not the service.
    const page = await db.send(
      new ScanCommand({ TableName: TABLES.tenants.id, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []).map((item) => JSON.stringify(item)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort();
}

const fieldsOf = (body: unknown) => (body as Problem).errors.map((error) => error.field);

beforeAll(async () => {
  stack = await startRunner();
  db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamoEndpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
}, scaled(90_000));

afterAll(async () => {
  db?.destroy();
  await stack?.stop();
});

describe("forwarders", () => {
  it("onboards a forwarder (201), reads it, refuses a second onboarding (409)", async () => {
    const created = await bySupport("POST", "/support/forwarders", forwarder("EEFWDXXXX"));
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      ...forwarder("EEFWDXXXX"),
      Enabled: true,
      CreatedAt: expect.any(String),
      UpdatedAt: expect.any(String),
    });
    const read = await bySupport("GET", "/support/forwarders/EEFWDXXXX");
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const before = await tenantItems();
    const again = await bySupport("POST", "/support/forwarders", {
      ...forwarder("EEFWDXXXX"),
      AgentCode: "7654321",
    });
    expect(again.status).toBe(409);
    expect((again.body as Problem).type).toMatch(/tenant-exists$/);
    expect(await tenantItems()).toEqual(before);
    expect(((await bySupport("GET", "/support/forwarders/EEFWDXXXX")).body as Json).AgentCode).toBe(
      "1234567",
    );
  });

  it("refuses a ForwarderId outside the payload's pattern ^[A-Z]{9}$ with 400 naming it, writing nothing", async () => {
    const before = await tenantItems();
    for (const id of ["FWD1", "ACME-FRA", "acmecargo", "ACMECARGOX", "ACMECARG", "ACMECARG0"]) {
      const answer = await bySupport("POST", "/support/forwarders", forwarder(id));
      expect(answer.status, `${id}: ${answer.text}`).toBe(400);
      const errors = (answer.body as Problem).errors;
      expect(
        errors.map((error) => error.field),
        id,
      ).toEqual(["ForwarderId"]);
      expect(errors[0]?.message, id).toContain("^[A-Z]{9}$");
    }
    expect(await tenantItems()).toEqual(before);
  });

  it("keeps a forwarder's Name when support gives one", async () => {
    const created = await bySupport("POST", "/support/forwarders", {
      ...forwarder("EENAMEDXX"),
      Name: "  Named Forwarding GmbH ",
    });
    expect(created.status, created.text).toBe(201);
    expect((created.body as Json).Name).toBe("Named Forwarding GmbH");
    expect(((await bySupport("GET", "/support/forwarders/EENAMEDXX")).body as Json).Name).toBe(
      "Named Forwarding GmbH",
    );
  });

  it("without AgentStation the forwarder has none (null)", async () => {
    const { AgentStation: _none, ...body } = forwarder("EENOSTATN");
    const created = await bySupport("POST", "/support/forwarders", body);
    expect(created.status, created.text).toBe(201);
    expect((created.body as Json).AgentStation).toBeNull();
  });

  it("refuses bad bodies with 400 naming each field, writing nothing", async () => {
    const before = await tenantItems();
    const cases: Array<[string, unknown]> = [
      ["ForwarderId", { ...forwarder("x"), ForwarderId: "has space" }],
      ["ForwarderId", { ...forwarder("x"), ForwarderId: "x".repeat(65) }],
      ["ForwarderId", { ...forwarder("x"), ForwarderId: undefined }],
      ["AgentCode", { ...forwarder("EEBADXXXX"), AgentCode: "123456" }],
      ["AgentCode", { ...forwarder("EEBADXXXX"), AgentCode: 1234567 }],
      ["AgentCass", { ...forwarder("EEBADXXXX"), AgentCass: "00001" }],
      ["AgentStation", { ...forwarder("EEBADXXXX"), AgentStation: "fra" }],
      ["ContactEmail", { ...forwarder("EEBADXXXX"), ContactEmail: "not-an-address" }],
      ["ContactEmail", { ...forwarder("EEBADXXXX"), ContactEmail: undefined }],
    ];
    for (const [field, body] of cases) {
      const answer = await bySupport("POST", "/support/forwarders", body);
      expect(answer.status, `${field}: ${answer.text}`).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(fieldsOf(answer.body)).toContain(field);
    }
    const several = await bySupport("POST", "/support/forwarders", {
      ForwarderId: "EEBADXXXX",
      AgentCode: "1",
    });
    expect(fieldsOf(several.body)).toEqual(
      expect.arrayContaining(["AgentCode", "AgentCass", "ContactEmail"]),
    );
    const badClientName = await bySupport("POST", "/support/forwarders/EEFWDXXXX/clients", {
      Name: "x".repeat(101),
    });
    expect(badClientName.status).toBe(400);
    expect(fieldsOf(badClientName.body)).toEqual(["Name"]);
    for (const notAnObject of [[], [{ Name: "x" }], "x", null]) {
      const answer = await bySupport("POST", "/support/forwarders/EEFWDXXXX/clients", notAnObject);
      expect(answer.status, `${JSON.stringify(notAnObject)}: ${answer.text}`).toBe(400);
    }
    const badId = await bySupport("GET", "/support/forwarders/bad%20id");
    expect(badId.status).toBe(400);
    expect(fieldsOf(badId.body)).toEqual(["id"]);
    const badClientId = await bySupport(
      "POST",
      "/support/forwarders/EEFWDXXXX/clients/not-a-client-id/disable",
    );
    expect(badClientId.status).toBe(400);
    expect(fieldsOf(badClientId.body)).toEqual(["clientId"]);
    const badLimit = await bySupport("GET", "/support/forwarders?Limit=0");
    expect(badLimit.status).toBe(400);
    expect(fieldsOf(badLimit.body)).toEqual(["Limit"]);
    expect(await tenantItems()).toEqual(before);
  });

  it("lists forwarders in id order, a page at a time", async () => {
    for (const id of ["EELISTBBB", "EELISTAAA", "EELISTCCC"]) {
      expect((await bySupport("POST", "/support/forwarders", forwarder(id))).status).toBe(201);
    }
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? "?Limit=2" : `?Limit=2&Cursor=${cursor}`;
      const page = await bySupport("GET", `/support/forwarders${query}`);
      expect(page.status, page.text).toBe(200);
      const body = page.body as { Items: Json[]; NextCursor: string | null };
      expect(body.Items.length).toBeLessThanOrEqual(2);
      ids.push(...body.Items.map((item) => String(item.ForwarderId)));
      cursor = body.NextCursor;
      pages += 1;
    } while (cursor !== null && pages < 50);
    const listed = ids.filter((id) => id.startsWith("EELIST"));
    expect(listed).toEqual(["EELISTAAA", "EELISTBBB", "EELISTCCC"]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBeGreaterThan(1);
  });

  it("disables and enables a forwarder", async () => {
    expect((await bySupport("POST", "/support/forwarders", forwarder("EESWITCHX"))).status).toBe(201);
    const off = await bySupport("POST", "/support/forwarders/EESWITCHX/disable");
    expect(off.status, off.text).toBe(200);
    expect((off.body as Json).Enabled).toBe(false);
    expect(((await bySupport("GET", "/support/forwarders/EESWITCHX")).body as Json).Enabled).toBe(false);
    const on = await bySupport("POST", "/support/forwarders/EESWITCHX/enable");
    expect((on.body as Json).Enabled).toBe(true);
  });

  it("answers 404 for an unknown forwarder on every route, writing nothing", async () => {
    const before = await tenantItems();
    for (const [method, path, json] of [
      ["GET", "/support/forwarders/EENOBODYX", undefined],
      ["POST", "/support/forwarders/EENOBODYX/disable", undefined],
      ["POST", "/support/forwarders/EENOBODYX/enable", undefined],
      ["DELETE", "/support/forwarders/EENOBODYX", undefined],
      ["POST", "/support/forwarders/EENOBODYX/clients", {}],
      ["GET", "/support/forwarders/EENOBODYX/clients", undefined],
      ["DELETE", "/support/forwarders/EENOBODYX/clients/abc", undefined],
    ] as const) {
      const answer = await bySupport(method, path, json);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(404);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await tenantItems()).toEqual(before);
  });
});

describe("forwarder clients", () => {
  it("creates a client (secret shown once), lists, disables, enables and deletes it", async () => {
    expect((await bySupport("POST", "/support/forwarders", forwarder("EECLIENTS"))).status).toBe(201);
    const created = await bySupport("POST", "/support/forwarders/EECLIENTS/clients", {
      Name: "ops integration",
    });
    expect(created.status, created.text).toBe(201);
    const { ClientId, ClientSecret } = created.body as { ClientId: string; ClientSecret: string };
    expect(created.body).toEqual({
      ClientId,
      ClientSecret,
      Name: "ops integration",
      CreatedAt: expect.any(String),
    });
    expect(ClientId).toMatch(/^[a-z0-9]{26}$/);
    expect(ClientSecret.length).toBeGreaterThanOrEqual(48);
    // The secret is not stored in clear anywhere.
    expect((await tenantItems()).some((item) => item.includes(ClientSecret))).toBe(false);

    const unnamed = await bySupport("POST", "/support/forwarders/EECLIENTS/clients", {});
    expect(unnamed.status).toBe(201);
    expect((unnamed.body as Json).Name).toBeNull();

    const listed = await bySupport("GET", "/support/forwarders/EECLIENTS/clients");
    expect(listed.status).toBe(200);
    const items = (listed.body as { Items: Json[] }).Items;
    expect(items.map((item) => item.ClientId)).toEqual([ClientId, (unnamed.body as Json).ClientId]);
    expect(items[0]).toEqual({
      ClientId,
      Name: "ops integration",
      Enabled: true,
      CreatedAt: expect.any(String),
    });
    expect(listed.text).not.toContain(ClientSecret);
    expect(listed.text).not.toContain("scrypt");

    const off = await bySupport("POST", `/support/forwarders/EECLIENTS/clients/${ClientId}/disable`);
    expect(off.status, off.text).toBe(200);
    expect((off.body as Json).Enabled).toBe(false);
    const on = await bySupport("POST", `/support/forwarders/EECLIENTS/clients/${ClientId}/enable`);
    expect((on.body as Json).Enabled).toBe(true);

    const deleted = await bySupport("DELETE", `/support/forwarders/EECLIENTS/clients/${ClientId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((deleted.body as Json).ClientId).toBe(ClientId);
    const after = (await bySupport("GET", "/support/forwarders/EECLIENTS/clients")).body as {
      Items: Json[];
    };
    expect(after.Items.map((item) => item.ClientId)).toEqual([(unnamed.body as Json).ClientId]);
    expect((await bySupport("DELETE", `/support/forwarders/EECLIENTS/clients/${ClientId}`)).status).toBe(404);
  });

  it("another forwarder's client is 404 under this forwarder and stays as it is", async () => {
    for (const id of ["EEMINEXXX", "EETHEIRSX"]) {
      expect((await bySupport("POST", "/support/forwarders", forwarder(id))).status).toBe(201);
    }
    const theirs = await bySupport("POST", "/support/forwarders/EETHEIRSX/clients", {});
    const theirId = String((theirs.body as Json).ClientId);
    const before = await tenantItems();
    for (const [method, suffix] of [
      ["POST", "/disable"],
      ["POST", "/enable"],
      ["DELETE", ""],
    ] as const) {
      const answer = await bySupport(method, `/support/forwarders/EEMINEXXX/clients/${theirId}${suffix}`);
      expect(answer.status, answer.text).toBe(404);
    }
    expect(await tenantItems()).toEqual(before);
  });

  it("deleting a forwarder deletes its clients and people with it", async () => {
    expect((await bySupport("POST", "/support/forwarders", forwarder("EEGONEXXX"))).status).toBe(201);
    const a = String(
      ((await bySupport("POST", "/support/forwarders/EEGONEXXX/clients", {})).body as Json).ClientId,
    );
    const b = String(
      ((await bySupport("POST", "/support/forwarders/EEGONEXXX/clients", {})).body as Json).ClientId,
    );
    const person = await bySupport("POST", "/support/forwarders/EEGONEXXX/users", {
      Email: "anna@e2e-gone.example",
    });
    expect(person.status, person.text).toBe(201);
    const userId = String((person.body as Json).UserId);
    const deleted = await bySupport("DELETE", "/support/forwarders/EEGONEXXX");
    expect(deleted.status, deleted.text).toBe(200);
    expect(((deleted.body as Json).DeletedClients as string[]).sort()).toEqual([a, b].sort());
    expect((deleted.body as Json).DeletedUsers).toEqual([userId]);
    expect((await bySupport("GET", "/support/forwarders/EEGONEXXX")).status).toBe(404);
    const left = await tenantItems();
    expect(left.some((item) => item.includes("EEGONEXXX") || item.includes(a) || item.includes(b))).toBe(
      false,
    );
  });
});

describe("carriers", () => {
  it("a carrier's clients need its settings first (404 naming it); then onboarding works end to end", async () => {
    const before = await tenantItems();
    const early = await bySupport("POST", "/support/carriers/176/clients", { Name: "gateway" });
    expect(early.status, early.text).toBe(404);
    expect((early.body as Problem).detail).toContain("176");
    expect((await bySupport("POST", "/support/carriers/176/disable")).status).toBe(404);
    expect((await bySupport("GET", "/support/carriers/176/clients")).status).toBe(404);
    expect(await tenantItems()).toEqual(before);

    const put = await bySupport("PUT", "/support/carriers/176", {
      Name: "Example Air",
      QualityProgram: true,
      Xtd: false,
    });
    expect(put.status, put.text).toBe(200);
    expect((await bySupport("GET", "/support/carriers/176/clients")).body).toEqual({ Items: [] });

    const created = await bySupport("POST", "/support/carriers/176/clients", { Name: "gateway" });
    expect(created.status, created.text).toBe(201);
    const clientId = String((created.body as Json).ClientId);
    expect(String((created.body as Json).ClientSecret).length).toBeGreaterThanOrEqual(48);

    const carriers = await bySupport("GET", "/support/carriers");
    expect(carriers.status, carriers.text).toBe(200);
    const listed = (carriers.body as { Items: Json[]; NextCursor: string | null }).Items;
    expect(listed.find((item) => item.AirlinePrefix === "176")).toEqual({
      AirlinePrefix: "176",
      Name: "Example Air",
      QualityProgram: true,
      Xtd: false,
      Enabled: true,
    });

    const off = await bySupport("POST", "/support/carriers/176/disable");
    expect(off.status, off.text).toBe(200);
    expect((off.body as Json).Enabled).toBe(false);
    expect((await bySupport("POST", "/support/carriers/176/enable")).body).toMatchObject({ Enabled: true });

    const clientOff = await bySupport("POST", `/support/carriers/176/clients/${clientId}/disable`);
    expect(clientOff.status, clientOff.text).toBe(200);
    expect((clientOff.body as Json).Enabled).toBe(false);
    // A carrier's client is not a forwarder's.
    expect((await bySupport("POST", `/support/carriers/020/clients/${clientId}/enable`)).status).toBe(404);

    const deleted = await bySupport("DELETE", "/support/carriers/176");
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ AirlinePrefix: "176", DeletedClients: [clientId] });
    expect((await bySupport("GET", "/support/carriers/176/clients")).body).toEqual({ Items: [] });
    // Its settings stay: deleting the tenant revokes access, not participation.
    expect((await bySupport("GET", "/support/carriers/176")).status).toBe(200);
  });

  it("a carrier's client can be deleted on its own", async () => {
    expect(
      (
        await bySupport("PUT", "/support/carriers/057", {
          Name: "Other Air",
          QualityProgram: false,
          Xtd: false,
        })
      ).status,
    ).toBe(200);
    const created = await bySupport("POST", "/support/carriers/057/clients", {});
    const clientId = String((created.body as Json).ClientId);
    const deleted = await bySupport("DELETE", `/support/carriers/057/clients/${clientId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await bySupport("GET", "/support/carriers/057/clients")).body).toEqual({ Items: [] });
  });
});

describe("roles", () => {
  it("forwarder and carrier tokens get 403 on every /support onboarding route, and nothing is written", async () => {
    expect((await bySupport("POST", "/support/forwarders", forwarder("EEROLESXX"))).status).toBe(201);
    const before = await tenantItems();
    const routes: Array<[string, string, unknown]> = [
      ["POST", "/support/forwarders", forwarder("EEINTRUDR")],
      ["GET", "/support/forwarders", undefined],
      ["GET", "/support/forwarders/EEROLESXX", undefined],
      ["POST", "/support/forwarders/EEROLESXX/disable", undefined],
      ["DELETE", "/support/forwarders/EEROLESXX", undefined],
      ["POST", "/support/forwarders/EEROLESXX/clients", {}],
      ["GET", "/support/forwarders/EEROLESXX/clients", undefined],
      ["GET", "/support/carriers", undefined],
      ["POST", "/support/carriers/020/clients", {}],
      ["DELETE", "/support/carriers/020", undefined],
    ];
    for (const token of [tokens.forwarder("EEROLESXX"), tokens.carrier("020")]) {
      for (const [method, path, json] of routes) {
        const answer = await as(token, method, path, json);
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
      }
    }
    expect(await tenantItems()).toEqual(before);
    // The same with client-credentials tokens of the tenants' own machine clients.
    const forwarderClient = (await bySupport("POST", "/support/forwarders/EEROLESXX/clients", {}))
      .body as Json;
    expect(
      (
        await bySupport("PUT", "/support/carriers/020", {
          Name: "Example Cargo",
          QualityProgram: true,
          Xtd: true,
        })
      ).status,
    ).toBe(200);
    const carrierClient = (await bySupport("POST", "/support/carriers/020/clients", {})).body as Json;
    const afterClients = await tenantItems();
    for (const client of [forwarderClient, carrierClient]) {
      const token = await clientToken(stack, String(client.ClientId), String(client.ClientSecret));
      for (const [method, path, json] of routes) {
        const answer = await as(token, method, path, json);
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(403);
      }
    }
    expect(await tenantItems()).toEqual(afterClients);
    const anonymous = await call(stack.url, "GET", "/support/forwarders");
    expect(anonymous.status).toBe(401);
  });

  it("the runner's bootstrap support client onboards with a client-credentials token", async () => {
    const { clientId, clientSecret } = stack.supportClient;
    const token = await clientToken(stack, clientId, clientSecret);
    const created = await as(token, "POST", "/support/forwarders", forwarder("EEBYCLIEN"));
    expect(created.status, created.text).toBe(201);
  });
});
