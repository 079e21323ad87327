/**
 * The DynamoDB tenant repository against DynamoDB Local: the shared contract (same as the in-memory
 * one), plus the item layout (profile, listing copy, client lookup and its copy under the tenant; the
 * secret hash only on the lookup item).
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantRepository } from "../../../functions/core/ports/tenants.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";
import { type LocalTables, startLocalTables } from "../subscriptions/dynamo-local.ts";
import { tenantRepositoryContract } from "./contract.ts";

let local: LocalTables;
let tenants: TenantRepository;

beforeAll(async () => {
  local = await startLocalTables();
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoTenantRepository } = await import("../../../functions/adapters/tenant-repository.ts");
  tenants = dynamoTenantRepository();
});

afterAll(async () => {
  await local?.stop();
});

describe("DynamoDB", () => tenantRepositoryContract(() => tenants));
describe("memory", () => tenantRepositoryContract(memoryTenantRepository));

describe("DynamoDB layout", () => {
  it("profile + listing copy; client lookup (with the hash) + its copy under the tenant (without)", async () => {
    const table = local.tables.TENANTS_TABLE as string;
    const get = async (pk: string, sk: string) =>
      (await local.doc.send(new GetCommand({ TableName: table, Key: { pk, sk } }))).Item;
    await tenants.createTenant({
      kind: "carrier",
      carrierPrefix: "176",
      enabled: true,
      createdAt: "t",
      updatedAt: "t",
    });
    await tenants.createClient({
      clientId: "layoutclient",
      tenant: { kind: "carrier", carrierPrefix: "176" },
      name: "gateway",
      enabled: true,
      createdAt: "t",
      secretHash: "scrypt$salt$hash",
    });
    expect(await get("TENANT#carrier#176", "PROFILE")).toMatchObject({
      kind: "carrier",
      tenantId: "176",
      enabled: true,
    });
    expect(await get("TENANTS#carrier", "176")).toMatchObject({ kind: "carrier", tenantId: "176" });
    expect(await get("CLIENT#layoutclient", "CLIENT")).toMatchObject({
      tenantKind: "carrier",
      tenantId: "176",
      secretHash: "scrypt$salt$hash",
    });
    const listed = await get("TENANT#carrier#176", "CLIENT#layoutclient");
    expect(listed).toMatchObject({ clientId: "layoutclient", name: "gateway" });
    expect(listed).not.toHaveProperty("secretHash");
  });
});
