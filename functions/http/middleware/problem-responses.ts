/**
 * Registered last, so its onError runs first: every error becomes a problem+json answer through the
 * one table in functions/http/problems.ts. A ProblemError passes as is; anything the table does not
 * know is a 500 logged with the request id, with no internals in the body. request-context then adds
 * the headers and the API Gateway shape.
 */
import { logger } from "../../adapters/logger.ts";
import { IngestInterruptedError } from "../../core/errors.ts";
import type { Identity } from "../../core/identity.ts";
import { ProblemError, problemBody, toProblem } from "../problems.ts";
import {
  type GatewayMiddleware,
  type GatewayRequest,
  type HttpResult,
  requestIdOf,
  stateIfAny,
} from "../request.ts";

/** Answered with what was applied, so it is not "unexpected": log what stopped it here. */
function logInterrupted(error: IngestInterruptedError, identity: Identity | null | undefined): void {
  logger.error("carrier messages partly applied", {
    ...(identity?.role === "carrier" ? { carrier: identity.carrierPrefix } : {}),
    applied: error.applied.length,
    failedMessage: error.failedMessage,
    error: error.cause instanceof Error ? error.cause : String(error.cause),
  });
}

function answer(request: GatewayRequest): HttpResult {
  const { error } = request;
  if (error instanceof IngestInterruptedError) logInterrupted(error, stateIfAny(request.event)?.identity);
  const problem = toProblem(error);
  if (problem instanceof ProblemError)
    return { status: problem.status, body: problem.toBody(), headers: problem.headers };
  const requestId = requestIdOf(request);
  logger.error("unexpected error", { requestId, error: error instanceof Error ? error : String(error) });
  return {
    status: 500,
    body: problemBody(500, "internal", `Unexpected error; quote request id ${requestId} to support.`),
  };
}

export function problemResponses(): GatewayMiddleware {
  return {
    onError: (request) => {
      // Set, not returned: a returned value would stop the chain before request-context's onError.
      request.response = answer(request) as unknown as typeof request.response;
    },
  };
}
