/**
 * Platform hardening without the runner: the token verifier refuses tokens without `exp`,
 * beyond the maximum lifetime or for another audience, and needs an audience to start; the fake
 * clock's input is bounded.
 */
import { describe, expect, it } from "vitest";
import { DEV_AUDIENCE, DEV_ISSUER, devJwks, forwarderClaims, signDevToken } from "../../bin/dev-issuer.ts";
import { clockAdvance, MAX_CLOCK_OFFSET_MS, MAX_CLOCK_STEP_MS } from "../../bin/local/runner.ts";
import { configFrom } from "../../functions/adapters/config.ts";
import { createTokenVerifier, lifetimeProblem } from "../../functions/adapters/token-verifier.ts";

/** The verifier's settings as the authorizer reads them (functions/adapters/config.ts). */
const tokenVerifierConfigFromEnv = (env: Record<string, string>) => configFrom(env).tokenVerifier();

const NOW = 1_800_000_000;
const env = { JWT_ISSUER: DEV_ISSUER, JWT_AUDIENCE: DEV_AUDIENCE, JWKS_JSON: JSON.stringify(devJwks()) };
const claims = forwarderClaims({ forwarderId: "ACMECARGO", agentCode: "1234567", agentCass: "0001" });

describe("token lifetime", () => {
  it("requires a numeric exp, at most the maximum ahead, and exp - iat within the maximum", () => {
    expect(lifetimeProblem({}, 3600, NOW)).toMatch(/no exp/);
    expect(lifetimeProblem({ exp: "soon" }, 3600, NOW)).toMatch(/no exp/);
    expect(lifetimeProblem({ exp: NOW + 3601 }, 3600, NOW)).toMatch(/expires more than 3600 s/);
    expect(lifetimeProblem({ exp: NOW + 60, iat: NOW - 3600 }, 3600, NOW)).toMatch(/lifetime exceeds/);
    expect(lifetimeProblem({ exp: NOW + 60, iat: "x" }, 3600, NOW)).toMatch(/iat/);
    expect(lifetimeProblem({ exp: NOW + 3600, iat: NOW }, 3600, NOW)).toBeNull();
    expect(lifetimeProblem({ exp: NOW + 60 }, 3600, NOW)).toBeNull();
  });

  it("reads the audience (required) and the maximum lifetime (default 24 h) from the environment", () => {
    expect(tokenVerifierConfigFromEnv(env)).toMatchObject({
      audience: DEV_AUDIENCE,
      maxLifetimeSeconds: 86_400,
    });
    expect(tokenVerifierConfigFromEnv({ ...env, JWT_MAX_LIFETIME_SECONDS: "600" }).maxLifetimeSeconds).toBe(
      600,
    );
    expect(() => tokenVerifierConfigFromEnv({ ...env, JWT_AUDIENCE: "" })).toThrow(/JWT_AUDIENCE/);
    expect(() => tokenVerifierConfigFromEnv({ ...env, JWT_MAX_LIFETIME_SECONDS: "1e400" })).toThrow(
      /JWT_MAX_LIFETIME_SECONDS/,
    );
  });

  it("refuses dev-issuer tokens without exp, too long-lived or for another audience; accepts the CLI default", async () => {
    const verify = createTokenVerifier(tokenVerifierConfigFromEnv(env));
    const bearer = (token: string) => verify(`Bearer ${token}`);
    expect(await bearer(signDevToken({ ...claims, exp: undefined }))).toEqual({
      ok: false,
      reason: "token has no exp claim",
    });
    expect((await bearer(signDevToken(claims, 25 * 3600))).ok).toBe(false);
    expect((await bearer(signDevToken({ ...claims, aud: "elsewhere" }))).ok).toBe(false);
    expect((await bearer(signDevToken({ ...claims, aud: undefined }))).ok).toBe(false);
    expect(await bearer(signDevToken(claims))).toMatchObject({
      ok: true,
      identity: { forwarderId: "ACMECARGO" },
    });
  });
});

describe("POST /__local/clock input", () => {
  it("takes a whole number of milliseconds within one step and the total offset", () => {
    expect(clockAdvance('{"advanceMs": 60000}', 0)).toEqual({ ok: true, advanceMs: 60_000 });
    expect(clockAdvance('{"advanceMs": 0}', 0)).toEqual({ ok: true, advanceMs: 0 });
    expect(clockAdvance(`{"advanceMs": ${MAX_CLOCK_STEP_MS}}`, 0)).toEqual({
      ok: true,
      advanceMs: MAX_CLOCK_STEP_MS,
    });
    for (const body of [
      '{"advanceMs": 1e308}',
      `{"advanceMs": ${MAX_CLOCK_STEP_MS + 1}}`,
      '{"advanceMs": -1}',
      '{"advanceMs": 0.5}',
      '{"advanceMs": "1"}',
      '{"advanceMs": null}',
      "{}",
      "[1]",
      "{",
    ])
      expect(clockAdvance(body, 0).ok, body).toBe(false);
    expect(clockAdvance('{"advanceMs": 2}', MAX_CLOCK_OFFSET_MS - 1).ok).toBe(false);
  });
});
