/**
 * Issue 12: the client-credentials use case behind the local /oauth2/token, over the memory tenant
 * repository. Claims come from the tenant record only; refusals are RFC 6749 section 5.2 errors.
 * Also the shared first-support-credential bootstrap.
 */
import { describe, expect, it } from "vitest";
import type { ClientRegistry } from "../../../functions/core/ports/tenants.ts";
import type { AccessTokenClaims } from "../../../functions/core/ports/tokens.ts";
import type { ForwarderTenant, TenantClient } from "../../../functions/core/tenants/tenants.ts";
import {
  type ClientTokenRequest,
  issueClientToken,
} from "../../../functions/core/use-cases/issue-client-token.ts";
import {
  BOOTSTRAP_CLIENT_NAME,
  bootstrapSupportClient,
} from "../../../functions/core/use-cases/shared/support-bootstrap.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const NOW = "2026-11-24T12:00:00.000Z";
const NOW_SECONDS = Date.parse(NOW) / 1000;

const forwarder: ForwarderTenant = {
  kind: "forwarder",
  forwarderId: "ACMECARGO",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "FRA",
  contactEmail: "ops@fwd1.example",
  enabled: true,
  createdAt: NOW,
  updatedAt: NOW,
};
const client: TenantClient = {
  clientId: "client-fwd1",
  tenant: { kind: "forwarder", forwarderId: "ACMECARGO" },
  name: null,
  enabled: true,
  createdAt: NOW,
  secretHash: "hash-of:right",
};

async function setup() {
  const tenants = memoryTenantRepository();
  await tenants.createTenant(forwarder);
  await tenants.createTenant({
    kind: "carrier",
    carrierPrefix: "020",
    enabled: true,
    createdAt: NOW,
    updatedAt: NOW,
  });
  await tenants.createClient(client);
  const signed: AccessTokenClaims[] = [];
  const checked: Array<string | null> = [];
  const deps = {
    tenants,
    secrets: {
      matches: async (c: TenantClient | null, secret: string) => {
        checked.push(c?.clientId ?? null);
        return c !== null && c.secretHash === `hash-of:${secret}`;
      },
    },
    signer: {
      sign: async (claims: AccessTokenClaims) => {
        signed.push(claims);
        return `signed-${signed.length}`;
      },
    },
  };
  return { tenants, signed, checked, deps };
}

const request = (overrides: Partial<ClientTokenRequest> = {}): ClientTokenRequest => ({
  clientId: "client-fwd1",
  clientSecret: "right",
  grantType: "client_credentials",
  scope: null,
  now: NOW,
  ...overrides,
});

describe("issueClientToken", () => {
  it("issues a Bearer token for an hour with exactly the tenant's claims, the client and the role's scope", async () => {
    const { deps, signed } = await setup();
    expect(await issueClientToken(deps, request())).toEqual({
      ok: true,
      answer: { access_token: "signed-1", token_type: "Bearer", expires_in: 3600 },
    });
    expect(signed).toEqual([
      {
        sub: "client-fwd1",
        client_id: "client-fwd1",
        token_use: "access",
        scope: "routemap/forwarder",
        iat: NOW_SECONDS,
        exp: NOW_SECONDS + 3600,
        role: "forwarder",
        forwarder_id: "ACMECARGO",
        agent_code: "1234567",
        agent_cass: "0001",
        agent_station: "FRA",
      },
    ]);
  });

  it("accepts the role's own scope when requested, and refuses any other scope with invalid_scope", async () => {
    const { deps, signed } = await setup();
    expect((await issueClientToken(deps, request({ scope: "routemap/forwarder" }))).ok).toBe(true);
    for (const scope of ["routemap/carrier", "routemap/forwarder routemap/support", "openid"]) {
      expect(await issueClientToken(deps, request({ scope }))).toMatchObject({
        ok: false,
        error: "invalid_scope",
      });
    }
    expect(signed).toHaveLength(1);
  });

  it("answers invalid_client alike for an unknown client and a wrong secret, and without credentials", async () => {
    const { deps, signed, checked } = await setup();
    const unknown = await issueClientToken(deps, request({ clientId: "nobody" }));
    // The secret check runs for an unknown client too (same cost as a wrong secret).
    expect(checked).toEqual([null]);
    const wrong = await issueClientToken(deps, request({ clientSecret: "wrong" }));
    expect(unknown).toEqual({
      ok: false,
      error: "invalid_client",
      description: "Client authentication failed.",
    });
    expect(wrong).toEqual(unknown);
    expect(await issueClientToken(deps, request({ clientSecret: null }))).toMatchObject({
      error: "invalid_client",
    });
    expect(await issueClientToken(deps, request({ clientId: null }))).toMatchObject({
      error: "invalid_client",
    });
    expect(signed).toHaveLength(0);
  });

  it("refuses a disabled client, a disabled tenant and a deleted tenant with invalid_client", async () => {
    const disabledClient = await setup();
    await disabledClient.tenants.updateClient({ ...client, enabled: false });
    expect(await issueClientToken(disabledClient.deps, request())).toMatchObject({
      ok: false,
      error: "invalid_client",
      description: "Client refused: client disabled.",
    });

    const disabledTenant = await setup();
    await disabledTenant.tenants.updateTenant({ ...forwarder, enabled: false });
    expect(await issueClientToken(disabledTenant.deps, request())).toMatchObject({
      error: "invalid_client",
      description: "Client refused: tenant disabled.",
    });

    // A client record whose tenant is gone (the repository deletes both; a stale lookup item stays refused).
    const orphan = await setup();
    const tenantsWithoutForwarder = { ...orphan.tenants, getTenant: async () => null };
    expect(
      await issueClientToken({ ...orphan.deps, tenants: tenantsWithoutForwarder }, request()),
    ).toMatchObject({
      error: "invalid_client",
      description: "Client refused: tenant deleted.",
    });

    const deleted = await setup();
    await deleted.tenants.deleteTenant({ kind: "forwarder", forwarderId: "ACMECARGO" });
    expect(await issueClientToken(deleted.deps, request())).toMatchObject({ error: "invalid_client" });
    for (const { signed } of [disabledClient, disabledTenant, orphan, deleted])
      expect(signed).toHaveLength(0);
  });

  it("needs grant_type (invalid_request) and takes client_credentials only (unsupported_grant_type)", async () => {
    const { deps, signed } = await setup();
    expect(await issueClientToken(deps, request({ grantType: null }))).toMatchObject({
      error: "invalid_request",
    });
    for (const grantType of ["password", "authorization_code", "CLIENT_CREDENTIALS"])
      expect(await issueClientToken(deps, request({ grantType }))).toMatchObject({
        error: "unsupported_grant_type",
      });
    // An unknown client learns nothing about grant types: authentication comes first.
    expect(
      await issueClientToken(deps, request({ grantType: "password", clientSecret: "wrong" })),
    ).toMatchObject({
      error: "invalid_client",
    });
    expect(signed).toHaveLength(0);
  });

  it("gives carrier and support tenants their own claims and scope", async () => {
    const { deps, tenants, signed } = await setup();
    await tenants.createClient({
      ...client,
      clientId: "c-020",
      tenant: { kind: "carrier", carrierPrefix: "020" },
    });
    await tenants.createTenant({
      kind: "support",
      subject: "ops",
      enabled: true,
      createdAt: NOW,
      updatedAt: NOW,
    });
    await tenants.createClient({ ...client, clientId: "c-ops", tenant: { kind: "support", subject: "ops" } });
    await issueClientToken(deps, request({ clientId: "c-020" }));
    await issueClientToken(deps, request({ clientId: "c-ops" }));
    expect(signed[0]).toMatchObject({ role: "carrier", carrier_prefix: "020", scope: "routemap/carrier" });
    expect(signed[0]).not.toHaveProperty("forwarder_id");
    expect(signed[1]).toMatchObject({
      role: "support",
      support_subject: "ops",
      scope: "routemap/support",
      sub: "c-ops",
    });
  });
});

describe("bootstrapSupportClient", () => {
  const registry = (): ClientRegistry & { registered: Array<{ scope: string }> } => {
    const registered: Array<{ scope: string }> = [];
    let n = 0;
    return {
      registered,
      register: async (input) => {
        registered.push({ scope: input.scope });
        n++;
        return { clientId: `id-${n}`, clientSecret: `secret-${n}`, secretHash: `hash-${n}` };
      },
      deregister: async () => undefined,
    };
  };

  it("creates the support tenant when missing and stores a client with the support scope", async () => {
    const tenants = memoryTenantRepository();
    const reg = registry();
    const issued = await bootstrapSupportClient({ tenants, registry: reg }, { subject: "support", now: NOW });
    expect(issued).toEqual({ clientId: "id-1", clientSecret: "secret-1", secretHash: "hash-1" });
    expect(reg.registered).toEqual([{ scope: "routemap/support" }]);
    expect(await tenants.getTenant({ kind: "support", subject: "support" })).toEqual({
      kind: "support",
      subject: "support",
      enabled: true,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(await tenants.getClient("id-1")).toEqual({
      clientId: "id-1",
      tenant: { kind: "support", subject: "support" },
      name: BOOTSTRAP_CLIENT_NAME,
      enabled: true,
      createdAt: NOW,
      secretHash: "hash-1",
    });
  });

  it("adds a client to an existing support tenant, enabling it again when it was disabled", async () => {
    const tenants = memoryTenantRepository();
    await tenants.createTenant({
      kind: "support",
      subject: "support",
      enabled: false,
      createdAt: NOW,
      updatedAt: NOW,
    });
    const later = "2026-11-25T08:00:00.000Z";
    const deps = { tenants, registry: registry() };
    await bootstrapSupportClient(deps, { subject: "support", now: later });
    await bootstrapSupportClient(deps, { subject: "support", now: later });
    expect(await tenants.getTenant({ kind: "support", subject: "support" })).toMatchObject({
      enabled: true,
      createdAt: NOW,
      updatedAt: later,
    });
    expect(
      (await tenants.listClients({ kind: "support", subject: "support" })).map((c) => c.clientId),
    ).toEqual(["id-1", "id-2"]);
  });
});
