/**
 * Bearer-token verification with aws-jwt-verify. In AWS the issuer is the Cognito user pool (or the OIDC
 * issuer named in the stack props) and keys come from its JWKS URI; locally the runner passes the dev
 * issuer's public keys in JWKS_JSON so no network is needed.
 */
import { JwtVerifier } from "aws-jwt-verify";
import type { Jwks } from "aws-jwt-verify/jwk";
import { type Identity, identityFromClaims } from "../core/identity.ts";

export interface TokenVerifierConfig {
  issuer: string;
  audience: string | null;
  jwksUri: string;
  /** Preloaded keys (local dev issuer); when absent keys are fetched from jwksUri and cached. */
  jwks: Jwks | null;
}

export function tokenVerifierConfigFromEnv(env: NodeJS.ProcessEnv = process.env): TokenVerifierConfig {
  const issuer = env.JWT_ISSUER;
  if (!issuer) throw new Error("JWT_ISSUER is not set");
  const jwksJson = env.JWKS_JSON;
  return {
    issuer,
    audience: env.JWT_AUDIENCE ? env.JWT_AUDIENCE : null,
    jwksUri: env.JWKS_URI ?? `${issuer.replace(/\/$/, "")}/.well-known/jwks.json`,
    jwks: jwksJson ? (JSON.parse(jwksJson) as Jwks) : null,
  };
}

export type VerifyResult = { ok: true; identity: Identity } | { ok: false; reason: string };

export function createTokenVerifier(
  config: TokenVerifierConfig,
): (authorizationHeader: string | undefined) => Promise<VerifyResult> {
  const verifier = JwtVerifier.create({
    issuer: config.issuer,
    audience: config.audience,
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
    return identityFromClaims(claims);
  };
}
