/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4) against the tenant table: the local runner's
 * `POST /oauth2/token` (in AWS Cognito answers the same request, and its pre-token-generation trigger
 * adds the same claims). Every claim comes from the client's tenant record through `tokenClaimsFor`;
 * nothing of the request reaches the token but the client id (authenticated) and a scope the client
 * is allowed.
 *
 * Refusals are RFC 6749 section 5.2 errors: `invalid_client` when the client is unknown, the secret
 * wrong, the client disabled or its tenant disabled or deleted (an unknown client and a wrong secret
 * are described alike, so the answer never tells which client ids exist); `invalid_request` without a
 * grant type; `unsupported_grant_type` for any grant but client_credentials; `invalid_scope` for a
 * scope beyond the tenant's role.
 */
import type { TenantRepository } from "../ports/tenants.ts";
import type { AccessTokenSigner, ClientSecretCheck } from "../ports/tokens.ts";
import {
  CLIENT_TOKEN_LIFETIME_SECONDS,
  clientRefusal,
  TENANT_SCOPES,
  tokenClaimsFor,
} from "../tenants/tenants.ts";

export interface IssueClientTokenDeps {
  tenants: Pick<TenantRepository, "getClient" | "getTenant">;
  secrets: ClientSecretCheck;
  signer: AccessTokenSigner;
}

export interface ClientTokenRequest {
  /** From HTTP Basic or the form's client_id; null when the request names no client. */
  clientId: string | null;
  clientSecret: string | null;
  /** The form's grant_type, or null when absent. */
  grantType: string | null;
  /** The form's scope (space-separated), or null when absent or empty. */
  scope: string | null;
  /** ISO 8601 instant the token is issued at (the issuer's real clock). */
  now: string;
}

/** The successful answer, as RFC 6749 section 5.1 names its members. */
export interface ClientTokenAnswer {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
}

export type ClientTokenError =
  | "invalid_client"
  | "invalid_request"
  | "unsupported_grant_type"
  | "invalid_scope";

export type ClientTokenResult =
  | { ok: true; answer: ClientTokenAnswer }
  | { ok: false; error: ClientTokenError; description: string };

const refuse = (error: ClientTokenError, description: string): ClientTokenResult => ({
  ok: false,
  error,
  description,
});

const AUTHENTICATION_FAILED = "Client authentication failed.";

export async function issueClientToken(
  deps: IssueClientTokenDeps,
  request: ClientTokenRequest,
): Promise<ClientTokenResult> {
  if (request.grantType === null) return refuse("invalid_request", "grant_type is required.");
  if (request.clientId === null || request.clientSecret === null)
    return refuse(
      "invalid_client",
      "Client authentication is required (HTTP Basic or client_id/client_secret).",
    );

  const client = await deps.tenants.getClient(request.clientId);
  // Checked for an unknown client too (the check then fails in the same time as a wrong secret).
  const secretMatches = await deps.secrets.matches(client, request.clientSecret);
  if (client === null || !secretMatches) return refuse("invalid_client", AUTHENTICATION_FAILED);
  const tenant = client.enabled ? await deps.tenants.getTenant(client.tenant) : null;
  const refusal = clientRefusal(client, tenant);
  if (refusal !== null || tenant === null) return refuse("invalid_client", `Client refused: ${refusal}.`);

  if (request.grantType !== "client_credentials")
    return refuse("unsupported_grant_type", "Only grant_type=client_credentials is supported.");
  const allowed = TENANT_SCOPES[tenant.kind];
  const requested = request.scope === null ? [] : request.scope.split(" ").filter((s) => s.length > 0);
  const beyond = requested.filter((scope) => scope !== allowed);
  if (beyond.length > 0)
    return refuse(
      "invalid_scope",
      `This client may only request the scope ${allowed}, not ${beyond.join(" ")}.`,
    );

  const issuedAt = Math.floor(Date.parse(request.now) / 1000);
  const accessToken = await deps.signer.sign({
    ...tokenClaimsFor(tenant),
    sub: client.clientId,
    client_id: client.clientId,
    token_use: "access",
    scope: allowed,
    iat: issuedAt,
    exp: issuedAt + CLIENT_TOKEN_LIFETIME_SECONDS,
  });
  return {
    ok: true,
    answer: { access_token: accessToken, token_type: "Bearer", expires_in: CLIENT_TOKEN_LIFETIME_SECONDS },
  };
}
