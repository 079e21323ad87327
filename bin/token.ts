/**
 * Prints a bearer JWT from the local dev issuer (DESIGN.md section 7):
 *   npm run --silent token -- forwarder ACMECARGO --agent 1234567 --cass 0001 [--station FRA]
 *   npm run --silent token -- carrier 020
 *   npm run --silent token -- support
 * Options: --expires-in <seconds> (default 43200; at most JWT_MAX_LIFETIME_SECONDS, default 86400,
 * since the authorizer refuses longer-lived tokens).
 * A dev shortcut: real clients use OAuth 2.0 client credentials at `POST /oauth2/token` (the runner
 * serves it locally, Cognito in AWS), with the credentials support issued them.
 */
import { parseArgs } from "node:util";
import { DEFAULT_JWT_MAX_LIFETIME_SECONDS, SETTINGS_ENV } from "../functions/contracts/settings.ts";
import {
  FORWARDER_IDENTIFIER_PATTERN,
  FORWARDER_IDENTIFIER_RULE,
} from "../functions/core/tenants/tenants.ts";
import { carrierClaims, forwarderClaims, signDevToken, supportClaims } from "./dev-issuer.ts";

const USAGE = `usage:
  npm run --silent token -- forwarder <ForwarderIdentifier> --agent <7 digits> --cass <4 digits> [--station XXX]
  npm run --silent token -- carrier <3-digit prefix>
  npm run --silent token -- support
  options: --expires-in <seconds> (at most JWT_MAX_LIFETIME_SECONDS, default 86400)
  a dev shortcut: real clients get tokens from POST /oauth2/token with their client credentials`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    agent: { type: "string" },
    cass: { type: "string" },
    station: { type: "string" },
    "expires-in": { type: "string" },
  },
});

const [role, subject] = positionals;
const expiresIn = values["expires-in"] === undefined ? undefined : Number(values["expires-in"]);
if (expiresIn !== undefined && !Number.isInteger(expiresIn))
  fail("--expires-in must be a whole number of seconds");
const maxLifetime = Number(
  process.env[SETTINGS_ENV.jwtMaxLifetimeSeconds] || DEFAULT_JWT_MAX_LIFETIME_SECONDS,
);
if (expiresIn !== undefined && expiresIn > maxLifetime)
  fail(`--expires-in must be at most ${maxLifetime} seconds (the authorizer refuses longer-lived tokens)`);

let claims: Record<string, unknown>;
switch (role) {
  case "forwarder": {
    if (!subject) fail("forwarder needs a ForwarderIdentifier");
    // As onboarding: receivers validate the id in every event payload against this pattern.
    if (!FORWARDER_IDENTIFIER_PATTERN.test(subject))
      fail(`the ForwarderIdentifier ${subject} ${FORWARDER_IDENTIFIER_RULE}, e.g. ACMECARGO`);
    if (!values.agent || !/^\d{7}$/.test(values.agent)) fail("--agent must be 7 digits");
    if (!values.cass || !/^\d{4}$/.test(values.cass)) fail("--cass must be 4 digits");
    if (values.station !== undefined && !/^[A-Z]{3}$/.test(values.station))
      fail("--station must be 3 capital letters");
    claims = forwarderClaims({
      forwarderId: subject,
      agentCode: values.agent,
      agentCass: values.cass,
      ...(values.station ? { station: values.station } : {}),
    });
    break;
  }
  case "carrier":
    if (!subject || !/^\d{3}$/.test(subject)) fail("carrier needs a 3-digit airline prefix");
    claims = carrierClaims(subject);
    break;
  case "support":
    claims = supportClaims();
    break;
  default:
    fail(`unknown role ${role ?? "(none)"}`);
}

process.stdout.write(`${signDevToken(claims, expiresIn)}\n`);
