/**
 * Tenants and their machine clients in the Tenants table (TenantRepository port).
 *
 * Layout (pk / sk, all strings):
 *   TENANT#<kind>#<id>   / PROFILE              the tenant
 *   TENANTS#<kind>       / <id>                 its listing copy (a full copy: listing is one Query)
 *   CLIENT#<clientId>    / CLIENT               a client, looked up by id (token endpoint, trigger)
 *   TENANT#<kind>#<id>   / CLIENT#<clientId>    its copy under the tenant (listing, tenant deletion)
 * A tenant and its listing copy, and a client and its tenant copy, are always written together in one
 * transaction. The secret hash (local registry only) is kept on the lookup item alone.
 */
import {
  BatchWriteCommand,
  GetCommand,
  type NativeAttributeValue,
  QueryCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import { TenantClientNotFoundError, TenantExistsError, TenantNotFoundError } from "../core/errors.ts";
import type { TenantRepository } from "../core/ports/tenants.ts";
import {
  type Tenant,
  type TenantClient,
  type TenantKind,
  type TenantRef,
  tenantIdOf,
  tenantRefOf,
} from "../core/tenants/tenants.ts";
import { dynamo } from "./aws-clients.ts";
import { config } from "./config.ts";
import { isConditionFailure } from "./dynamo-errors.ts";

type Item = Record<string, NativeAttributeValue>;

const tenantPk = (ref: TenantRef) => `TENANT#${ref.kind}#${tenantIdOf(ref)}`;
const PROFILE_SK = "PROFILE";
const listPk = (kind: TenantKind) => `TENANTS#${kind}`;
const clientKey = (clientId: string) => ({ pk: `CLIENT#${clientId}`, sk: "CLIENT" });
const CLIENT_SK_PREFIX = "CLIENT#";
/** BatchWriteItem's limit. */
const BATCH_SIZE = 25;

function tenantAttributes(tenant: Tenant): Item {
  const base = {
    kind: tenant.kind,
    tenantId: tenantIdOf(tenantRefOf(tenant)),
    enabled: tenant.enabled,
    createdAt: tenant.createdAt,
    updatedAt: tenant.updatedAt,
  };
  return tenant.kind === "forwarder"
    ? {
        ...base,
        ...(tenant.name ? { name: tenant.name } : {}),
        agentCode: tenant.agentCode,
        agentCass: tenant.agentCass,
        agentStation: tenant.agentStation,
        contactEmail: tenant.contactEmail,
      }
    : base;
}

function tenantOf(item: Item): Tenant {
  const base = {
    enabled: item.enabled as boolean,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
  const id = item.tenantId as string;
  switch (item.kind as TenantKind) {
    case "forwarder":
      return {
        ...base,
        kind: "forwarder",
        forwarderId: id,
        ...(typeof item.name === "string" ? { name: item.name } : {}),
        agentCode: item.agentCode as string,
        agentCass: item.agentCass as string,
        agentStation: (item.agentStation as string | null | undefined) ?? null,
        contactEmail: item.contactEmail as string,
      };
    case "carrier":
      return { ...base, kind: "carrier", carrierPrefix: id };
    case "support":
      return { ...base, kind: "support", subject: id };
  }
}

function refOf(kind: TenantKind, id: string): TenantRef {
  return kind === "forwarder"
    ? { kind, forwarderId: id }
    : kind === "carrier"
      ? { kind, carrierPrefix: id }
      : { kind, subject: id };
}

function clientAttributes(client: TenantClient): Item {
  return {
    clientId: client.clientId,
    tenantKind: client.tenant.kind,
    tenantId: tenantIdOf(client.tenant),
    name: client.name,
    enabled: client.enabled,
    createdAt: client.createdAt,
  };
}

function clientOf(item: Item): TenantClient {
  return {
    clientId: item.clientId as string,
    tenant: refOf(item.tenantKind as TenantKind, item.tenantId as string),
    name: (item.name as string | null | undefined) ?? null,
    enabled: item.enabled as boolean,
    createdAt: item.createdAt as string,
    secretHash: (item.secretHash as string | null | undefined) ?? null,
  };
}

/** The listing cursor: the last listed tenant id, base64url (opaque to callers). */
const encodeCursor = (id: string) => Buffer.from(id, "utf8").toString("base64url");
/** The id after which a page starts; null (the first page) for a cursor that decodes to nothing. */
const decodeCursor = (cursor: string | null): string | null =>
  cursor === null ? null : Buffer.from(cursor, "base64url").toString("utf8") || null;

export function dynamoTenantRepository(tableName = config.table("tenants")): TenantRepository {
  const db = () => dynamo();

  async function queryAll(pk: string, skPrefix?: string): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const result = await db().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: skPrefix ? "pk = :pk AND begins_with(sk, :sk)" : "pk = :pk",
          ExpressionAttributeValues: skPrefix ? { ":pk": pk, ":sk": skPrefix } : { ":pk": pk },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...((result.Items as Item[] | undefined) ?? []));
      start = result.LastEvaluatedKey;
    } while (start);
    return items;
  }

  async function batchDelete(keys: Array<{ pk: string; sk: string }>): Promise<void> {
    for (let i = 0; i < keys.length; i += BATCH_SIZE) {
      let pending: Item[] = keys.slice(i, i + BATCH_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));
        const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (result.UnprocessedItems?.[tableName] as Item[] | undefined) ?? [];
      }
    }
  }

  /** The tenant and its listing copy, both conditional on the tenant's existence (or absence). */
  async function writeTenant(tenant: Tenant, condition: "attribute_exists(pk)" | "attribute_not_exists(pk)") {
    const ref = tenantRefOf(tenant);
    const attributes = tenantAttributes(tenant);
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { pk: tenantPk(ref), sk: PROFILE_SK, ...attributes },
              ConditionExpression: condition,
            },
          },
          {
            Put: { TableName: tableName, Item: { pk: listPk(ref.kind), sk: tenantIdOf(ref), ...attributes } },
          },
        ],
      }),
    );
  }

  /** The client's lookup item and its copy under the tenant, in one transaction. */
  async function writeClient(client: TenantClient, create: boolean): Promise<void> {
    const attributes = clientAttributes(client);
    const lookup = { ...clientKey(client.clientId), ...attributes, secretHash: client.secretHash };
    const listed = {
      pk: tenantPk(client.tenant),
      sk: `${CLIENT_SK_PREFIX}${client.clientId}`,
      ...attributes,
    };
    const condition = create ? "attribute_not_exists(pk)" : "attribute_exists(pk)";
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName, Item: lookup, ConditionExpression: condition } },
          { Put: { TableName: tableName, Item: listed } },
          // A client only ever exists under an existing tenant.
          {
            ConditionCheck: {
              TableName: tableName,
              Key: { pk: tenantPk(client.tenant), sk: PROFILE_SK },
              ConditionExpression: "attribute_exists(pk)",
            },
          },
        ],
      }),
    );
  }

  async function getClient(clientId: string): Promise<TenantClient | null> {
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName, Key: clientKey(clientId), ConsistentRead: true }),
    );
    return Item ? clientOf(Item as Item) : null;
  }

  return {
    async getTenant(ref) {
      const { Item } = await db().send(
        new GetCommand({
          TableName: tableName,
          Key: { pk: tenantPk(ref), sk: PROFILE_SK },
          ConsistentRead: true,
        }),
      );
      return Item ? tenantOf(Item as Item) : null;
    },

    async createTenant(tenant) {
      try {
        await writeTenant(tenant, "attribute_not_exists(pk)");
      } catch (error) {
        if (isConditionFailure(error))
          throw new TenantExistsError(tenant.kind, tenantIdOf(tenantRefOf(tenant)));
        throw error;
      }
    },

    async updateTenant(tenant) {
      try {
        await writeTenant(tenant, "attribute_exists(pk)");
      } catch (error) {
        if (isConditionFailure(error))
          throw new TenantNotFoundError(tenant.kind, tenantIdOf(tenantRefOf(tenant)));
        throw error;
      }
    },

    async listTenants(kind, page) {
      const after = decodeCursor(page.cursor);
      // One item more than asked: whether another page follows is then known without an empty last page.
      const result = await db().send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": listPk(kind) },
          Limit: page.limit + 1,
          ...(after === null ? {} : { ExclusiveStartKey: { pk: listPk(kind), sk: after } }),
        }),
      );
      const found = (result.Items as Item[] | undefined) ?? [];
      const items = found.slice(0, page.limit);
      const last = items.at(-1)?.sk as string | undefined;
      // More follow when the extra item came back, or DynamoDB stopped early (its 1 MB page size).
      const more = found.length > page.limit || result.LastEvaluatedKey !== undefined;
      return { items: items.map(tenantOf), next: more && last !== undefined ? encodeCursor(last) : null };
    },

    async deleteTenant(ref) {
      const pk = tenantPk(ref);
      const listed = await queryAll(pk, CLIENT_SK_PREFIX);
      const clientIds = listed.map((item) => item.clientId as string);
      // Clients first, the profile last: a deletion cut short is finished by running it again.
      await batchDelete([
        ...clientIds.map(clientKey),
        ...listed.map((item) => ({ pk, sk: item.sk as string })),
      ]);
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName, Key: { pk, sk: PROFILE_SK } } },
            { Delete: { TableName: tableName, Key: { pk: listPk(ref.kind), sk: tenantIdOf(ref) } } },
          ],
        }),
      );
      return clientIds;
    },

    getClient,

    async createClient(client) {
      try {
        await writeClient(client, true);
      } catch (error) {
        if (isConditionFailure(error)) {
          const existing = await getClient(client.clientId);
          if (existing) throw new Error(`client id ${client.clientId} is already taken`);
          throw new TenantNotFoundError(client.tenant.kind, tenantIdOf(client.tenant));
        }
        throw error;
      }
    },

    async updateClient(client) {
      try {
        await writeClient(client, false);
      } catch (error) {
        if (isConditionFailure(error)) throw new TenantClientNotFoundError(client.clientId);
        throw error;
      }
    },

    async listClients(ref) {
      const items = await queryAll(tenantPk(ref), CLIENT_SK_PREFIX);
      return items.map(clientOf);
    },

    async deleteClient(clientId) {
      const client = await getClient(clientId);
      if (!client) return;
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName, Key: clientKey(clientId) } },
            {
              Delete: {
                TableName: tableName,
                Key: { pk: tenantPk(client.tenant), sk: `${CLIENT_SK_PREFIX}${clientId}` },
              },
            },
          ],
        }),
      );
    },
  };
}
