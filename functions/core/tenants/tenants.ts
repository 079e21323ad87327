/**
 * Tenants: the forwarders, carriers and support operators that may call the service, and their machine
 * clients (OAuth 2.0 client credentials). Every claim in a token comes from a tenant record, never from
 * the caller's input: the local token endpoint and the Cognito pre-token-generation trigger both map a
 * client's tenant to claims with `tokenClaimsFor`, so a token has the same shape locally and in AWS.
 */
import type { Role } from "../identity.ts";

export type TenantKind = Role;

/** Which tenant: a forwarder by its ForwarderIdentifier, a carrier by its prefix, support by a name. */
export type TenantRef =
  | { kind: "forwarder"; forwarderId: string }
  | { kind: "carrier"; carrierPrefix: string }
  | { kind: "support"; subject: string };

interface TenantBase {
  /** A disabled tenant gets no token (its clients are refused at the token endpoint / trigger). */
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * What a new forwarder's ForwarderIdentifier must look like: the published receiver schema of the event
 * payload requires `^[A-Z]{9}$`, and every payload carries the receiving forwarder's identifier, so a
 * forwarder onboarded under another id would have every payload refused by such a receiver.
 */
export const FORWARDER_IDENTIFIER_PATTERN = /^[A-Z]{9}$/;
export const FORWARDER_IDENTIFIER_RULE = "must match ^[A-Z]{9}$ (9 capital letters A-Z)";

export interface ForwarderTenant extends TenantBase {
  kind: "forwarder";
  forwarderId: string;
  /** The forwarder's name as people read it ("Acme Forwarding GmbH"), e.g. on a shared route map; optional. */
  name?: string | null;
  /** 7 digits. */
  agentCode: string;
  /** 4 digits. */
  agentCass: string;
  /** Branch station (3 letters) or null. */
  agentStation: string | null;
  /** Where support reaches the forwarder (never used for notifications). */
  contactEmail: string;
}

export interface CarrierTenant extends TenantBase {
  kind: "carrier";
  carrierPrefix: string;
}

export interface SupportTenant extends TenantBase {
  kind: "support";
  subject: string;
}

export type Tenant = ForwarderTenant | CarrierTenant | SupportTenant;

/** A machine client of a tenant. The secret itself is never stored (Cognito holds it in AWS). */
export interface TenantClient {
  clientId: string;
  tenant: TenantRef;
  /** Free text support gave the client ("ops integration"), or null. */
  name: string | null;
  enabled: boolean;
  createdAt: string;
  /**
   * Local client registry only: scrypt hash of the secret (`scrypt$<salt>$<hash>`, base64url);
   * null where the identity provider (Cognito) verifies the secret.
   */
  secretHash: string | null;
}

// The scopes are contract data (the stack's Cognito resource server names them too).
export { RESOURCE_SERVER_ID, TENANT_SCOPES } from "../../contracts/scopes.ts";

/** Lifetime of a client-credentials access token, seconds (Cognito's unit is minutes: 60). */
export const CLIENT_TOKEN_LIFETIME_SECONDS = 3600;

export const tenantRefOf = (tenant: Tenant): TenantRef =>
  tenant.kind === "forwarder"
    ? { kind: "forwarder", forwarderId: tenant.forwarderId }
    : tenant.kind === "carrier"
      ? { kind: "carrier", carrierPrefix: tenant.carrierPrefix }
      : { kind: "support", subject: tenant.subject };

/** The tenant's id within its kind (ForwarderIdentifier, carrier prefix, support subject). */
export const tenantIdOf = (ref: TenantRef): string =>
  ref.kind === "forwarder" ? ref.forwarderId : ref.kind === "carrier" ? ref.carrierPrefix : ref.subject;

/**
 * The claims a token of this tenant carries, in the authorizer's vocabulary (functions/core/identity.ts):
 * `role` plus the role's own claims. Strings only (Cognito's claimsToAddOrOverride and API Gateway's
 * authorizer context both carry strings).
 */
export function tokenClaimsFor(tenant: Tenant): Record<string, string> {
  switch (tenant.kind) {
    case "forwarder":
      return {
        role: "forwarder",
        forwarder_id: tenant.forwarderId,
        agent_code: tenant.agentCode,
        agent_cass: tenant.agentCass,
        ...(tenant.agentStation ? { agent_station: tenant.agentStation } : {}),
      };
    case "carrier":
      return { role: "carrier", carrier_prefix: tenant.carrierPrefix };
    case "support":
      return { role: "support", support_subject: tenant.subject };
  }
}

/** Why a client may not get a token now, or null when it may. */
export function clientRefusal(client: TenantClient | null, tenant: Tenant | null): string | null {
  if (client === null) return "unknown client";
  if (!client.enabled) return "client disabled";
  if (tenant === null) return "tenant deleted";
  if (!tenant.enabled) return "tenant disabled";
  return null;
}
