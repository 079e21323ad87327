/**
 * Bearer-token verification with aws-jwt-verify. In AWS the issuer is the Cognito user pool (or the OIDC
 * issuer named in the stack props) and keys come from its JWKS URI; locally the runner passes the dev
 * issuer's public keys in JWKS_JSON so no network is needed.
 *
 * Two kinds of token pass, both signed by the issuer:
 * - OAuth 2.0 access tokens (client credentials at /oauth2/token: Cognito in AWS, the runner locally):
 *   `token_use: "access"`, a non-empty `client_id`, and a `scope` naming the role's scope
 *   (TENANT_SCOPES[role]); they carry no `aud` (Cognito access tokens have none).
 * - Tokens naming the audience JWT_AUDIENCE (required everywhere: a deployment without it fails
 *   closed): the `npm run token` dev shortcut and external OIDC issuers.
 * A token that carries an `aud` must name JWT_AUDIENCE either way. Every token must carry a numeric
 * `exp`, and its lifetime may not exceed the configured maximum: neither `exp - iat` nor `exp - now`
 * (a token minted with a forged or missing `iat`). Stateless: no table is read here.
 */
import { JwtVerifier } from "aws-jwt-verify";
import { type Identity, identityFromClaims, type Role } from "../core/identity.ts";
import { TENANT_SCOPES } from "../core/tenants/tenants.ts";
import type { TokenVerifierConfig } from "./config.ts";

// Read and validated in functions/adapters/config.ts (JWT_ISSUER, JWT_AUDIENCE, JWT_MAX_LIFETIME_SECONDS,
// JWKS_JSON, JWKS_URI); named here too, where the verifier's users look.
export type { TokenVerifierConfig } from "./config.ts";

/**
 * A verified token's identity and its `exp` (Unix seconds): API Gateway caches the authorizer's answer
 * per token beyond `exp`, so the routes refuse it themselves once `exp` passes.
 */
export type VerifyResult =
  | { ok: true; identity: Identity; expiresAt: number }
  | { ok: false; reason: string };

/** Why a verified token's lifetime is refused, or null when `exp` is present and within bounds. */
export function lifetimeProblem(
  claims: Record<string, unknown>,
  maxLifetimeSeconds: number,
  nowSeconds: number,
): string | null {
  const { exp, iat } = claims;
  if (typeof exp !== "number" || !Number.isFinite(exp)) return "token has no exp claim";
  if (exp - nowSeconds > maxLifetimeSeconds)
    return `token expires more than ${maxLifetimeSeconds} s from now`;
  if (iat !== undefined) {
    if (typeof iat !== "number" || !Number.isFinite(iat)) return "token iat claim is not a number";
    if (exp - iat > maxLifetimeSeconds) return `token lifetime exceeds ${maxLifetimeSeconds} s`;
  }
  return null;
}

const isRole = (value: unknown): value is Role =>
  value === "forwarder" || value === "carrier" || value === "support";

/**
 * Why a verified token is not for this API, or null when it is: an access token whose client or
 * scope is missing or does not fit its role, or another token without our audience.
 */
export function audienceOrScopeProblem(claims: Record<string, unknown>, audience: string): string | null {
  const { aud } = claims;
  if (aud !== undefined) {
    const audiences: unknown[] = Array.isArray(aud) ? aud : [aud];
    if (!audiences.includes(audience)) return `token audience must be ${audience}`;
  }
  if (claims.token_use === "access") {
    if (typeof claims.client_id !== "string" || claims.client_id.length === 0)
      return "access token has no client_id";
    if (!isRole(claims.role)) return "role claim must be forwarder, carrier or support";
    const scopes = typeof claims.scope === "string" ? claims.scope.split(" ") : [];
    const needed = TENANT_SCOPES[claims.role];
    if (!scopes.includes(needed)) return `access token scope must include ${needed}`;
    return null;
  }
  if (aud === undefined) return `token has no audience: it must name ${audience} or be an access token`;
  return null;
}

export function createTokenVerifier(
  config: TokenVerifierConfig,
): (authorizationHeader: string | undefined) => Promise<VerifyResult> {
  const verifier = JwtVerifier.create({
    issuer: config.issuer,
    // Checked below: access tokens have no aud, other tokens must name config.audience.
    audience: null,
    jwksUri: config.jwksUri,
  });
  if (config.jwks) verifier.cacheJwks(config.jwks);

  return async (authorizationHeader) => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorizationHeader?.trim() ?? "");
    if (!match?.[1]) return { ok: false, reason: "missing bearer token" };
    let claims: Record<string, unknown>;
    try {
      claims = (await verifier.verify(match[1])) as Record<string, unknown>;
    } catch (error) {
      // aws-jwt-verify's message says what failed (expired, wrong issuer, bad signature, alg none...).
      return { ok: false, reason: error instanceof Error ? error.message : "invalid token" };
    }
    // Real seconds: tokens are judged against the issuer's clock, never the local fake clock.
    const lifetime = lifetimeProblem(claims, config.maxLifetimeSeconds, Math.floor(Date.now() / 1000));
    if (lifetime) return { ok: false, reason: lifetime };
    const grant = audienceOrScopeProblem(claims, config.audience);
    if (grant) return { ok: false, reason: grant };
    const parsed = identityFromClaims(claims);
    // lifetimeProblem has made sure exp is a finite number.
    return parsed.ok ? { ...parsed, expiresAt: claims.exp as number } : parsed;
  };
}
