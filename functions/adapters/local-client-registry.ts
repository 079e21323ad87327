/**
 * The local ClientRegistry: generates client ids shaped like Cognito app client ids (26 characters,
 * lowercase letters and digits) and secrets of 288 random bits (48 characters, base64url). Only an
 * scrypt hash of the secret is kept (`scrypt$<salt>$<hash>`, base64url), on the tenant table's client
 * record, where the local token endpoint verifies it with `verifyClientSecret`.
 */
import { randomBytes, randomInt, scryptSync, timingSafeEqual } from "node:crypto";
import type { ClientRegistry } from "../core/ports/tenants.ts";

const CLIENT_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const CLIENT_ID_LENGTH = 26;
const SECRET_BYTES = 36;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

const newClientId = (): string =>
  Array.from(
    { length: CLIENT_ID_LENGTH },
    () => CLIENT_ID_ALPHABET[randomInt(CLIENT_ID_ALPHABET.length)],
  ).join("");

/** `scrypt$<salt>$<hash>` of a secret, with a fresh random salt. */
export function hashClientSecret(secret: string): string {
  const salt = randomBytes(SALT_BYTES);
  const hash = scryptSync(secret, salt, HASH_BYTES);
  return `scrypt$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

/** True when `secret` is the one `secretHash` was made from (constant time); false for a malformed hash. */
export function verifyClientSecret(secretHash: string, secret: string): boolean {
  const [scheme, salt, hash, ...rest] = secretHash.split("$");
  if (scheme !== "scrypt" || !salt || !hash || rest.length > 0) return false;
  const expected = Buffer.from(hash, "base64url");
  if (expected.length !== HASH_BYTES) return false;
  const actual = scryptSync(secret, Buffer.from(salt, "base64url"), HASH_BYTES);
  return timingSafeEqual(actual, expected);
}

export function localClientRegistry(): ClientRegistry {
  return {
    async register() {
      const clientSecret = randomBytes(SECRET_BYTES).toString("base64url");
      return { clientId: newClientId(), clientSecret, secretHash: hashClientSecret(clientSecret) };
    },
    // Nothing to remove: the local token endpoint refuses a client whose record is gone.
    async deregister() {},
  };
}
