/** The local client registry: Cognito-shaped client ids, secrets shown once, scrypt hashes verified. */
import { describe, expect, it } from "vitest";
import {
  hashClientSecret,
  localClientRegistry,
  verifyClientSecret,
} from "../../../functions/adapters/local-client-registry.ts";

const ref = { kind: "forwarder", forwarderId: "DEMOFWD" } as const;

describe("localClientRegistry", () => {
  it("issues 26-character lowercase ids and 48-character base64url secrets, never the same twice", async () => {
    const registry = localClientRegistry();
    const issued = await Promise.all(
      Array.from({ length: 5 }, () =>
        registry.register({ tenant: ref, scope: "routemap/forwarder", name: null }),
      ),
    );
    for (const credential of issued) {
      expect(credential.clientId).toMatch(/^[a-z0-9]{26}$/);
      expect(credential.clientSecret).toMatch(/^[A-Za-z0-9_-]{48}$/);
      expect(credential.secretHash).toMatch(/^scrypt\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
      expect(credential.secretHash).not.toContain(credential.clientSecret);
    }
    expect(new Set(issued.map((c) => c.clientId)).size).toBe(5);
    expect(new Set(issued.map((c) => c.clientSecret)).size).toBe(5);
  });

  it("the hash verifies its secret only", async () => {
    const { clientSecret, secretHash } = await localClientRegistry().register({
      tenant: ref,
      scope: "routemap/forwarder",
      name: "ops",
    });
    if (secretHash === null) throw new Error("the local registry keeps a hash");
    expect(verifyClientSecret(secretHash, clientSecret)).toBe(true);
    expect(verifyClientSecret(secretHash, `${clientSecret}x`)).toBe(false);
    expect(verifyClientSecret(secretHash, "")).toBe(false);
  });

  it("salts each hash, and a malformed hash verifies nothing", () => {
    expect(hashClientSecret("same")).not.toBe(hashClientSecret("same"));
    for (const malformed of [
      "",
      "scrypt$",
      "bcrypt$abc$def",
      "scrypt$c2FsdA$c2hvcnQ",
      `${hashClientSecret("s")}$x`,
    ]) {
      expect(verifyClientSecret(malformed, "s")).toBe(false);
    }
  });

  it("deregister is a no-op that never fails (the record's deletion is what refuses)", async () => {
    await expect(localClientRegistry().deregister("anything")).resolves.toBeUndefined();
  });
});
