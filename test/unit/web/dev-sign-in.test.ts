/**
 * The runner's dev sign-in (bin/local/web-app.ts): which forwarders it lists, across the tenant table's
 * pages, and the claims of the person's token it mints (the same tenant mapping as the token endpoint).
 */
import { describe, expect, it } from "vitest";
import { personTokenClaims, signInChoices } from "../../../bin/local/web-app.ts";
import type { TenantPage } from "../../../functions/core/ports/tenants.ts";
import {
  type ForwarderTenant,
  type Tenant,
  tokenClaimsFor,
} from "../../../functions/core/tenants/tenants.ts";

const forwarder = (forwarderId: string, enabled = true): ForwarderTenant => ({
  kind: "forwarder",
  forwarderId,
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "FRA",
  contactEmail: "ops@acme.example",
  enabled,
  createdAt: "2026-03-14T10:00:00Z",
  updatedAt: "2026-03-14T10:00:00Z",
});

/** A tenant table answering in pages of two, as listTenants pages with a cursor. */
function pagedTenants(all: Tenant[]) {
  return {
    listTenants: async (
      _kind: string,
      page: { limit: number; cursor: string | null },
    ): Promise<TenantPage<Tenant>> => {
      const start = Number(page.cursor ?? 0);
      const end = start + 2;
      return { items: all.slice(start, end), next: end < all.length ? String(end) : null };
    },
    getTenant: async () => null,
  };
}

describe("dev sign-in", () => {
  it("lists every enabled forwarder across pages, sorted, by id", async () => {
    const tenants = pagedTenants([
      forwarder("ZED"),
      forwarder("OFF", false),
      forwarder("ACME"),
      forwarder("MID"),
    ]);
    expect(await signInChoices(tenants)).toEqual([
      { Id: "ACME", Name: "ACME" },
      { Id: "MID", Name: "MID" },
      { Id: "ZED", Name: "ZED" },
    ]);
  });

  it("mints a person's access token of the forwarder's claims for one hour", () => {
    const tenant = forwarder("ACME");
    const claims = personTokenClaims(tenant, 1_773_482_400);
    expect(claims).toEqual({
      ...tokenClaimsFor(tenant),
      sub: "local-user-ACME",
      username: "local-user-ACME",
      client_id: "local-web-app",
      token_use: "access",
      scope: "routemap/forwarder",
      iat: 1_773_482_400,
      exp: 1_773_486_000,
    });
    expect(claims).toMatchObject({ role: "forwarder", forwarder_id: "ACME", agent_station: "FRA" });
  });
});
