/** Ports of the OAuth 2.0 token endpoint (client credentials): the secret check and the signer. */
import type { TenantClient } from "../tenants/tenants.ts";

/**
 * Whether the presented secret is the client's (locally: the scrypt hash on the client record). Called
 * with null for an unknown client, so that it costs the same time and an attacker cannot tell unknown
 * client ids from wrong secrets by the answer's delay; it then answers false.
 */
export interface ClientSecretCheck {
  matches(client: TenantClient | null, presentedSecret: string): Promise<boolean>;
}

/** What the token carries besides what the signer adds (`iss` and a fresh `jti`). */
export interface AccessTokenClaims {
  /** The client id (a machine token's subject is its client). */
  sub: string;
  client_id: string;
  token_use: "access";
  /** Space-separated scopes granted. */
  scope: string;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
  /** The tenant's claims (tokenClaimsFor), strings only. */
  [claim: string]: string | number;
}

/** Signs an access token (locally the dev issuer's key; in AWS Cognito signs and this is unused). */
export interface AccessTokenSigner {
  sign(claims: AccessTokenClaims): Promise<string>;
}
