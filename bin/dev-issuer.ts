/**
 * The local development token issuer: an RSA key pair under `.local/` (git-ignored), created on first
 * use. `npm run token` signs with it, and so does the runner's `POST /oauth2/token`; the local runner
 * hands its public JWKS to the authorizer.
 * Never used in AWS, where Cognito (or the configured OIDC issuer) signs tokens.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_JWT_AUDIENCE } from "../functions/contracts/settings.ts";
import type { AccessTokenClaims, AccessTokenSigner } from "../functions/core/ports/tokens.ts";

export const DEV_ISSUER = "http://localhost/route-map-tracker/dev-issuer";
export const DEV_AUDIENCE = DEFAULT_JWT_AUDIENCE;

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const keyFile = join(projectRoot, ".local", "dev-issuer-key.json");

interface StoredKey {
  kid: string;
  privateKeyPem: string;
}

function loadOrCreateKey(): StoredKey {
  try {
    return JSON.parse(readFileSync(keyFile, "utf8")) as StoredKey;
  } catch {
    mkdirSync(dirname(keyFile), { recursive: true });
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const stored: StoredKey = {
      kid: randomUUID(),
      privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
    try {
      // "wx": when two processes race to create the key, the first one wins and the other reads it.
      writeFileSync(keyFile, JSON.stringify(stored), { flag: "wx", mode: 0o600 });
      return stored;
    } catch {
      return JSON.parse(readFileSync(keyFile, "utf8")) as StoredKey;
    }
  }
}

/** The issuer's public keys in JWKS form. */
export function devJwks(): { keys: Array<Record<string, unknown>> } {
  const { kid, privateKeyPem } = loadOrCreateKey();
  const jwk = createPublicKey(createPrivateKey(privateKeyPem)).export({ format: "jwk" });
  return { keys: [{ ...jwk, kid, alg: "RS256", use: "sig" }] };
}

const base64url = (input: string | Buffer) => Buffer.from(input).toString("base64url");

/**
 * Signs an RS256 JWT with the dev key; it always carries `exp` (the authorizer refuses tokens without
 * one, or living longer than JWT_MAX_LIFETIME_SECONDS, default 24 h). `expiresInSeconds` may be negative
 * to mint expired tokens in tests; a claim set to `undefined` (e.g. `{ exp: undefined }`) is left out.
 */
export function signDevToken(claims: Record<string, unknown>, expiresInSeconds = 12 * 3600): string {
  const now = Math.floor(Date.now() / 1000);
  return signRs256({
    iss: DEV_ISSUER,
    aud: DEV_AUDIENCE,
    iat: now,
    nbf: now - 5,
    exp: now + expiresInSeconds,
    jti: randomUUID(),
    ...claims,
  });
}

function signRs256(claims: Record<string, unknown>): string {
  const { kid, privateKeyPem } = loadOrCreateKey();
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), createPrivateKey(privateKeyPem));
  return `${header}.${payload}.${base64url(signature)}`;
}

/**
 * Signs an access token as the runner's `POST /oauth2/token` issues it (the shape of a Cognito
 * client-credentials access token): the given claims plus `iss` and a fresh `jti`, no `aud`.
 */
export function signDevAccessToken(claims: AccessTokenClaims): string {
  return signRs256({ iss: DEV_ISSUER, ...claims, jti: randomUUID() });
}

/** The dev issuer as the token endpoint's signer port. */
export const devAccessTokenSigner: AccessTokenSigner = {
  sign: async (claims) => signDevAccessToken(claims),
};

export interface ForwarderClaims {
  forwarderId: string;
  agentCode: string;
  agentCass: string;
  station?: string;
}

export const forwarderClaims = (c: ForwarderClaims) => ({
  sub: c.forwarderId,
  role: "forwarder",
  forwarder_id: c.forwarderId,
  agent_code: c.agentCode,
  agent_cass: c.agentCass,
  ...(c.station ? { agent_station: c.station } : {}),
});
export const carrierClaims = (prefix: string) => ({
  sub: `carrier-${prefix}`,
  role: "carrier",
  carrier_prefix: prefix,
});
export const supportClaims = () => ({ sub: "support", role: "support" });
