/**
 * Cognito's pre-token-generation trigger (V3_0) through its handler's `make`, over memory adapters, with
 * Cognito's V3 event shapes: a machine client's token gets its tenant's claims (tokenClaimsFor, the
 * same mapping as the local token endpoint), a person's token the claims and scope of the forwarder
 * they are linked to; unknown or disabled clients, deleted or disabled tenants and unlinked users are
 * refused (the trigger throws, so Cognito issues no token).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { TokenRefusedError } from "../../../functions/core/errors.ts";
import type { Tenant, TenantClient } from "../../../functions/core/tenants/tenants.ts";
import {
  make,
  type PreTokenGenerationEvent,
} from "../../../functions/handlers/cognito/pre-token-generation.ts";
import { memoryForwarderUserRepository } from "../../support/memory/forwarder-user-repository.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const NOW = "2026-11-24T10:00:00.000Z";
const forwarder: Tenant = {
  kind: "forwarder",
  forwarderId: "DEMOFWD",
  agentCode: "1234567",
  agentCass: "8901",
  agentStation: "FRA",
  contactEmail: "ops@forwarder.example",
  enabled: true,
  createdAt: NOW,
  updatedAt: NOW,
};
const carrier: Tenant = {
  kind: "carrier",
  carrierPrefix: "020",
  enabled: true,
  createdAt: NOW,
  updatedAt: NOW,
};
const support: Tenant = { kind: "support", subject: "ops", enabled: true, createdAt: NOW, updatedAt: NOW };

const clientOf = (clientId: string, tenant: TenantClient["tenant"]): TenantClient => ({
  clientId,
  tenant,
  name: null,
  enabled: true,
  createdAt: NOW,
  secretHash: null,
});

/** Cognito's V3 event for a client-credentials grant. */
function machineEvent(clientId: string, scopes: string[]): PreTokenGenerationEvent {
  return {
    version: "3",
    triggerSource: "TokenGeneration_ClientCredentials",
    region: "eu-central-1",
    userPoolId: "eu-central-1_Example1",
    userName: "",
    callerContext: { awsSdkVersion: "aws-sdk-unknown-unknown", clientId },
    request: {
      userAttributes: {},
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] },
      scopes,
    },
    response: { claimsAndScopeOverrideDetails: {} },
  };
}

/** Cognito's V3 event for a person's sign-in through the hosted login (same shape as V2). */
function userEvent(
  sub: string,
  triggerSource:
    | "TokenGeneration_HostedAuth"
    | "TokenGeneration_RefreshTokens" = "TokenGeneration_HostedAuth",
): PreTokenGenerationEvent {
  return {
    version: "3",
    triggerSource,
    region: "eu-central-1",
    userPoolId: "eu-central-1_Example1",
    userName: sub,
    callerContext: { awsSdkVersion: "aws-sdk-unknown-unknown", clientId: "webappclient" },
    request: {
      userAttributes: { sub, email: "anna@forwarder.example", email_verified: "true" },
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] },
      scopes: ["openid", "email"],
    },
    response: { claimsAndScopeOverrideDetails: {} },
  };
}

let tenants: ReturnType<typeof memoryTenantRepository>;
let users: ReturnType<typeof memoryForwarderUserRepository>;
let trigger: ReturnType<typeof make>;

beforeEach(async () => {
  tenants = memoryTenantRepository();
  users = memoryForwarderUserRepository();
  for (const tenant of [forwarder, carrier, support]) await tenants.createTenant(tenant);
  await tenants.createClient(clientOf("fwdclient", { kind: "forwarder", forwarderId: "DEMOFWD" }));
  await tenants.createClient(clientOf("carclient", { kind: "carrier", carrierPrefix: "020" }));
  await tenants.createClient(clientOf("supclient", { kind: "support", subject: "ops" }));
  await users.createUser({
    userId: "5f0c2f1e-1111-4a4a-9b9b-000000000001",
    email: "anna@forwarder.example",
    forwarderId: "DEMOFWD",
    createdAt: NOW,
  });
  trigger = make(() => ({ tenants, users }));
});

describe("machine tokens (TokenGeneration_ClientCredentials)", () => {
  it("adds a forwarder client's claims from its tenant record to the access token only", async () => {
    const result = await trigger(machineEvent("fwdclient", ["routemap/forwarder"]));
    expect(result.response.claimsAndScopeOverrideDetails).toEqual({
      accessTokenGeneration: {
        claimsToAddOrOverride: {
          role: "forwarder",
          forwarder_id: "DEMOFWD",
          agent_code: "1234567",
          agent_cass: "8901",
          agent_station: "FRA",
        },
      },
    });
  });

  it("adds a carrier client's prefix", async () => {
    const result = await trigger(machineEvent("carclient", ["routemap/carrier"]));
    expect(
      result.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.claimsToAddOrOverride,
    ).toEqual({
      role: "carrier",
      carrier_prefix: "020",
    });
  });

  it("adds a support client's subject", async () => {
    const result = await trigger(machineEvent("supclient", ["routemap/support"]));
    expect(
      result.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.claimsToAddOrOverride,
    ).toEqual({
      role: "support",
      support_subject: "ops",
    });
  });

  it("leaves out agent_station for a forwarder without a branch station", async () => {
    await tenants.updateTenant({ ...forwarder, agentStation: null });
    const result = await trigger(machineEvent("fwdclient", ["routemap/forwarder"]));
    const claims = result.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.claimsToAddOrOverride;
    expect(claims).not.toHaveProperty("agent_station");
    expect(claims).toMatchObject({ role: "forwarder", forwarder_id: "DEMOFWD" });
  });

  it("suppresses another role's scope, should a client ever hold one", async () => {
    const result = await trigger(machineEvent("carclient", ["routemap/carrier", "routemap/support"]));
    expect(result.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.scopesToSuppress).toEqual([
      "routemap/support",
    ]);
  });
});

describe("a person's token (hosted login, refresh)", () => {
  it.each(["TokenGeneration_HostedAuth", "TokenGeneration_RefreshTokens"] as const)(
    "%s: the linked forwarder's claims in both tokens, and the forwarder scope",
    async (source) => {
      const result = await trigger(userEvent("5f0c2f1e-1111-4a4a-9b9b-000000000001", source));
      const claims = {
        role: "forwarder",
        forwarder_id: "DEMOFWD",
        agent_code: "1234567",
        agent_cass: "8901",
        agent_station: "FRA",
      };
      expect(result.response.claimsAndScopeOverrideDetails).toEqual({
        accessTokenGeneration: { claimsToAddOrOverride: claims, scopesToAdd: ["routemap/forwarder"] },
        idTokenGeneration: { claimsToAddOrOverride: claims },
      });
    },
  );
});

describe("refusals: no token", () => {
  const refused = (reason: string) => expect.objectContaining({ name: TokenRefusedError.name, reason });

  it("an unknown client", async () => {
    await expect(trigger(machineEvent("nobody", ["routemap/forwarder"]))).rejects.toEqual(
      refused("unknown client"),
    );
  });

  it("a disabled client", async () => {
    await tenants.updateClient({
      ...clientOf("fwdclient", { kind: "forwarder", forwarderId: "DEMOFWD" }),
      enabled: false,
    });
    await expect(trigger(machineEvent("fwdclient", ["routemap/forwarder"]))).rejects.toEqual(
      refused("client disabled"),
    );
  });

  it("a client of a disabled tenant", async () => {
    await tenants.updateTenant({ ...carrier, enabled: false });
    await expect(trigger(machineEvent("carclient", ["routemap/carrier"]))).rejects.toEqual(
      refused("tenant disabled"),
    );
  });

  it("a client whose lookup outlived its deleted tenant", async () => {
    const orphan = memoryTenantRepository();
    await orphan.createTenant(carrier);
    await orphan.createClient(clientOf("carclient", { kind: "carrier", carrierPrefix: "020" }));
    const lookupOnly = { getClient: orphan.getClient, getTenant: async () => null };
    await expect(
      make(() => ({ tenants: lookupOnly, users }))(machineEvent("carclient", ["routemap/carrier"])),
    ).rejects.toEqual(refused("tenant deleted"));
  });

  it("a person linked to no forwarder", async () => {
    await expect(trigger(userEvent("5f0c2f1e-2222-4a4a-9b9b-000000000002"))).rejects.toEqual(
      refused("user linked to no forwarder"),
    );
  });

  it("a person of a disabled or deleted forwarder", async () => {
    await tenants.updateTenant({ ...forwarder, enabled: false });
    await expect(trigger(userEvent("5f0c2f1e-1111-4a4a-9b9b-000000000001"))).rejects.toEqual(
      refused("tenant disabled"),
    );
    await tenants.deleteTenant({ kind: "forwarder", forwarderId: "DEMOFWD" });
    await expect(trigger(userEvent("5f0c2f1e-1111-4a4a-9b9b-000000000001"))).rejects.toEqual(
      refused("tenant deleted"),
    );
  });

  it("says why, in a message Cognito logs", async () => {
    await expect(trigger(machineEvent("nobody", []))).rejects.toThrow("Token refused: unknown client.");
  });
});
