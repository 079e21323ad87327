/**
 * The caller's identity from the authorizer's claims (API Gateway ran the TOKEN authorizer), checked
 * against the roles the route table allows: 401 without claims, 403 for another role.
 *
 * Expiry: API Gateway caches the authorizer's Allow per token for minutes, whatever the token's
 * `exp`, and so does the local runner. The authorizer therefore passes the token's `exp` in its
 * context, and a token whose `exp` has passed is refused here (401) from that second on, cached or
 * not. Judged by the wall clock (the issuer's), never the local fake clock. A context without `exp`
 * (an authorizer answer cached before it carried one, at most one cache period old) is let through:
 * the authorizer checked that token's expiry when it allowed it.
 */
import type { APIGatewayProxyEvent } from "aws-lambda";
import { wallClockSeconds } from "../../adapters/clock.ts";
import type { RouteDefinition } from "../../contracts/routes.ts";
import { type Identity, identityFromClaims } from "../../core/identity.ts";
import { ProblemError } from "../problems.ts";
import { type GatewayMiddleware, stateOf } from "../request.ts";

const unauthorized = () => new ProblemError(401, "unauthorized", "A valid bearer token is required.");

/**
 * The token's `exp` from the authorizer context (API Gateway may hand context numbers over as
 * strings): a number of seconds, null when absent, NaN when malformed.
 */
function expiryOf(claims: Record<string, unknown>): number | null {
  const { exp } = claims;
  if (exp === undefined || exp === null || exp === "") return null;
  if (typeof exp === "number") return exp;
  if (typeof exp === "string" && /^\d{1,12}$/.test(exp)) return Number(exp);
  return Number.NaN;
}

function identityOf(event: APIGatewayProxyEvent, route: RouteDefinition, nowSeconds: number): Identity {
  const claims = (event.requestContext?.authorizer ?? {}) as Record<string, unknown>;
  const parsed = identityFromClaims(claims);
  // Reaching a handler without authorizer claims means the route was wired without the authorizer.
  if (!parsed.ok) throw unauthorized();
  const exp = expiryOf(claims);
  // RFC 7519 section 4.1.4: not accepted on or after exp.
  if (exp !== null && !(nowSeconds < exp)) throw unauthorized();
  if (route.roles !== "public" && !route.roles.includes(parsed.identity.role)) {
    throw new ProblemError(
      403,
      "forbidden",
      `This operation is not allowed for role ${parsed.identity.role}.`,
    );
  }
  return parsed.identity;
}

export function identity(
  route: RouteDefinition,
  nowSeconds: () => number = wallClockSeconds,
): GatewayMiddleware {
  return {
    before: (request) => {
      stateOf(request.event).identity = identityOf(request.event, route, nowSeconds());
    },
  };
}
