/** PKCE of the Cognito sign-in (RFC 7636): the S256 challenge of the RFC's own example, and verifiers. */
import { describe, expect, it } from "vitest";
import { pkceChallenge, randomUrlSafe } from "../../../web/src/lib/pkce.ts";

describe("PKCE", () => {
  it("S256 of RFC 7636 appendix B's verifier is its challenge", async () => {
    expect(await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("verifiers are 43-128 unreserved characters and never repeat", () => {
    const verifier = randomUrlSafe(64);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(randomUrlSafe(64)).not.toBe(verifier);
  });
});
