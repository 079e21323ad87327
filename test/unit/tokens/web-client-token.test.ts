/**
 * Issue 14: a person signed in through the web app's hosted login (lib/constructs/identity.ts
 * addWebAppClient: public client, authorization code with PKCE, scopes `openid routemap/forwarder`)
 * calls the API with Cognito's ACCESS token. The token is built as Cognito builds it: its standard
 * access-token claims (client_id = the web client, token_use access, no aud, username, auth_time),
 * plus what the real pre-token-generation trigger (V3) returns for the person, signed with a local
 * key standing in for the pool's. The authorizer accepts it as the linked forwarder, and refuses the
 * ID token of the same sign-in, a token without the trigger's claims, one without the forwarder
 * scope, and one from another pool.
 */
import { generateKeyPairSync, type KeyObject, randomUUID, sign } from "node:crypto";
import type { APIGatewayTokenAuthorizerEvent } from "aws-lambda";
import { beforeAll, describe, expect, it } from "vitest";
import { configFrom } from "../../../functions/adapters/config.ts";
import { createTokenVerifier } from "../../../functions/adapters/token-verifier.ts";
import { DEFAULT_JWT_AUDIENCE } from "../../../functions/contracts/settings.ts";
import type { Tenant } from "../../../functions/core/tenants/tenants.ts";
import {
  make as makeTrigger,
  type PreTokenGenerationEvent,
} from "../../../functions/handlers/cognito/pre-token-generation.ts";
import { make as makeAuthorizer } from "../../../functions/handlers/http/authorizer.ts";
import { WEB_APP_SCOPE_NAMES } from "../../../lib/constructs/identity.ts";
import { memoryForwarderUserRepository } from "../../support/memory/forwarder-user-repository.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

/** The verifier's settings as the authorizer reads them (functions/adapters/config.ts). */
const tokenVerifierConfigFromEnv = (env: Record<string, string>) => configFrom(env).tokenVerifier();

const POOL_ID = "eu-central-1_Example1";
const ISSUER = `https://cognito-idp.eu-central-1.amazonaws.com/${POOL_ID}`;
const WEB_CLIENT_ID = "4web0app0client0id0example";
const PERSON = "5f0c2f1e-1111-4a4a-9b9b-000000000001";
const NOW = "2026-11-24T10:00:00.000Z";

const forwarder: Tenant = {
  kind: "forwarder",
  forwarderId: "DEMOFWD",
  agentCode: "1234567",
  agentCass: "8901",
  agentStation: "FRA",
  contactEmail: "ops@forwarder.example",
  enabled: true,
  createdAt: NOW,
  updatedAt: NOW,
};

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  jwks: { keys: Array<Record<string, unknown>> };
}

function signingKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = randomUUID();
  return {
    kid,
    privateKey,
    jwks: { keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] },
  };
}

function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ kid: key.kid, alg: "RS256" })}.${part(claims)}`;
  return `${unsigned}.${sign("RSA-SHA256", Buffer.from(unsigned), key.privateKey).toString("base64url")}`;
}

/** Cognito's V3 event when a person completes the hosted login through the web app's client. */
function hostedLoginEvent(scopes: string[]): PreTokenGenerationEvent {
  return {
    version: "3",
    triggerSource: "TokenGeneration_HostedAuth",
    region: "eu-central-1",
    userPoolId: POOL_ID,
    userName: PERSON,
    callerContext: { awsSdkVersion: "aws-sdk-unknown-unknown", clientId: WEB_CLIENT_ID },
    request: {
      userAttributes: { sub: PERSON, email: "anna@forwarder.example", email_verified: "true" },
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] },
      scopes,
    },
    response: { claimsAndScopeOverrideDetails: {} },
  };
}

let poolKey: SigningKey;
let otherPoolKey: SigningKey;
/** What the trigger put into the person's tokens. */
let accessCustomization: { claims: Record<string, string>; scope: string };
let idClaims: Record<string, string>;

beforeAll(async () => {
  poolKey = signingKey();
  otherPoolKey = signingKey();
  const tenants = memoryTenantRepository();
  const users = memoryForwarderUserRepository();
  await tenants.createTenant(forwarder);
  await users.createUser({
    userId: PERSON,
    email: "anna@forwarder.example",
    forwarderId: "DEMOFWD",
    createdAt: NOW,
  });
  const requested = WEB_APP_SCOPE_NAMES.split(" ");
  const event = await makeTrigger(() => ({ tenants, users }))(hostedLoginEvent(requested));
  const details = event.response.claimsAndScopeOverrideDetails;
  const access = details?.accessTokenGeneration;
  // Cognito's scope claim: what the client asked for, plus the trigger's additions, minus its suppressions.
  const scopes = [...requested, ...(access?.scopesToAdd ?? [])].filter(
    (scope, index, all) => all.indexOf(scope) === index && !(access?.scopesToSuppress ?? []).includes(scope),
  );
  accessCustomization = {
    claims: (access?.claimsToAddOrOverride ?? {}) as Record<string, string>,
    scope: scopes.join(" "),
  };
  idClaims = (details?.idTokenGeneration?.claimsToAddOrOverride ?? {}) as Record<string, string>;
});

/** An access token as Cognito issues it to the web app's client after the hosted login. */
function personAccessToken(overrides: Record<string, unknown> = {}, key = poolKey): string {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    sub: PERSON,
    iss: ISSUER,
    version: 2,
    client_id: WEB_CLIENT_ID,
    origin_jti: randomUUID(),
    event_id: randomUUID(),
    token_use: "access",
    scope: accessCustomization.scope,
    auth_time: now,
    exp: now + 3600,
    iat: now,
    jti: randomUUID(),
    username: PERSON,
    ...accessCustomization.claims,
    ...overrides,
  };
  return signJwt(key, Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined)));
}

/** The authorizer's verifier as deployed: the pool's issuer, its keys, the API's audience. */
const verifyHeader = (header: string | undefined) =>
  createTokenVerifier(
    tokenVerifierConfigFromEnv({
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: DEFAULT_JWT_AUDIENCE,
      JWKS_JSON: JSON.stringify(poolKey.jwks),
    }),
  )(header);
const verify = (token: string) => verifyHeader(`Bearer ${token}`);

describe("a person's access token from the web app's client", () => {
  it("carries the forwarder scope and the linked forwarder's claims from the trigger", () => {
    expect(accessCustomization.scope.split(" ").sort()).toEqual(["openid", "routemap/forwarder"]);
    expect(accessCustomization.claims).toEqual({
      role: "forwarder",
      forwarder_id: "DEMOFWD",
      agent_code: "1234567",
      agent_cass: "8901",
      agent_station: "FRA",
    });
  });

  it("is accepted as the linked forwarder", async () => {
    const token = personAccessToken();
    const { exp } = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      exp: number;
    };
    expect(await verify(token)).toEqual({
      ok: true,
      identity: {
        role: "forwarder",
        forwarderId: "DEMOFWD",
        agentCode: "1234567",
        agentCass: "8901",
        agentStation: "FRA",
      },
      expiresAt: exp,
    });
  });

  it("lets the TOKEN authorizer allow the whole stage (every method: API Gateway caches the decision per token) with the forwarder in its context", async () => {
    const event: APIGatewayTokenAuthorizerEvent = {
      type: "TOKEN",
      authorizationToken: `Bearer ${personAccessToken()}`,
      methodArn:
        "arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/GET/ffw/service/routemap/02012345675",
    };
    const result = await makeAuthorizer(() => verifyHeader)(event);
    expect(result.principalId).toBe("DEMOFWD");
    expect(result.policyDocument.Statement).toEqual([
      {
        Action: "execute-api:Invoke",
        Effect: "Allow",
        Resource: "arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/*/*",
      },
    ]);
    // The app's next call with the same token is a POST: the cached policy must cover it.
    const allows = (arn: string) =>
      result.policyDocument.Statement.some((statement) =>
        new RegExp(
          `^${String("Resource" in statement ? statement.Resource : "")
            .replace(/[.]/g, "\\.")
            .replace(/\*/g, ".*")}$`,
        ).test(arn),
      );
    expect(
      allows(
        "arn:aws:execute-api:eu-central-1:123456789012:abc123/v1/POST/ffw/service/routemap/02012345675/share",
      ),
    ).toBe(true);
    expect(
      allows("arn:aws:execute-api:eu-central-1:123456789012:other1/v1/GET/ffw/service/routemap/02012345675"),
    ).toBe(false);
    expect(result.context).toMatchObject({
      role: "forwarder",
      forwarder_id: "DEMOFWD",
      agent_code: "1234567",
    });
  });
});

describe("refused", () => {
  it("the ID token of the same sign-in (its audience is the web client, not the API)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const idToken = signJwt(poolKey, {
      sub: PERSON,
      aud: WEB_CLIENT_ID,
      email_verified: true,
      iss: ISSUER,
      "cognito:username": PERSON,
      origin_jti: randomUUID(),
      event_id: randomUUID(),
      token_use: "id",
      auth_time: now,
      exp: now + 3600,
      iat: now,
      jti: randomUUID(),
      email: "anna@forwarder.example",
      ...idClaims,
    });
    expect(await verify(idToken)).toEqual({
      ok: false,
      reason: `token audience must be ${DEFAULT_JWT_AUDIENCE}`,
    });
  });

  it("an access token without the trigger's claims (no role)", async () => {
    const token = personAccessToken({
      role: undefined,
      forwarder_id: undefined,
      agent_code: undefined,
      agent_cass: undefined,
      agent_station: undefined,
    });
    expect(await verify(token)).toEqual({
      ok: false,
      reason: "role claim must be forwarder, carrier or support",
    });
  });

  it("an access token without the forwarder scope", async () => {
    expect(await verify(personAccessToken({ scope: "openid" }))).toEqual({
      ok: false,
      reason: "access token scope must include routemap/forwarder",
    });
  });

  it("an access token signed by another pool's key", async () => {
    expect(await verify(personAccessToken({}, otherPoolKey))).toMatchObject({ ok: false });
  });

  it("an access token of another pool (issuer)", async () => {
    const result = await verify(
      personAccessToken({ iss: "https://cognito-idp.eu-central-1.amazonaws.com/eu-central-1_Other" }),
    );
    expect(result).toMatchObject({ ok: false });
  });
});
