/**
 * Issue 12: the authorizer's token verifier accepts Cognito-shaped access tokens (token_use access,
 * client_id, the role's scope, no aud) as well as tokens naming JWT_AUDIENCE (the dev shortcut), and
 * refuses a missing or wrong scope, a missing client_id, a foreign audience and a token without exp.
 * Tokens are signed by the dev issuer.
 */
import { describe, expect, it } from "vitest";
import {
  carrierClaims,
  DEV_AUDIENCE,
  DEV_ISSUER,
  devJwks,
  forwarderClaims,
  signDevAccessToken,
  signDevToken,
  supportClaims,
} from "../../../bin/dev-issuer.ts";
import { configFrom } from "../../../functions/adapters/config.ts";
import { audienceOrScopeProblem, createTokenVerifier } from "../../../functions/adapters/token-verifier.ts";
import { identityFromClaims } from "../../../functions/core/identity.ts";

/** The verifier's settings as the authorizer reads them (functions/adapters/config.ts). */
const tokenVerifierConfigFromEnv = (env: Record<string, string>) => configFrom(env).tokenVerifier();

const verify = createTokenVerifier(
  tokenVerifierConfigFromEnv({
    JWT_ISSUER: DEV_ISSUER,
    JWT_AUDIENCE: DEV_AUDIENCE,
    JWKS_JSON: JSON.stringify(devJwks()),
  }),
);
const bearer = (token: string) => verify(`Bearer ${token}`);
const forwarder = forwarderClaims({ forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001" });
/** A Cognito-shaped access token through signDevToken: no aud, token_use access. */
const access = (claims: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  signDevToken({ ...claims, aud: undefined, token_use: "access", client_id: "client-1", ...extra });

/** The token's exp claim, which the verifier hands on with the identity. */
const expOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { exp: number }).exp;

describe("access tokens (client credentials)", () => {
  it("accepts an access token with the role's scope and no aud", async () => {
    const token = access(forwarder, { scope: "routemap/forwarder" });
    expect(await bearer(token)).toEqual({
      ok: true,
      identity: {
        role: "forwarder",
        forwarderId: "ACMECARGO",
        agentCode: "1234567",
        agentCass: "0001",
        agentStation: null,
      },
      expiresAt: expOf(token),
    });
    expect(await bearer(access(carrierClaims("020"), { scope: "openid routemap/carrier" }))).toMatchObject({
      ok: true,
      identity: { role: "carrier", carrierPrefix: "020" },
    });
  });

  it("accepts what the token endpoint signs, with the support subject from support_subject", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = signDevAccessToken({
      sub: "client-9",
      client_id: "client-9",
      token_use: "access",
      scope: "routemap/support",
      iat: now,
      exp: now + 3600,
      role: "support",
      support_subject: "ops-team",
    });
    expect(await bearer(token)).toEqual({
      ok: true,
      identity: { role: "support", subject: "ops-team" },
      expiresAt: now + 3600,
    });
  });

  it("refuses a wrong, missing or partial scope", async () => {
    for (const scope of ["routemap/carrier", "routemap/support", "routemap/forwarderx", "", undefined]) {
      const result = await bearer(access(forwarder, { scope }));
      expect(result, String(scope)).toEqual({
        ok: false,
        reason: "access token scope must include routemap/forwarder",
      });
    }
    expect(await bearer(access(forwarder, { scope: ["routemap/forwarder"] }))).toMatchObject({ ok: false });
  });

  it("refuses an access token without client_id, without role, with a foreign aud, or without exp", async () => {
    expect(await bearer(access(forwarder, { scope: "routemap/forwarder", client_id: "" }))).toEqual({
      ok: false,
      reason: "access token has no client_id",
    });
    expect(
      await bearer(access(forwarder, { scope: "routemap/forwarder", client_id: undefined })),
    ).toMatchObject({
      ok: false,
    });
    expect(
      await bearer(access({ ...forwarder, role: "admin" }, { scope: "routemap/forwarder" })),
    ).toMatchObject({
      ok: false,
      reason: "role claim must be forwarder, carrier or support",
    });
    expect(await bearer(access(forwarder, { scope: "routemap/forwarder", aud: "elsewhere" }))).toEqual({
      ok: false,
      reason: `token audience must be ${DEV_AUDIENCE}`,
    });
    expect(await bearer(access(forwarder, { scope: "routemap/forwarder", exp: undefined }))).toEqual({
      ok: false,
      reason: "token has no exp claim",
    });
  });

  it("still accepts audience tokens (npm run token) and refuses tokens with neither audience nor access use", async () => {
    expect((await bearer(signDevToken(forwarder))).ok).toBe(true);
    expect((await bearer(signDevToken(supportClaims()))).ok).toBe(true);
    expect(await bearer(signDevToken({ ...forwarder, aud: undefined }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no audience/),
    });
    expect(await bearer(signDevToken({ ...forwarder, aud: undefined, token_use: "id" }))).toMatchObject({
      ok: false,
    });
    expect((await bearer(signDevToken({ ...forwarder, aud: ["other", DEV_AUDIENCE] }))).ok).toBe(true);
  });
});

describe("audienceOrScopeProblem", () => {
  it("checks an aud array and scopes as whole space-separated words", () => {
    const base = { role: "carrier", token_use: "access", client_id: "c" };
    expect(audienceOrScopeProblem({ ...base, scope: "routemap/carrier" }, "aud")).toBeNull();
    expect(
      audienceOrScopeProblem({ ...base, scope: "routemap/carrier", aud: ["x", "aud"] }, "aud"),
    ).toBeNull();
    expect(audienceOrScopeProblem({ ...base, scope: "xroutemap/carrier" }, "aud")).toMatch(/scope/);
    expect(audienceOrScopeProblem({ ...base, scope: "routemap/carrier", aud: [] }, "aud")).toMatch(
      /audience/,
    );
    expect(audienceOrScopeProblem({ role: "carrier" }, "aud")).toMatch(/no audience/);
  });
});

describe("support identity", () => {
  it("takes the subject from support_subject, else sub, else 'support'", () => {
    expect(identityFromClaims({ role: "support", support_subject: "ops", sub: "client-1" })).toEqual({
      ok: true,
      identity: { role: "support", subject: "ops" },
    });
    expect(identityFromClaims({ role: "support", sub: "alice" })).toEqual({
      ok: true,
      identity: { role: "support", subject: "alice" },
    });
    expect(identityFromClaims({ role: "support", support_subject: "" })).toEqual({
      ok: true,
      identity: { role: "support", subject: "support" },
    });
  });
});
