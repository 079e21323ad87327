/**
 * TenantRepository in memory, with the DynamoDB adapter's semantics: values copied in and out, tenants
 * listed in id order with an opaque cursor (the last id listed), createTenant refusing an existing
 * tenant, a client only under an existing tenant, deleteTenant removing every client of the tenant.
 * `writes` counts the calls that change something (tests of "nothing written on refused input").
 */
import {
  TenantClientNotFoundError,
  TenantExistsError,
  TenantNotFoundError,
} from "../../../functions/core/errors.ts";
import type { TenantRepository } from "../../../functions/core/ports/tenants.ts";
import {
  type Tenant,
  type TenantClient,
  type TenantRef,
  tenantIdOf,
  tenantRefOf,
} from "../../../functions/core/tenants/tenants.ts";

export interface MemoryTenantRepository extends TenantRepository {
  /** Calls that changed (or tried to change) the store. */
  readonly writes: () => number;
  readonly allClients: () => TenantClient[];
}

const copy = <T>(value: T): T => structuredClone(value);
const refKey = (ref: TenantRef) => `${ref.kind}#${tenantIdOf(ref)}`;
const encodeCursor = (id: string) => Buffer.from(id, "utf8").toString("base64url");
const decodeCursor = (cursor: string) => Buffer.from(cursor, "base64url").toString("utf8");

export function memoryTenantRepository(): MemoryTenantRepository {
  const tenants = new Map<string, Tenant>();
  const clients = new Map<string, TenantClient>();
  let writes = 0;

  return {
    writes: () => writes,
    allClients: () => [...clients.values()].map(copy),

    async getTenant(ref) {
      const found = tenants.get(refKey(ref));
      return found ? copy(found) : null;
    },
    async createTenant(tenant) {
      writes++;
      const ref = tenantRefOf(tenant);
      if (tenants.has(refKey(ref))) throw new TenantExistsError(tenant.kind, tenantIdOf(ref));
      tenants.set(refKey(ref), copy(tenant));
    },
    async updateTenant(tenant) {
      writes++;
      const ref = tenantRefOf(tenant);
      if (!tenants.has(refKey(ref))) throw new TenantNotFoundError(tenant.kind, tenantIdOf(ref));
      tenants.set(refKey(ref), copy(tenant));
    },
    async listTenants(kind, page) {
      const ids = [...tenants.values()]
        .filter((tenant) => tenant.kind === kind)
        .map((tenant) => ({ id: tenantIdOf(tenantRefOf(tenant)), tenant }))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const after = page.cursor === null ? null : decodeCursor(page.cursor);
      const rest = after === null ? ids : ids.filter((entry) => entry.id > after);
      const items = rest.slice(0, page.limit);
      const last = items.at(-1);
      return {
        items: items.map((entry) => copy(entry.tenant)),
        next: rest.length > page.limit && last ? encodeCursor(last.id) : null,
      };
    },
    async deleteTenant(ref) {
      writes++;
      const removed = [...clients.values()].filter((client) => refKey(client.tenant) === refKey(ref));
      for (const client of removed) clients.delete(client.clientId);
      tenants.delete(refKey(ref));
      return removed.map((client) => client.clientId);
    },

    async getClient(clientId) {
      const found = clients.get(clientId);
      return found ? copy(found) : null;
    },
    async createClient(client) {
      writes++;
      if (!tenants.has(refKey(client.tenant))) {
        throw new TenantNotFoundError(client.tenant.kind, tenantIdOf(client.tenant));
      }
      if (clients.has(client.clientId)) throw new Error(`client id ${client.clientId} is already taken`);
      clients.set(client.clientId, copy(client));
    },
    async updateClient(client) {
      writes++;
      if (!clients.has(client.clientId) || !tenants.has(refKey(client.tenant))) {
        throw new TenantClientNotFoundError(client.clientId);
      }
      clients.set(client.clientId, copy(client));
    },
    async listClients(ref) {
      return [...clients.values()]
        .filter((client) => refKey(client.tenant) === refKey(ref))
        .sort((a, b) => (a.clientId < b.clientId ? -1 : 1))
        .map(copy);
    },
    async deleteClient(clientId) {
      writes++;
      clients.delete(clientId);
    },
  };
}
