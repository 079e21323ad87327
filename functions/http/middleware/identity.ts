/**
 * The caller's identity from the authorizer's claims (API Gateway ran the TOKEN authorizer), checked
 * against the roles the route table allows: 401 without claims, 403 for another role.
 */
import type { APIGatewayProxyEvent } from "aws-lambda";
import type { RouteDefinition } from "../../contracts/routes.ts";
import { type Identity, identityFromClaims } from "../../core/identity.ts";
import { ProblemError } from "../problems.ts";
import { type GatewayMiddleware, stateOf } from "../request.ts";

function identityOf(event: APIGatewayProxyEvent, route: RouteDefinition): Identity {
  const claims = (event.requestContext?.authorizer ?? {}) as Record<string, unknown>;
  const parsed = identityFromClaims(claims);
  // Reaching a handler without authorizer claims means the route was wired without the authorizer.
  if (!parsed.ok) throw new ProblemError(401, "unauthorized", "A valid bearer token is required.");
  if (route.roles !== "public" && !route.roles.includes(parsed.identity.role)) {
    throw new ProblemError(
      403,
      "forbidden",
      `This operation is not allowed for role ${parsed.identity.role}.`,
    );
  }
  return parsed.identity;
}

export function identity(route: RouteDefinition): GatewayMiddleware {
  return {
    before: (request) => {
      stateOf(request.event).identity = identityOf(request.event, route);
    },
  };
}
