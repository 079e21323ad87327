/**
 * What Cognito's pre-token-generation trigger (V3) puts into a token: the claims of the
 * tenant behind the request, read from the tenant table, never from the request. A machine client's
 * claims are its tenant's (`tokenClaimsFor`, the same mapping as the local token endpoint), with only
 * its role's scope; a person signing in for a forwarder gets that forwarder's claims and the forwarder
 * scope. Anything else (unknown or disabled client, deleted or disabled tenant, a user linked to no
 * forwarder) is refused with TokenRefusedError, so Cognito issues no token.
 */
import { TokenRefusedError } from "../errors.ts";
import type { ForwarderUserRepository, TenantRepository } from "../ports/tenants.ts";
import { clientRefusal, TENANT_SCOPES, type TenantKind, tokenClaimsFor } from "../tenants/tenants.ts";

export interface PreTokenGenerationDeps {
  tenants: Pick<TenantRepository, "getClient" | "getTenant">;
  users: Pick<ForwarderUserRepository, "getUser">;
}

/** Who asks for a token: a machine client (client credentials) or a person who signed in. */
export type TokenRequester =
  | { kind: "client"; clientId: string; scopes: readonly string[] }
  | { kind: "user"; userId: string; scopes: readonly string[] };

export interface TokenCustomization {
  /** Added to the access token (and, for a person, the ID token). */
  claims: Record<string, string>;
  /** The role's scope, for a person (a machine client was registered with it). */
  scopesToAdd: string[];
  /** Scopes of the resource server that are not the role's: never in the token. */
  scopesToSuppress: string[];
}

const ROLE_SCOPES = new Set(Object.values(TENANT_SCOPES));

function customizationFor(
  role: TenantKind,
  claims: Record<string, string>,
  requested: readonly string[],
  addScope: boolean,
): TokenCustomization {
  const own = TENANT_SCOPES[role];
  return {
    claims,
    scopesToAdd: addScope && !requested.includes(own) ? [own] : [],
    scopesToSuppress: requested.filter((scope) => ROLE_SCOPES.has(scope) && scope !== own),
  };
}

export async function preTokenGeneration(
  deps: PreTokenGenerationDeps,
  requester: TokenRequester,
): Promise<TokenCustomization> {
  if (requester.kind === "client") {
    const client = await deps.tenants.getClient(requester.clientId);
    const tenant = client ? await deps.tenants.getTenant(client.tenant) : null;
    const refusal = clientRefusal(client, tenant);
    if (refusal !== null || tenant === null) throw new TokenRefusedError(refusal ?? "tenant deleted");
    return customizationFor(tenant.kind, tokenClaimsFor(tenant), requester.scopes, false);
  }
  const user = await deps.users.getUser(requester.userId);
  if (user === null) throw new TokenRefusedError("user linked to no forwarder");
  const tenant = await deps.tenants.getTenant({ kind: "forwarder", forwarderId: user.forwarderId });
  if (tenant === null) throw new TokenRefusedError("tenant deleted");
  if (!tenant.enabled) throw new TokenRefusedError("tenant disabled");
  return customizationFor("forwarder", tokenClaimsFor(tenant), requester.scopes, true);
}
