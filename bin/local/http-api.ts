/**
 * The HTTP API on PORT: turns requests into API Gateway (REST, payload 1.0) proxy events for the same
 * handlers that run in Lambda, after running the same TOKEN authorizer. Unknown paths answer 404 and
 * known paths with another method 405, both problem+json, as the stack's gateway responses do.
 * Besides the API it serves what the identity provider serves in AWS: `/.well-known/jwks.json` and
 * the OAuth 2.0 token endpoint `/oauth2/token` (bin/local/token-endpoint.ts).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import {
  HTTP_FUNCTION_TIMEOUT_SECONDS,
  ROUTES,
  type RouteDefinition,
  routePaths,
} from "../../functions/contracts/routes.ts";
import { PROBLEM_CONTENT_TYPE, problemBody } from "../../functions/http/problems.ts";
import { type LambdaHandler, lambdaContext, loadHandler } from "./lambda.ts";
import { TOKEN_PATH } from "./token-endpoint.ts";

/** API Gateway's own payload limit; the handlers enforce the smaller 256 KB contract limit. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

interface CompiledRoute {
  route: RouteDefinition;
  template: string;
  segments: string[];
}

export interface HttpApiOptions {
  port: number;
  serviceName: string;
  /**
   * Extra local-only endpoints (under /__local/), e.g. the fake clock; return true when handled. Only
   * a support token reaches them (401 without a valid token, 403 for another role).
   */
  localControl?: (request: IncomingMessage, response: ServerResponse, body: string) => Promise<boolean>;
  /** Served at /.well-known/jwks.json so the dev issuer's keys can be fetched like any OIDC issuer's. */
  jwks: unknown;
  /**
   * Serves `/oauth2/token` (OAuth 2.0 client credentials, bin/local/token-endpoint.ts): the identity
   * provider's endpoint (Cognito's domain in AWS), not an API Gateway route. It reads its own body.
   */
  tokenEndpoint?: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  /**
   * The web app under /app/ and its local dev sign-in (bin/local/web-app.ts): public, as CloudFront
   * serves the app in AWS, and outside the support-only /__local/ rule. Returns true when handled.
   */
  webApp?: (request: IncomingMessage, response: ServerResponse, body: string) => Promise<boolean>;
}

export interface HttpApi {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

function compile(serviceName: string): CompiledRoute[] {
  return ROUTES.flatMap((route) =>
    routePaths(route, serviceName).map((template) => ({
      route,
      template,
      segments: template.split("/").filter(Boolean),
    })),
  );
}

/** Literal segments beat parameters (API Gateway's precedence): `/routemap/webhook` before `/{awb}`. */
function matchTemplate(segments: string[], pathSegments: string[]): Record<string, string> | null {
  if (segments.length !== pathSegments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const actual = pathSegments[index] ?? "";
    if (segment.startsWith("{")) {
      if (actual === "") return null;
      params[segment.slice(1, -1)] = actual;
    } else if (segment !== actual) {
      return null;
    }
  }
  return params;
}

function specificity(segments: string[]): number[] {
  return segments.map((segment) => (segment.startsWith("{") ? 0 : 1));
}

function compareSpecificity(a: CompiledRoute, b: CompiledRoute): number {
  const sa = specificity(a.segments);
  const sb = specificity(b.segments);
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    const diff = (sb[i] ?? 0) - (sa[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export function sendProblem(
  response: ServerResponse,
  status: number,
  slug: string,
  detail: string,
  headers: Record<string, string> = {},
  errors: Array<{ field: string; message: string }> = [],
) {
  response.writeHead(status, { "content-type": PROBLEM_CONTENT_TYPE, ...headers });
  response.end(JSON.stringify(problemBody(status, slug, detail, errors)));
}

async function readBody(request: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY_BYTES) return { text: "", tooLarge: true };
    chunks.push(chunk as Buffer);
  }
  return { text: Buffer.concat(chunks).toString("utf8"), tooLarge: false };
}

/** Name -> last value (own data properties, as in the JSON event Lambda receives). */
function lastValues(values: Map<string, string[]>): Record<string, string> {
  return Object.fromEntries([...values].map(([name, list]) => [name, list[list.length - 1] ?? ""]));
}

function allValues(values: Map<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(values);
}

/** API Gateway caches an authorizer's Allow per token for the stack's resultsCacheTtl (5 minutes). */
/**
 * In AWS each concurrent request to a function gets its own execution environment (its own CPU and
 * memory); here they all share one process on a small machine, so a burst of 90 made every one of
 * them slow enough to run past its 10 s timeout, which no deployed stack does. At most this many
 * invocations of one function run at once locally; the rest wait their turn, and a function's
 * timeout counts from when it starts, as Lambda's does.
 */
const LOCAL_CONCURRENT_INVOCATIONS_PER_FUNCTION = 10;

/** A first-come queue of `limit` slots. */
function slots(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async acquire(): Promise<void> {
      if (running < limit) {
        running++;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else running--;
    },
  };
}

const AUTHORIZER_CACHE_MS = 5 * 60_000;
const AUTHORIZER_CACHE_MAX = 10_000;

export async function startHttpApi(options: HttpApiOptions): Promise<HttpApi> {
  const authorizerCache = new Map<string, { context: Record<string, unknown>; expiresAt: number }>();
  const functionSlots = new Map<string, ReturnType<typeof slots>>();
  const slotsOf = (handlerName: string) => {
    let found = functionSlots.get(handlerName);
    if (!found) {
      found = slots(LOCAL_CONCURRENT_INVOCATIONS_PER_FUNCTION);
      functionSlots.set(handlerName, found);
    }
    return found;
  };

  /** Runs the TOKEN authorizer (or reuses its cached Allow); null means 401. */
  async function authorize(
    authorization: string,
    methodAndPath: string,
  ): Promise<Record<string, unknown> | null> {
    const cached = authorizerCache.get(authorization);
    if (cached && cached.expiresAt > Date.now()) return cached.context;
    try {
      const result = (await (
        await authorizer()
      )(
        {
          type: "TOKEN",
          authorizationToken: authorization,
          methodArn: `arn:aws:execute-api:us-east-1:000000000000:local/local/${methodAndPath}`,
        },
        lambdaContext("authorizer"),
      )) as APIGatewayAuthorizerResult;
      const context: Record<string, unknown> = { ...(result.context ?? {}), principalId: result.principalId };
      if (authorizerCache.size >= AUTHORIZER_CACHE_MAX) authorizerCache.clear();
      // The routes refuse an expired token themselves (the identity middleware reads `exp` from this
      // context, as in AWS); /__local/ has no such middleware, so its cached Allow ends at exp too.
      const exp = typeof context.exp === "number" ? context.exp * 1000 : Number.POSITIVE_INFINITY;
      authorizerCache.set(authorization, {
        context,
        expiresAt: Math.min(Date.now() + AUTHORIZER_CACHE_MS, exp),
      });
      return context;
    } catch (error) {
      if (error instanceof Error && error.message === "Unauthorized") return null;
      throw error;
    }
  }
  const compiled = compile(options.serviceName).sort(compareSpecificity);
  const authorizer = () => loadHandler("http", "authorizer");

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://localhost");
    const method = (request.method ?? "GET").toUpperCase();
    if (url.pathname === TOKEN_PATH && options.tokenEndpoint) return options.tokenEndpoint(request, response);
    const { text: body, tooLarge } = await readBody(request);
    if (tooLarge) {
      // The rest of the body is never read: close the connection after the answer, or a keep-alive
      // client would wait forever for a response to the bytes it is still sending.
      response.shouldKeepAlive = false;
      sendProblem(response, 413, "too-large", "Request bodies are limited to 10 MB by the gateway.", {
        connection: "close",
      });
      response.once("finish", () => request.destroy());
      return;
    }
    if (options.webApp && (await options.webApp(request, response, body))) return;
    if (url.pathname.startsWith("/__local/") && options.localControl) {
      const authorization = request.headers.authorization;
      const context = authorization ? await authorize(authorization, `${method}${url.pathname}`) : null;
      if (!context) return sendProblem(response, 401, "unauthorized", "A valid bearer token is required.");
      if (context.role !== "support")
        return sendProblem(response, 403, "forbidden", "Only a support token may call /__local/.");
      if (await options.localControl(request, response, body)) return;
    }
    if (url.pathname === "/.well-known/jwks.json" && method === "GET") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(options.jwks));
      return;
    }
    const pathSegments = url.pathname.split("/").filter(Boolean);
    const candidates = compiled
      .map((entry) => ({ entry, params: matchTemplate(entry.segments, pathSegments) }))
      .filter(
        (candidate): candidate is { entry: CompiledRoute; params: Record<string, string> } =>
          candidate.params !== null,
      );
    if (candidates.length === 0)
      return sendProblem(response, 404, "not-found", `No route for ${url.pathname}.`);
    // The most specific template wins; other methods on that same template make a 405.
    const best = candidates[0]!.entry.template;
    const onTemplate = candidates.filter((candidate) => candidate.entry.template === best);
    const chosen = onTemplate.find((candidate) => candidate.entry.route.method === method);
    if (!chosen) {
      const allowed = onTemplate.map((candidate) => candidate.entry.route.method).join(", ");
      return sendProblem(
        response,
        405,
        "method-not-allowed",
        `${method} is not allowed on ${url.pathname}.`,
        { allow: allowed },
      );
    }

    const requestId = randomUUID();
    // Maps, not plain-object lookups: a header or query named `constructor` or `toString` is data.
    const headerValues = new Map<string, string[]>();
    for (let i = 0; i < request.rawHeaders.length; i += 2) {
      const name = request.rawHeaders[i] ?? "";
      headerValues.set(name, [...(headerValues.get(name) ?? []), request.rawHeaders[i + 1] ?? ""]);
    }
    const headers = lastValues(headerValues);
    const multiValueHeaders = allValues(headerValues);

    let authorizerContext: Record<string, unknown> | null = null;
    if (chosen.entry.route.roles !== "public") {
      const authorization = request.headers.authorization;
      if (!authorization)
        return sendProblem(response, 401, "unauthorized", "A valid bearer token is required.");
      authorizerContext = await authorize(authorization, `${method}${url.pathname}`);
      if (!authorizerContext)
        return sendProblem(response, 401, "unauthorized", "A valid bearer token is required.");
    }

    const queryValues = new Map<string, string[]>();
    for (const [name, value] of url.searchParams)
      queryValues.set(name, [...(queryValues.get(name) ?? []), value]);
    const query = lastValues(queryValues);
    const multiQuery = allValues(queryValues);
    const hasQuery = Object.keys(query).length > 0;
    const hasParams = Object.keys(chosen.params).length > 0;
    const event: APIGatewayProxyEvent = {
      resource: chosen.entry.template,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: hasQuery ? query : null,
      multiValueQueryStringParameters: hasQuery ? multiQuery : null,
      pathParameters: hasParams ? chosen.params : null,
      stageVariables: null,
      body: body.length > 0 ? body : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: "000000000000",
        apiId: "local",
        authorizer: authorizerContext,
        protocol: "HTTP/1.1",
        httpMethod: method,
        identity: {
          sourceIp: request.socket.remoteAddress ?? "127.0.0.1",
          userAgent: request.headers["user-agent"] ?? null,
        } as APIGatewayProxyEvent["requestContext"]["identity"],
        path: url.pathname,
        stage: "local",
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: chosen.entry.route.handler,
        resourcePath: chosen.entry.template,
      },
    };
    const handler: LambdaHandler = await loadHandler("http", chosen.entry.route.handler);
    // The deployed function's timeout: handlers see the same remaining time as in AWS, and one that
    // runs past it gets what API Gateway answers for a timed-out Lambda (502), as in AWS.
    const timeoutMs = HTTP_FUNCTION_TIMEOUT_SECONDS * 1000;
    const functionSlots = slotsOf(chosen.entry.route.handler);
    await functionSlots.acquire();
    const context = lambdaContext(chosen.entry.route.handler, timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const running = handler(event, context);
    // The slot is free when the invocation ends, even one that ran past its timeout (its environment
    // is busy until then).
    running.then(functionSlots.release, functionSlots.release);
    const outcome = await Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
    if (outcome === "timeout") {
      process.stderr.write(`local API: ${chosen.entry.route.handler} timed out after ${timeoutMs} ms\n`);
      return sendProblem(
        response,
        502,
        "function-timeout",
        "The function did not answer within its timeout.",
      );
    }
    const result = outcome as APIGatewayProxyResult;
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
    response.writeHead(result.statusCode, responseHeaders);
    response.end(result.body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // What API Gateway answers when the integration itself fails.
      process.stderr.write(
        `local API: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      if (!response.headersSent) sendProblem(response, 500, "internal", "Unexpected error.");
      else response.end();
    });
  });
  // Idle keep-alive connections stay open 10 minutes. With a shorter timeout (it was 65 s) a client
  // whose event loop is busy for a while (a loaded machine, a long synchronous step) does not see the
  // server's close in time and sends its next request on the closed connection: "other side closed".
  // Locally an idle connection costs nothing; the client's own idle timeout (from the Keep-Alive
  // hint) still ends it first.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
