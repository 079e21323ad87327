/**
 * The HTTP pipeline: `httpRoute(handlerId, options).handle(fn)` builds the Lambda handler of one route
 * as middy middleware, registered first to last and run in that order before the handler:
 *
 *   tracing -> request-context -> identity -> rate-limit -> request-body -> request-params -> handler
 *   problem-responses (registered last: its onError runs first and maps every error to problem+json)
 *
 * Tracing (functions/adapters/tracer.ts) opens the invocation's X-Ray segment in AWS and does nothing
 * elsewhere. Public routes (the API description) skip identity and rate limit. The handler receives the parsed,
 * authorised request (its identity typed by the route's roles) and returns an HttpResult.
 *
 * What the middleware needs beyond the route (the rate limits, their buckets and counter) comes in as
 * `pipeline`, the second parameter of each handler's `make`: `handler = make(deps, httpPipeline)`
 * (functions/wiring.ts). Without it (unit tests over memory adapters) the routes are held to the
 * documented default limits, counted in this process.
 */
import middy, { type MiddyfiedHandler } from "@middy/core";
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import type * as v from "valibot";
import { tracing } from "../adapters/tracer.ts";
import { type HandlerId, type RouteDefinition, type RouteOf, routeOf } from "../contracts/routes.ts";
import type { Identity } from "../core/identity.ts";
import {
  DEFAULT_RATE_LIMIT,
  InProcessWindowCounter,
  RateLimiter,
  rateLimitTiersOf,
} from "../core/rate-limit.ts";
import { identity } from "./middleware/identity.ts";
import { problemResponses } from "./middleware/problem-responses.ts";
import { type RateLimitDeps, rateLimit } from "./middleware/rate-limit.ts";
import { requestBody } from "./middleware/request-body.ts";
import { requestContext } from "./middleware/request-context.ts";
import { type ParamParser, requestParams } from "./middleware/request-params.ts";
import { type HttpResult, stateOf } from "./request.ts";

export type { HttpResult } from "./request.ts";

type Roles<H extends HandlerId> = RouteOf<H>["roles"];

/** The identity a route's roles let in: ForwarderIdentity on forwarder-only routes, null on public ones. */
export type IdentityOf<H extends HandlerId> =
  Roles<H> extends readonly (infer Role)[] ? Extract<Identity, { role: Role }> : null;

type Schema = v.GenericSchema | undefined;
type Parsed<S extends Schema> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;
type Parsers = Readonly<Record<string, ParamParser>>;

export interface RouteOptions<B extends Schema, Q extends Schema, P extends Parsers> {
  /** Schema of the JSON body; omit for routes without one or with non-JSON bodies. */
  body?: B;
  /** Leave even a JSON body unparsed (the handler's own parser reports errors by line). */
  rawBody?: boolean;
  /** Parser of each `{param}` of the path (functions/http/params.ts). */
  params?: P;
  /** Schema of the query (the routes the table marks with a `query`). */
  query?: Q;
}

export interface HttpRequest<H extends HandlerId, B extends Schema, Q extends Schema, P extends Parsers> {
  identity: IdentityOf<H>;
  body: Parsed<B>;
  /** Raw body text (for non-JSON content such as Cargo-IMP). */
  rawBody: string;
  contentType: string;
  params: { [K in keyof P]: ReturnType<P[K]> };
  query: Parsed<Q>;
  requestId: string;
  /** Milliseconds left before the Lambda is cut off (the context's remaining time); Infinity without one. */
  timeLeftMs: () => number;
  /** The API's public base URL as the caller reached it (scheme, host, stage), for links. */
  baseUrl: string;
}

/** What the middleware of every route needs: the rate limits and where they are counted. */
export interface PipelineDeps {
  rateLimit: RateLimitDeps;
}

/** The pipeline's dependencies, created on first use (a handler's second `make` parameter). */
export type Pipeline = () => PipelineDeps;

let standalone: PipelineDeps | undefined;

/** Without the wiring: the default limits, no tiers, counted in this process (shared by its routes). */
const standalonePipeline: Pipeline = () => {
  standalone ??= {
    rateLimit: {
      tiers: rateLimitTiersOf(DEFAULT_RATE_LIMIT, { tiers: {}, callerTiers: {}, given: {} }),
      limiter: new RateLimiter(DEFAULT_RATE_LIMIT),
      counter: new InProcessWindowCounter(),
    },
  };
  return standalone;
};

/** What a use case takes as its dependencies (its first parameter): a handler's `make(deps)` type. */
export type DepsOf<F extends (...args: never[]) => unknown> = Parameters<F>[0];

export type HttpHandler = MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

/**
 * Scheme, host and stage the caller used: API Gateway's domain name and the part of its request path
 * before the resource path (the stage on the execute-api domain, nothing on a custom domain); locally
 * the Host header over http.
 */
export function publicBaseUrl(event: APIGatewayProxyEvent): string {
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const domain = event.requestContext?.domainName;
  const host = domain ?? headers.host ?? "localhost";
  const proto = headers["x-forwarded-proto"] ?? (domain ? "https" : "http");
  const fullPath = event.requestContext?.path ?? event.path;
  const prefix = fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : "";
  return `${proto}://${host}${prefix}`;
}

/** Refuses, when the handler module loads, options that contradict the route table. */
function checkAgainstTable(route: RouteDefinition, options: RouteOptions<Schema, Schema, Parsers>): void {
  if (options.body && !route.body)
    throw new Error(`${route.handler}: a body schema on a route without a body`);
  if ((route.query !== undefined) !== (options.query !== undefined))
    throw new Error(`${route.handler}: the query schema must match the route table's query`);
}

export function httpRoute<
  H extends HandlerId,
  B extends Schema = undefined,
  Q extends Schema = undefined,
  P extends Parsers = Record<never, never>,
>(handlerId: H, options: RouteOptions<B, Q, P> = {}, pipelineDeps: Pipeline = standalonePipeline) {
  const route: RouteDefinition = routeOf(handlerId);
  checkAgainstTable(route, options);
  return {
    handle(run: (request: HttpRequest<H, B, Q, P>) => Promise<HttpResult>): HttpHandler {
      const pipeline = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
        .use(tracing())
        .use(requestContext(route));
      if (route.roles !== "public")
        pipeline.use(identity(route)).use(rateLimit(() => pipelineDeps().rateLimit));
      return pipeline
        .use(requestBody(route, { body: options.body, rawBody: options.rawBody }))
        .use(requestParams({ params: options.params, query: options.query }))
        .use(problemResponses())
        .handler(async (event, context) => {
          const state = stateOf(event);
          const remaining = context?.getRemainingTimeInMillis;
          const result = await run({
            // The identity middleware let only the route's roles in (none on public routes).
            identity: state.identity as IdentityOf<H>,
            body: state.body as Parsed<B>,
            rawBody: state.rawBody,
            contentType: state.contentType,
            params: state.params as HttpRequest<H, B, Q, P>["params"],
            query: state.query as Parsed<Q>,
            requestId: state.requestId,
            timeLeftMs:
              typeof remaining === "function"
                ? () => remaining.call(context)
                : () => Number.POSITIVE_INFINITY,
            baseUrl: publicBaseUrl(event),
          });
          // request-context's `after` turns the result into API Gateway's shape.
          return result as unknown as APIGatewayProxyResult;
        });
    },
  };
}
