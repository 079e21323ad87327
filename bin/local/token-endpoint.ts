/**
 * The local `POST /oauth2/token`: OAuth 2.0 client credentials the way Cognito's token
 * endpoint answers them, so a client written against the runner works unchanged in AWS. The request
 * is an `application/x-www-form-urlencoded` body (`grant_type=client_credentials`, optional `scope`);
 * the client authenticates with HTTP Basic (RFC 6749 section 2.3.1: id and secret form-urlencoded,
 * then base64) or with `client_id`/`client_secret` in the body, never both. Answers are JSON with
 * `cache-control: no-store`: `{ access_token, token_type, expires_in }`, or `{ error,
 * error_description }` (RFC 6749 section 5.2), 401 with `WWW-Authenticate: Basic` for invalid_client,
 * 400 otherwise; 415 for another content type, 405 for another method. Bad input never answers 5xx.
 * Failed client authentications are throttled per client id and per source address
 * (bin/local/token-throttle.ts): 429 `temporarily_unavailable` with Retry-After, the request unchecked.
 *
 * The use case (functions/core/use-cases/issue-client-token.ts) does the rest against the Tenants
 * table; tokens are signed by the dev issuer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type {
  ClientTokenError,
  ClientTokenRequest,
  IssueClientTokenDeps,
} from "../../functions/core/use-cases/issue-client-token.ts";
import { issueClientToken } from "../../functions/core/use-cases/issue-client-token.ts";
import { createTokenThrottle, type TokenThrottle } from "./token-throttle.ts";

export const TOKEN_PATH = "/oauth2/token";
/** A token request is a few short parameters; anything larger is refused before it is parsed. */
export const TOKEN_REQUEST_MAX_BYTES = 16 * 1024;
export const TOKEN_REALM = "route-map-tracker";
const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

/** A refusal of the request itself, before the use case runs. */
export interface TokenRequestRefusal {
  status: 400 | 401 | 405 | 415 | 429;
  error: ClientTokenError | "temporarily_unavailable";
  description: string;
  /** Seconds to wait, with 429. */
  retryAfterSeconds?: number;
}

export type ParsedTokenRequest =
  | { ok: true; request: Omit<ClientTokenRequest, "now"> }
  | { ok: false; refusal: TokenRequestRefusal };

const refused = (status: TokenRequestRefusal["status"], error: ClientTokenError, description: string) => ({
  ok: false as const,
  refusal: { status, error, description },
});

/** application/x-www-form-urlencoded decoding of one value (`+` is a space); null when malformed. */
function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/**
 * The client id and secret of an `Authorization: Basic` header: base64 of
 * `urlencode(client_id) ":" urlencode(client_secret)`; null when malformed.
 */
export function basicCredentials(header: string): { clientId: string; clientSecret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header.trim());
  if (!match?.[1] || match[1].length % 4 === 1) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  if (!clientId || !clientSecret) return null;
  return { clientId, clientSecret };
}

/**
 * Reads a token request from its method, headers and body (already limited in size). Parameters
 * sent without a value count as omitted and none may appear twice (RFC 6749 section 3.1).
 */
export function parseTokenRequest(input: {
  method: string;
  contentType: string | undefined;
  authorization: string | undefined;
  body: string;
}): ParsedTokenRequest {
  if (input.method !== "POST") return refused(405, "invalid_request", "The token endpoint takes POST only.");
  const mediaType = (input.contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== FORM_CONTENT_TYPE)
    return refused(415, "invalid_request", `The body must be ${FORM_CONTENT_TYPE}.`);

  const params = new Map<string, string>();
  for (const pair of input.body.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = formDecode(equals < 0 ? pair : pair.slice(0, equals));
    const value = formDecode(equals < 0 ? "" : pair.slice(equals + 1));
    if (name === null || value === null)
      return refused(400, "invalid_request", "The body is not valid form encoding.");
    if (value === "") continue;
    if (params.has(name)) return refused(400, "invalid_request", `${name} may be given only once.`);
    params.set(name, value);
  }

  let clientId = params.get("client_id") ?? null;
  let clientSecret = params.get("client_secret") ?? null;
  const authorization = input.authorization?.trim();
  if (authorization) {
    if (!/^Basic(\s|$)/i.test(authorization))
      return refused(401, "invalid_client", "Clients authenticate with HTTP Basic or client_secret_post.");
    const basic = basicCredentials(authorization);
    if (basic === null) return refused(401, "invalid_client", "The Basic credentials are malformed.");
    if (clientSecret !== null)
      return refused(400, "invalid_request", "Use HTTP Basic or client_secret in the body, not both.");
    if (clientId !== null && clientId !== basic.clientId)
      return refused(400, "invalid_request", "client_id in the body differs from the Basic credentials.");
    clientId = basic.clientId;
    clientSecret = basic.clientSecret;
  }
  return {
    ok: true,
    request: {
      clientId,
      clientSecret,
      grantType: params.get("grant_type") ?? null,
      scope: params.get("scope") ?? null,
    },
  };
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    "content-type": "application/json;charset=UTF-8",
    "cache-control": "no-store",
    pragma: "no-cache",
    ...headers,
  });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, refusal: TokenRequestRefusal): void {
  sendJson(
    response,
    refusal.status,
    { error: refusal.error, error_description: refusal.description },
    {
      ...(refusal.error === "invalid_client" ? { "www-authenticate": `Basic realm="${TOKEN_REALM}"` } : {}),
      ...(refusal.status === 405 ? { allow: "POST" } : {}),
      ...(refusal.retryAfterSeconds === undefined
        ? {}
        : { "retry-after": String(refusal.retryAfterSeconds) }),
    },
  );
}

/** Reads at most `limit` bytes; null when the body is larger. */
async function readLimited(request: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The endpoint, for the runner's HTTP API; `now` is the issuer's real clock (never the fake one), which
 * the throttle of failed authentications counts in too.
 */
export function createTokenEndpoint(
  deps: () => IssueClientTokenDeps,
  now: () => string = () => new Date().toISOString(),
  throttle: TokenThrottle = createTokenThrottle(),
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const address = request.socket.remoteAddress ?? "unknown";
    const body = await readLimited(request, TOKEN_REQUEST_MAX_BYTES);
    if (body === null) {
      // The rest of the body is never read: close the connection after the answer.
      response.shouldKeepAlive = false;
      response.once("finish", () => request.destroy());
      return sendError(response, {
        status: 400,
        error: "invalid_request",
        description: `Token requests are limited to ${TOKEN_REQUEST_MAX_BYTES} bytes.`,
      });
    }
    const parsed = parseTokenRequest({
      method: (request.method ?? "GET").toUpperCase(),
      contentType: request.headers["content-type"],
      authorization: request.headers.authorization,
      body,
    });
    const at = Date.parse(now());
    if (!parsed.ok) {
      // Credentials that cannot even be read count against the address.
      if (parsed.refusal.error === "invalid_client") {
        const wait = throttle.refusal(null, address, at);
        if (wait !== null) return sendError(response, throttled(wait));
        throttle.failed(null, address, at);
      }
      return sendError(response, parsed.refusal);
    }
    const { clientId } = parsed.request;
    const wait = throttle.refusal(clientId, address, at);
    if (wait !== null) return sendError(response, throttled(wait));
    const result = await issueClientToken(deps(), { ...parsed.request, now: now() });
    if (!result.ok && result.error === "invalid_client") throttle.failed(clientId, address, at);
    if (!result.ok)
      return sendError(response, {
        status: result.error === "invalid_client" ? 401 : 400,
        error: result.error,
        description: result.description,
      });
    sendJson(response, 200, result.answer);
  };
}

/** 429: too many failed authentications for this client id or from this address; nothing was checked. */
const throttled = (seconds: number): TokenRequestRefusal => ({
  status: 429,
  error: "temporarily_unavailable",
  description: `Too many failed client authentications for this client or from this address; retry after ${seconds} seconds.`,
  retryAfterSeconds: seconds,
});
