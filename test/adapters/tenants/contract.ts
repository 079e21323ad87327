/**
 * The behaviour every TenantRepository must have, run against the DynamoDB adapter (DynamoDB Local)
 * and the in-memory one, so the use-case tests on memory mean something.
 */
import { describe, expect, it } from "vitest";
import {
  TenantClientNotFoundError,
  TenantExistsError,
  TenantNotFoundError,
} from "../../../functions/core/errors.ts";
import type { TenantRepository } from "../../../functions/core/ports/tenants.ts";
import type { ForwarderTenant, TenantClient, TenantRef } from "../../../functions/core/tenants/tenants.ts";

const NOW = "2026-05-04T10:00:00.000Z";
const LATER = "2026-05-04T11:00:00.000Z";

/** `make` may return the same repository each time: every test uses fresh ids. */
export function tenantRepositoryContract(make: () => TenantRepository) {
  const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`;
  const forwarder = (forwarderId = unique("FWD")): ForwarderTenant => ({
    kind: "forwarder",
    forwarderId,
    agentCode: "1234567",
    agentCass: "0001",
    agentStation: null,
    contactEmail: "ops@forwarder.example",
    enabled: true,
    createdAt: NOW,
    updatedAt: NOW,
  });
  const client = (tenant: TenantRef, clientId = unique("client").replace(/-/g, "")): TenantClient => ({
    clientId,
    tenant,
    name: null,
    enabled: true,
    createdAt: NOW,
    secretHash: "scrypt$c2FsdA$aGFzaA",
  });
  const refOf = (f: ForwarderTenant): TenantRef => ({ kind: "forwarder", forwarderId: f.forwarderId });

  describe("tenant repository", () => {
    it("creates and reads a tenant; a second create of the same tenant throws TenantExistsError", async () => {
      const repo = make();
      const f = { ...forwarder(), agentStation: "FRA" };
      await repo.createTenant(f);
      expect(await repo.getTenant(refOf(f))).toEqual(f);
      await expect(repo.createTenant({ ...f, agentCode: "7654321" })).rejects.toBeInstanceOf(
        TenantExistsError,
      );
      expect(await repo.getTenant(refOf(f))).toEqual(f);
      expect(await repo.getTenant({ kind: "forwarder", forwarderId: unique("NONE") })).toBeNull();
      // Same id, other kind: another tenant.
      expect(await repo.getTenant({ kind: "support", subject: f.forwarderId })).toBeNull();
    });

    it("updates an existing tenant only", async () => {
      const repo = make();
      const f = forwarder();
      await expect(repo.updateTenant(f)).rejects.toBeInstanceOf(TenantNotFoundError);
      await repo.createTenant(f);
      await repo.updateTenant({ ...f, enabled: false, updatedAt: LATER });
      expect(await repo.getTenant(refOf(f))).toEqual({ ...f, enabled: false, updatedAt: LATER });
    });

    it("lists a kind in id order, page by page, each tenant once, as updated", async () => {
      const repo = make();
      const stem = unique("LIST");
      const ids = ["c", "a", "b", "d", "e"].map((s) => `${stem}-${s}`);
      for (const id of ids) await repo.createTenant(forwarder(id));
      await repo.updateTenant({ ...forwarder(`${stem}-b`), enabled: false });
      await repo
        .createTenant({
          kind: "carrier",
          carrierPrefix: "020",
          enabled: true,
          createdAt: NOW,
          updatedAt: NOW,
        })
        .catch((error: unknown) => {
          if (!(error instanceof TenantExistsError)) throw error;
        });
      const seen: ForwarderTenant[] = [];
      let cursor: string | null = null;
      do {
        const page = await repo.listTenants("forwarder", { limit: 2, cursor });
        expect(page.items.length).toBeLessThanOrEqual(2);
        for (const item of page.items) {
          expect(item.kind).toBe("forwarder");
          if (item.kind === "forwarder" && item.forwarderId.startsWith(stem)) seen.push(item);
        }
        cursor = page.next;
      } while (cursor !== null);
      expect(seen.map((f) => f.forwarderId)).toEqual([...ids].sort());
      expect(seen.find((f) => f.forwarderId === `${stem}-b`)?.enabled).toBe(false);
    });

    it("a listing that ends exactly at a page's end has no further cursor (no empty last page)", async () => {
      // Support tenants: only this test creates any.
      const repo = make();
      for (const subject of ["ops-a", "ops-b", "ops-c", "ops-d"]) {
        await repo.createTenant({ kind: "support", subject, enabled: true, createdAt: NOW, updatedAt: NOW });
      }
      const first = await repo.listTenants("support", { limit: 2, cursor: null });
      expect(first.items.map((t) => (t.kind === "support" ? t.subject : ""))).toEqual(["ops-a", "ops-b"]);
      const second = await repo.listTenants("support", { limit: 2, cursor: first.next });
      expect(second.items.map((t) => (t.kind === "support" ? t.subject : ""))).toEqual(["ops-c", "ops-d"]);
      expect(second.next).toBeNull();
      expect((await repo.listTenants("support", { limit: 4, cursor: null })).next).toBeNull();
      expect((await repo.listTenants("support", { limit: 3, cursor: null })).next).not.toBeNull();
    });

    it("stores clients by id and lists them under their tenant only", async () => {
      const repo = make();
      const f = forwarder();
      const g = forwarder();
      await repo.createTenant(f);
      await repo.createTenant(g);
      const mine = client(refOf(f));
      const theirs = client(refOf(g));
      await repo.createClient(mine);
      await repo.createClient(theirs);
      expect(await repo.getClient(mine.clientId)).toEqual(mine);
      expect((await repo.listClients(refOf(f))).map((c) => c.clientId)).toEqual([mine.clientId]);
      await repo.updateClient({ ...mine, enabled: false, name: "renamed" });
      expect(await repo.getClient(mine.clientId)).toEqual({ ...mine, enabled: false, name: "renamed" });
      expect((await repo.listClients(refOf(f)))[0]).toMatchObject({ enabled: false, name: "renamed" });
    });

    it("refuses a client of a missing tenant and an update of a missing client", async () => {
      const repo = make();
      const orphan = client({ kind: "forwarder", forwarderId: unique("NONE") });
      await expect(repo.createClient(orphan)).rejects.toBeInstanceOf(TenantNotFoundError);
      expect(await repo.getClient(orphan.clientId)).toBeNull();
      const f = forwarder();
      await repo.createTenant(f);
      await expect(repo.updateClient(client(refOf(f)))).rejects.toBeInstanceOf(TenantClientNotFoundError);
    });

    it("deletes one client, and a tenant with every client it has", async () => {
      const repo = make();
      const f = forwarder();
      await repo.createTenant(f);
      const clients = Array.from({ length: 30 }, () => client(refOf(f)));
      for (const c of clients) await repo.createClient(c);
      const [first, ...rest] = clients;
      if (!first) throw new Error("no client");
      await repo.deleteClient(first.clientId);
      await repo.deleteClient(first.clientId);
      expect(await repo.getClient(first.clientId)).toBeNull();
      expect((await repo.listClients(refOf(f))).length).toBe(29);
      const deleted = await repo.deleteTenant(refOf(f));
      expect(deleted.sort()).toEqual(rest.map((c) => c.clientId).sort());
      expect(await repo.getTenant(refOf(f))).toBeNull();
      expect(await repo.listClients(refOf(f))).toEqual([]);
      for (const c of rest) expect(await repo.getClient(c.clientId)).toBeNull();
      let cursor: string | null = null;
      do {
        const page = await repo.listTenants("forwarder", { limit: 100, cursor });
        expect(page.items.some((t) => t.kind === "forwarder" && t.forwarderId === f.forwarderId)).toBe(false);
        cursor = page.next;
      } while (cursor !== null);
    });
  });
}
