/**
 * What every HTTP handler shares: structured logging with the request id, problem+json for every
 * failure, the caller's identity from the authorizer context, role checks, body limits, content types,
 * JSON and valibot parsing. A handler file then only maps one request to one use case.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import middy from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import * as v from "valibot";
import { nowMs } from "../../adapters/clock.ts";
import { type Identity, identityFromClaims } from "../../core/identity.ts";
import { RateLimiter, rateLimitConfigFrom } from "../../core/rate-limit.ts";
import { type FieldError, PROBLEM_CONTENT_TYPE, ProblemError, problemBody } from "./problem.ts";
import { ROUTES, type RouteDefinition } from "./routes.ts";

export const logger = new Logger({ serviceName: "route-map-tracker" });

/**
 * Per-caller rate limit of this container (API Gateway's stage throttle caps the total). Approximate
 * across containers by design: exact limits would cost a table write on every request.
 */
const rateLimiter = new RateLimiter(rateLimitConfigFrom(process.env));

function callerKey(identity: Identity): string {
  if (identity.role === "forwarder") return `forwarder:${identity.forwarderId}`;
  if (identity.role === "carrier") return `carrier:${identity.carrierPrefix}`;
  return `support:${identity.subject}`;
}

function enforceRateLimit(identity: Identity): void {
  const decision = rateLimiter.take(callerKey(identity), nowMs());
  if (!decision.allowed) {
    throw new ProblemError(
      429,
      "rate-limited",
      "Too many requests; retry after the given number of seconds.",
      [],
      {
        "retry-after": String(decision.retryAfterSeconds),
      },
    );
  }
}

/** Bodies above this are refused with 413 before any parsing (DESIGN.md section 6). */
export const MAX_BODY_BYTES = 256 * 1024;

export interface HttpRequest<TBody, TIdentity = Identity> {
  identity: TIdentity;
  body: TBody;
  /** Raw body text (for non-JSON content such as Cargo-IMP). */
  rawBody: string;
  contentType: string;
  params: Record<string, string>;
  query: Record<string, string>;
  requestId: string;
}

export interface HttpResult {
  status: number;
  body?: unknown;
  /** An already-serialised JSON body (e.g. a stored route map), sent as is without parse/stringify. */
  rawJson?: string;
  headers?: Record<string, string>;
}

interface Options<TSchema extends v.GenericSchema | undefined> {
  /** Schema of the JSON body; omit for routes without one or with non-JSON bodies. */
  body?: TSchema;
  /** Leave even a JSON body unparsed (the handler's own parser reports errors by line). */
  rawBody?: boolean;
}

type BodyOf<TSchema> = TSchema extends v.GenericSchema ? v.InferOutput<TSchema> : undefined;

function routeFor(handlerId: string): RouteDefinition {
  const route = ROUTES.find((candidate) => candidate.handler === handlerId);
  if (!route) throw new Error(`no route for handler ${handlerId}`);
  return route;
}

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

export function issuesToFieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  return issues.map((issue) => ({
    field: v.getDotPath(issue) ?? "(body)",
    message: issue.message,
  }));
}

function respond(
  status: number,
  body: unknown,
  headers: Record<string, string>,
  requestId: string,
  rawJson?: string,
): APIGatewayProxyResult {
  const isProblem = status >= 400;
  return {
    statusCode: status,
    headers: {
      "content-type": isProblem ? PROBLEM_CONTENT_TYPE : "application/json",
      "x-request-id": requestId,
      ...headers,
    },
    body: rawJson ?? (body === undefined ? "" : JSON.stringify(body)),
  };
}

/** Turns any error into problem+json; unexpected ones are logged with the request id and answered 500. */
export function errorToResponse(error: unknown, requestId: string): APIGatewayProxyResult {
  if (error instanceof ProblemError) return respond(error.status, error.toBody(), error.headers, requestId);
  logger.error("unexpected error", { requestId, error: error instanceof Error ? error : String(error) });
  return respond(
    500,
    problemBody(500, "internal", `Unexpected error; quote request id ${requestId} to support.`),
    {},
    requestId,
  );
}

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

function readBody<TSchema extends v.GenericSchema | undefined>(
  event: APIGatewayProxyEvent,
  route: RouteDefinition,
  schema: TSchema | undefined,
  raw = false,
): { body: BodyOf<TSchema>; rawBody: string; contentType: string } {
  const rawBody = event.body
    ? event.isBase64Encoded
      ? Buffer.from(event.body, "base64").toString("utf8")
      : event.body
    : "";
  if (Buffer.byteLength(rawBody, "utf8") > MAX_BODY_BYTES) {
    throw new ProblemError(413, "too-large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
  }
  const contentType = (header(event, "content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!route.body) return { body: undefined as BodyOf<TSchema>, rawBody, contentType };
  if (!route.body.contentTypes.includes(contentType)) {
    throw new ProblemError(
      415,
      "unsupported-media-type",
      `Content-Type must be ${route.body.contentTypes.join(" or ")}${contentType ? `, not ${contentType}` : ""}.`,
    );
  }
  if (contentType !== "application/json" || raw)
    return { body: undefined as BodyOf<TSchema>, rawBody, contentType };
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new ProblemError(400, "malformed-json", "The request body is not valid JSON.");
  }
  if (!schema) return { body: json as BodyOf<TSchema>, rawBody, contentType };
  const result = v.safeParse(schema, json);
  if (!result.success) {
    throw new ProblemError(
      400,
      "validation",
      "The request body is invalid.",
      issuesToFieldErrors(result.issues),
    );
  }
  return { body: result.output as BodyOf<TSchema>, rawBody, contentType };
}

/**
 * Builds a Lambda handler for the authenticated route whose `handler` id is `handlerId`.
 * `run` receives a parsed, authorised request and returns status + body.
 */
export function httpHandler<TSchema extends v.GenericSchema | undefined = undefined>(
  handlerId: string,
  options: Options<TSchema>,
  run: (request: HttpRequest<BodyOf<TSchema>>) => Promise<HttpResult>,
) {
  const route = routeFor(handlerId);
  if (route.roles === "public") throw new Error(`${handlerId} is public: use publicHttpHandler`);
  return buildHandler(
    route,
    options,
    (event) => {
      const identity = identityOf(event, route);
      enforceRateLimit(identity);
      return identity;
    },
    run,
  );
}

/** The same for the few routes anyone may call (the API description). */
export function publicHttpHandler(
  handlerId: string,
  run: (request: HttpRequest<undefined, null>) => Promise<HttpResult>,
) {
  const route = routeFor(handlerId);
  if (route.roles !== "public") throw new Error(`${handlerId} requires authentication: use httpHandler`);
  return buildHandler<undefined, null>(route, {}, () => null, run);
}

function buildHandler<TSchema extends v.GenericSchema | undefined, TIdentity>(
  route: RouteDefinition,
  options: Options<TSchema>,
  authenticate: (event: APIGatewayProxyEvent) => TIdentity,
  run: (request: HttpRequest<BodyOf<TSchema>, TIdentity>) => Promise<HttpResult>,
) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>().handler(
    async (event, context) => {
      const requestId = event.requestContext?.requestId ?? context.awsRequestId;
      logger.appendKeys({ requestId, route: `${route.method} ${route.path}` });
      try {
        const identity = authenticate(event);
        const { body, rawBody, contentType } = readBody(event, route, options.body, options.rawBody);
        const result = await run({
          identity,
          body,
          rawBody,
          contentType,
          params: definedEntries(event.pathParameters, decodeURIComponent),
          query: definedEntries(event.queryStringParameters, (value) => value),
          requestId,
        });
        return respond(result.status, result.body, result.headers ?? {}, requestId, result.rawJson);
      } catch (error) {
        return errorToResponse(error, requestId);
      } finally {
        logger.removeKeys(["requestId", "route"]);
      }
    },
  );
}

function definedEntries(
  record: Record<string, string | undefined> | null | undefined,
  map: (value: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record ?? {})) if (value !== undefined) out[key] = map(value);
  return out;
}
