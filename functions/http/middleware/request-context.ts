/**
 * First in, last out: gives the request its id and the logger its keys (request id, route), and
 * turns whatever answers (the handler's result, or the problem the problem-responses middleware made
 * of an error) into the API Gateway result: JSON or problem+json, with x-request-id on every answer.
 */
import type { APIGatewayProxyResult } from "aws-lambda";
import { logger } from "../../adapters/logger.ts";
import type { RouteDefinition } from "../../contracts/routes.ts";
import { PROBLEM_CONTENT_TYPE } from "../problems.ts";
import {
  type GatewayMiddleware,
  type GatewayRequest,
  type HttpResult,
  requestIdOf,
  startRequest,
} from "../request.ts";

function toGatewayResult(result: HttpResult, requestId: string): APIGatewayProxyResult {
  return {
    statusCode: result.status,
    headers: {
      "content-type": result.status >= 400 ? PROBLEM_CONTENT_TYPE : "application/json",
      "x-request-id": requestId,
      ...result.headers,
    },
    body: result.rawJson ?? result.text ?? (result.body === undefined ? "" : JSON.stringify(result.body)),
  };
}

function finish(request: GatewayRequest): void {
  // The handler (or problem-responses) answered an HttpResult; API Gateway wants its own shape.
  const result = request.response as unknown as HttpResult | null | undefined;
  if (result) request.response = toGatewayResult(result, requestIdOf(request));
  logger.removeKeys(["requestId", "route"]);
}

export function requestContext(route: RouteDefinition): GatewayMiddleware {
  const routeKey = `${route.method} ${route.path}`;
  return {
    before: (request) => {
      const requestId = requestIdOf(request);
      logger.appendKeys({ requestId, route: routeKey });
      startRequest(request, {
        route,
        requestId,
        identity: null,
        body: undefined,
        rawBody: "",
        contentType: "",
        params: {},
        query: undefined,
      });
    },
    after: finish,
    onError: finish,
  };
}
