/**
 * Issue 12 point 1: support onboards forwarders and carriers and their machine clients. The use cases
 * over the memory tenant repository and a recording client registry.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { CarrierSettings } from "../../../functions/core/carriers.ts";
import {
  CarrierNotFoundError,
  TenantClientNotFoundError,
  TenantExistsError,
  TenantNotFoundError,
} from "../../../functions/core/errors.ts";
import type { ClientRegistry, ForwarderUserDirectory } from "../../../functions/core/ports/tenants.ts";
import { clientRefusal, TENANT_SCOPES } from "../../../functions/core/tenants/tenants.ts";
import { createCarrierClient } from "../../../functions/core/use-cases/create-carrier-client.ts";
import {
  createForwarder,
  type ForwarderProfile,
} from "../../../functions/core/use-cases/create-forwarder.ts";
import { createForwarderClient } from "../../../functions/core/use-cases/create-forwarder-client.ts";
import { deleteCarrier } from "../../../functions/core/use-cases/delete-carrier.ts";
import { deleteForwarder } from "../../../functions/core/use-cases/delete-forwarder.ts";
import { deleteForwarderClient } from "../../../functions/core/use-cases/delete-forwarder-client.ts";
import { disableCarrier } from "../../../functions/core/use-cases/disable-carrier.ts";
import { disableForwarder } from "../../../functions/core/use-cases/disable-forwarder.ts";
import { disableForwarderClient } from "../../../functions/core/use-cases/disable-forwarder-client.ts";
import { enableForwarder } from "../../../functions/core/use-cases/enable-forwarder.ts";
import { enableForwarderClient } from "../../../functions/core/use-cases/enable-forwarder-client.ts";
import { getForwarder } from "../../../functions/core/use-cases/get-forwarder.ts";
import { listCarrierClients } from "../../../functions/core/use-cases/list-carrier-clients.ts";
import { listCarriers } from "../../../functions/core/use-cases/list-carriers.ts";
import { listForwarderClients } from "../../../functions/core/use-cases/list-forwarder-clients.ts";
import { listForwarders } from "../../../functions/core/use-cases/list-forwarders.ts";
import { putCarrier } from "../../../functions/core/use-cases/put-carrier.ts";
import { memoryForwarderUserRepository } from "../../support/memory/forwarder-user-repository.ts";
import {
  type MemoryTenantRepository,
  memoryTenantRepository,
} from "../../support/memory/tenant-repository.ts";

const NOW = "2026-05-04T10:00:00.000Z";
const LATER = "2026-05-04T11:00:00.000Z";

const profile: ForwarderProfile = {
  forwarderId: "DEMOFWD",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "FRA",
  contactEmail: "ops@forwarder.example",
};

/** A registry that hands out numbered ids and records every call. */
function recordingRegistry() {
  const registered: Array<{ clientId: string; scope: string; name: string | null }> = [];
  const deregistered: string[] = [];
  let next = 0;
  const registry: ClientRegistry = {
    async register({ scope, name }) {
      next += 1;
      const clientId = `client${String(next).padStart(3, "0")}`;
      registered.push({ clientId, scope, name });
      return { clientId, clientSecret: `secret-of-${clientId}`, secretHash: `hash-of-${clientId}` };
    },
    async deregister(clientId) {
      deregistered.push(clientId);
    },
  };
  return { registry, registered, deregistered };
}

function carrierDirectory(...prefixes: string[]) {
  const settings = new Map<string, CarrierSettings>(
    prefixes.map((prefix) => [
      prefix,
      { airlinePrefix: prefix, name: `Carrier ${prefix}`, qualityProgram: true, xtd: false, updatedAt: NOW },
    ]),
  );
  return {
    async get(prefix: string) {
      return settings.get(prefix) ?? null;
    },
    async put(carrier: CarrierSettings) {
      settings.set(carrier.airlinePrefix, carrier);
    },
  };
}

let tenants: MemoryTenantRepository;
let recorded: ReturnType<typeof recordingRegistry>;
let removedSignIns: string[];
let deps: {
  tenants: MemoryTenantRepository;
  clients: ClientRegistry;
  carriers: ReturnType<typeof carrierDirectory>;
  users: ReturnType<typeof memoryForwarderUserRepository>;
  directory: ForwarderUserDirectory;
};

beforeEach(() => {
  tenants = memoryTenantRepository();
  recorded = recordingRegistry();
  removedSignIns = [];
  deps = {
    tenants,
    clients: recorded.registry,
    carriers: carrierDirectory("020"),
    users: memoryForwarderUserRepository(),
    directory: {
      createUser: async () => ({ userId: "unused" }),
      deleteUser: async (userId) => {
        removedSignIns.push(userId);
      },
    },
  };
});

describe("forwarders", () => {
  it("onboards a forwarder enabled, with exactly its profile", async () => {
    const created = await createForwarder(deps, { profile, now: NOW });
    expect(created).toEqual({ kind: "forwarder", ...profile, enabled: true, createdAt: NOW, updatedAt: NOW });
    expect(await getForwarder(deps, "DEMOFWD")).toEqual(created);
  });

  it("refuses a second onboarding of the same id (409) and keeps the first", async () => {
    await createForwarder(deps, { profile, now: NOW });
    await expect(
      createForwarder(deps, { profile: { ...profile, agentCode: "7654321" }, now: LATER }),
    ).rejects.toBeInstanceOf(TenantExistsError);
    expect((await getForwarder(deps, "DEMOFWD")).agentCode).toBe("1234567");
  });

  it("an unknown forwarder is 404 for every route", async () => {
    await expect(getForwarder(deps, "NOPE")).rejects.toBeInstanceOf(TenantNotFoundError);
    await expect(disableForwarder(deps, { forwarderId: "NOPE", now: NOW })).rejects.toBeInstanceOf(
      TenantNotFoundError,
    );
    await expect(deleteForwarder(deps, "NOPE")).rejects.toBeInstanceOf(TenantNotFoundError);
    await expect(
      createForwarderClient(deps, { forwarderId: "NOPE", name: null, now: NOW }),
    ).rejects.toBeInstanceOf(TenantNotFoundError);
    await expect(listForwarderClients(deps, "NOPE")).rejects.toBeInstanceOf(TenantNotFoundError);
    expect(recorded.registered).toEqual([]);
    expect(tenants.writes()).toBe(0);
  });

  it("disable and enable switch the tenant and stamp UpdatedAt; repeating is a no-op", async () => {
    await createForwarder(deps, { profile, now: NOW });
    const disabled = await disableForwarder(deps, { forwarderId: "DEMOFWD", now: LATER });
    expect(disabled).toMatchObject({ enabled: false, updatedAt: LATER, createdAt: NOW });
    const writes = tenants.writes();
    await disableForwarder(deps, { forwarderId: "DEMOFWD", now: "2026-05-05T00:00:00.000Z" });
    expect(tenants.writes()).toBe(writes);
    expect((await enableForwarder(deps, { forwarderId: "DEMOFWD", now: LATER })).enabled).toBe(true);
  });

  it("lists in id order, a page at a time, with a cursor to the next page", async () => {
    for (const id of ["C-FWD", "A-FWD", "B-FWD"]) {
      await createForwarder(deps, { profile: { ...profile, forwarderId: id }, now: NOW });
    }
    const first = await listForwarders(deps, { limit: 2, cursor: null });
    expect(first.items.map((f) => f.forwarderId)).toEqual(["A-FWD", "B-FWD"]);
    expect(first.next).not.toBeNull();
    const second = await listForwarders(deps, { limit: 2, cursor: first.next });
    expect(second.items.map((f) => f.forwarderId)).toEqual(["C-FWD"]);
    expect(second.next).toBeNull();
  });
});

describe("forwarder clients", () => {
  beforeEach(async () => {
    await createForwarder(deps, { profile, now: NOW });
  });

  it("registers a client with the forwarder scope and returns the secret once; the record keeps only the hash", async () => {
    const created = await createForwarderClient(deps, { forwarderId: "DEMOFWD", name: "ops", now: NOW });
    expect(created).toEqual({
      clientId: "client001",
      clientSecret: "secret-of-client001",
      tenant: { kind: "forwarder", forwarderId: "DEMOFWD" },
      name: "ops",
      enabled: true,
      createdAt: NOW,
    });
    expect(recorded.registered).toEqual([
      { clientId: "client001", scope: TENANT_SCOPES.forwarder, name: "ops" },
    ]);
    expect(await tenants.getClient("client001")).toMatchObject({ secretHash: "hash-of-client001" });
    const listed = await listForwarderClients(deps, "DEMOFWD");
    expect(listed).toEqual([
      {
        clientId: "client001",
        tenant: { kind: "forwarder", forwarderId: "DEMOFWD" },
        name: "ops",
        enabled: true,
        createdAt: NOW,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain("secret");
  });

  it("a disabled forwarder may get a client, which gets no token until the forwarder is enabled", async () => {
    await disableForwarder(deps, { forwarderId: "DEMOFWD", now: NOW });
    const created = await createForwarderClient(deps, { forwarderId: "DEMOFWD", name: null, now: NOW });
    const client = await tenants.getClient(created.clientId);
    const tenant = await tenants.getTenant({ kind: "forwarder", forwarderId: "DEMOFWD" });
    expect(clientRefusal(client, tenant)).toBe("tenant disabled");
  });

  it("deregisters the client again when its record cannot be stored", async () => {
    const failing = {
      ...deps,
      tenants: {
        ...tenants,
        createClient: async () => {
          throw new Error("table unavailable");
        },
      },
    };
    await expect(
      createForwarderClient(failing, { forwarderId: "DEMOFWD", name: null, now: NOW }),
    ).rejects.toThrow("table unavailable");
    expect(recorded.deregistered).toEqual(["client001"]);
  });

  it("disables and enables one client; another forwarder's client is 404 and unchanged", async () => {
    await createForwarder(deps, { profile: { ...profile, forwarderId: "OTHER" }, now: NOW });
    const mine = await createForwarderClient(deps, { forwarderId: "DEMOFWD", name: null, now: NOW });
    const theirs = await createForwarderClient(deps, { forwarderId: "OTHER", name: null, now: NOW });
    const disabled = await disableForwarderClient(deps, { forwarderId: "DEMOFWD", clientId: mine.clientId });
    expect(disabled.enabled).toBe(false);
    expect(clientRefusal(await tenants.getClient(mine.clientId), await getForwarder(deps, "DEMOFWD"))).toBe(
      "client disabled",
    );
    expect(
      (await enableForwarderClient(deps, { forwarderId: "DEMOFWD", clientId: mine.clientId })).enabled,
    ).toBe(true);
    await expect(
      disableForwarderClient(deps, { forwarderId: "DEMOFWD", clientId: theirs.clientId }),
    ).rejects.toBeInstanceOf(TenantClientNotFoundError);
    await expect(
      deleteForwarderClient(deps, { forwarderId: "DEMOFWD", clientId: theirs.clientId }),
    ).rejects.toBeInstanceOf(TenantClientNotFoundError);
    await expect(
      deleteForwarderClient(deps, { forwarderId: "DEMOFWD", clientId: "unknown" }),
    ).rejects.toBeInstanceOf(TenantClientNotFoundError);
    expect((await tenants.getClient(theirs.clientId))?.enabled).toBe(true);
    expect(recorded.deregistered).toEqual([]);
  });

  it("deleting a client deregisters it and removes its record (rotation)", async () => {
    const old = await createForwarderClient(deps, { forwarderId: "DEMOFWD", name: "v1", now: NOW });
    const rotated = await createForwarderClient(deps, { forwarderId: "DEMOFWD", name: "v2", now: LATER });
    const deleted = await deleteForwarderClient(deps, { forwarderId: "DEMOFWD", clientId: old.clientId });
    expect(deleted.clientId).toBe(old.clientId);
    expect(recorded.deregistered).toEqual([old.clientId]);
    expect(await tenants.getClient(old.clientId)).toBeNull();
    expect((await listForwarderClients(deps, "DEMOFWD")).map((c) => c.clientId)).toEqual([rotated.clientId]);
  });

  it("deleting the forwarder removes every client and person of it; its tokens are refused", async () => {
    const a = await createForwarderClient(deps, { forwarderId: "DEMOFWD", name: null, now: NOW });
    const b = await createForwarderClient(deps, { forwarderId: "DEMOFWD", name: null, now: NOW });
    const person = {
      userId: "user-1",
      email: "anna@demofwd.example",
      forwarderId: "DEMOFWD",
      createdAt: NOW,
    };
    const stranger = { userId: "user-2", email: "ben@other.example", forwarderId: "OTHER", createdAt: NOW };
    await deps.users.createUser(person);
    await deps.users.createUser(stranger);
    const result = await deleteForwarder(deps, "DEMOFWD");
    expect(result.deletedUsers).toEqual(["user-1"]);
    expect(removedSignIns).toEqual(["user-1"]);
    expect(await deps.users.getUser("user-1")).toBeNull();
    expect(await deps.users.getUser("user-2")).toEqual(stranger);
    expect(result.forwarder.forwarderId).toBe("DEMOFWD");
    expect(result.deletedClients.sort()).toEqual([a.clientId, b.clientId].sort());
    expect(recorded.deregistered.sort()).toEqual([a.clientId, b.clientId].sort());
    expect(tenants.allClients()).toEqual([]);
    expect(clientRefusal(await tenants.getClient(a.clientId), null)).toBe("unknown client");
    await expect(getForwarder(deps, "DEMOFWD")).rejects.toBeInstanceOf(TenantNotFoundError);
  });
});

describe("carriers", () => {
  it("a carrier without settings is 404 naming it, and nothing is registered or written", async () => {
    for (const attempt of [
      () => createCarrierClient(deps, { prefix: "999", name: null, now: NOW }),
      () => listCarrierClients(deps, "999"),
      () => disableCarrier(deps, { prefix: "999", now: NOW }),
      () => deleteCarrier(deps, "999"),
    ]) {
      await expect(attempt()).rejects.toThrow(new CarrierNotFoundError("999").message);
    }
    expect(recorded.registered).toEqual([]);
    expect(tenants.writes()).toBe(0);
  });

  it("the first client creates the carrier's profile, enabled; its client has the carrier scope", async () => {
    expect(await listCarrierClients(deps, "020")).toEqual([]);
    const created = await createCarrierClient(deps, { prefix: "020", name: "gateway", now: NOW });
    expect(created.tenant).toEqual({ kind: "carrier", carrierPrefix: "020" });
    expect(recorded.registered[0]?.scope).toBe(TENANT_SCOPES.carrier);
    expect(await tenants.getTenant({ kind: "carrier", carrierPrefix: "020" })).toEqual({
      kind: "carrier",
      carrierPrefix: "020",
      enabled: true,
      createdAt: NOW,
      updatedAt: NOW,
    });
    await createCarrierClient(deps, { prefix: "020", name: "second", now: LATER });
    expect((await listCarrierClients(deps, "020")).map((c) => c.name)).toEqual(["gateway", "second"]);
  });

  it("PUT of settings makes the carrier a listed tenant; list shows settings and Enabled", async () => {
    await putCarrier(deps, {
      prefix: "176",
      settings: { name: "Emirates", qualityProgram: false, xtd: true, planning: null },
      now: NOW,
    });
    await putCarrier(deps, {
      prefix: "176",
      settings: { name: "Emirates SkyCargo", qualityProgram: false, xtd: true, planning: null },
      now: LATER,
    });
    await disableCarrier(deps, { prefix: "020", now: NOW });
    const page = await listCarriers(deps, { limit: 10, cursor: null });
    expect(
      page.items.map((c) => [c.tenant.carrierPrefix, c.tenant.enabled, c.settings?.name, c.tenant.createdAt]),
    ).toEqual([
      ["020", false, "Carrier 020", NOW],
      ["176", true, "Emirates SkyCargo", NOW],
    ]);
    expect(page.next).toBeNull();
  });

  it("deleting a carrier deregisters its clients and keeps its settings", async () => {
    const client = await createCarrierClient(deps, { prefix: "020", name: null, now: NOW });
    expect(await deleteCarrier(deps, "020")).toEqual({ deletedClients: [client.clientId] });
    expect(recorded.deregistered).toEqual([client.clientId]);
    expect(await tenants.getTenant({ kind: "carrier", carrierPrefix: "020" })).toBeNull();
    expect(await deps.carriers.get("020")).not.toBeNull();
    // Deleting again: nothing left to delete, still not a 404 (the carrier has settings).
    expect(await deleteCarrier(deps, "020")).toEqual({ deletedClients: [] });
  });
});
