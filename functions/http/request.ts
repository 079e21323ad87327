/**
 * The request as the middleware chain sees it: what each middleware adds (request id, identity,
 * parsed body, params, query) and the handler's result before request-context turns it into the API
 * Gateway answer.
 */
import type { MiddlewareObj, Request } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type { RouteDefinition } from "../contracts/routes.ts";
import type { Identity } from "../core/identity.ts";

/** What a handler answers: a status with a JSON body (or one already serialised) and extra headers. */
export interface HttpResult {
  status: number;
  body?: unknown;
  /** An already-serialised JSON body (e.g. a stored route map), sent as is without parse/stringify. */
  rawJson?: string;
  /** A non-JSON body (an HTML page) sent as is: the result's headers give its content-type. */
  text?: string;
  headers?: Record<string, string>;
}

export type GatewayRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;
export type GatewayMiddleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

export interface RequestState {
  route: RouteDefinition;
  requestId: string;
  /** null on public routes (no identity middleware). */
  identity: Identity | null;
  body: unknown;
  /** Raw body text (for non-JSON content such as Cargo-IMP). */
  rawBody: string;
  contentType: string;
  params: Record<string, unknown>;
  query: unknown;
}

const STATE = Symbol("http request state");
type EventWithState = APIGatewayProxyEvent & { [STATE]?: RequestState };

/** API Gateway's request id (echoed as x-request-id), else the Lambda invocation's. */
export function requestIdOf(request: GatewayRequest): string {
  return request.event.requestContext?.requestId ?? request.context.awsRequestId;
}

/**
 * Gives this invocation its own state: a copy of the event carries it (never the caller's event
 * object, which a caller may reuse), and the handler receives that copy.
 */
export function startRequest(request: GatewayRequest, state: RequestState): void {
  request.event = { ...request.event, [STATE]: state } as EventWithState;
}

export function stateOf(event: APIGatewayProxyEvent): RequestState {
  const state = (event as EventWithState)[STATE];
  if (!state) throw new Error("the request-context middleware has not run");
  return state;
}

/** The state, when request-context got to create it (error paths may run without). */
export function stateIfAny(event: APIGatewayProxyEvent): RequestState | undefined {
  return (event as EventWithState)[STATE];
}
