/**
 * The web app on the local runner, as CloudFront and S3 serve it in AWS: built at start (web/build.ts)
 * into memory, served under /app/ with the app's CSP and security headers on every response,
 * content-hashed assets cached for a year, index.html and config.json never cached, gzip when the
 * client accepts it. `/app` redirects to `/app/`; `/` stays the API's.
 *
 * Also the local dev sign-in at LOCAL_SIGN_IN_PATH (never deployed; in AWS people sign in with
 * Cognito): GET lists the onboarded forwarders, POST {ForwarderId} mints a person's access token for
 * one of them from the dev issuer, with the forwarder's claims through the same `tokenClaimsFor`
 * mapping the token endpoint and Cognito's trigger use.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { TENANT_SCOPES } from "../../functions/contracts/scopes.ts";
import {
  APP_CONFIG_FILE,
  APP_PATH,
  APP_SECURITY_HEADERS,
  appContentSecurityPolicy,
  LOCAL_SIGN_IN_PATH,
  type WebAppConfig,
} from "../../functions/contracts/web-app.ts";
import type { TenantRepository } from "../../functions/core/ports/tenants.ts";
import type { AccessTokenClaims } from "../../functions/core/ports/tokens.ts";
import { type ForwarderTenant, tokenClaimsFor } from "../../functions/core/tenants/tenants.ts";
import { PROBLEM_CONTENT_TYPE, problemBody } from "../../functions/http/problems.ts";
import { buildWebAppSync } from "../../web/build.ts";

/** The client id a dev sign-in token names (Cognito's would be the web app's user-pool client). */
export const LOCAL_WEB_CLIENT_ID = "local-web-app";
/** A person's session: one hour, like the Cognito web client's access tokens. */
export const LOCAL_SIGN_IN_TOKEN_SECONDS = 3600;
/** Sign-in bodies are one short member; anything larger is refused unread. */
const SIGN_IN_MAX_BYTES = 4096;
/** Forwarders listed on the sign-in page, at most (a laptop stack has a handful). */
const SIGN_IN_LIST_LIMIT = 200;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
};

interface Asset {
  body: Buffer;
  gzipped: Buffer;
  contentType: string;
  cacheControl: string;
}

export interface WebAppServer {
  /** Files served, by path under the app ("index.html", "assets/app-<hash>.js", "config.json"). */
  files: string[];
  /** Handles /app, /app/... and the dev sign-in; false for anything else. */
  handle(request: IncomingMessage, response: ServerResponse, body: string): Promise<boolean>;
}

export interface WebAppOptions {
  config?: WebAppConfig;
  /** The dev sign-in's dependencies; without them LOCAL_SIGN_IN_PATH is not served. */
  signIn?: DevSignInDeps;
}

export interface DevSignInDeps {
  tenants: Pick<TenantRepository, "listTenants" | "getTenant">;
  /** Signs an access token (the dev issuer). */
  sign: (claims: AccessTokenClaims) => string;
  /** Seconds since the epoch (the issuer's real clock). */
  nowSeconds?: () => number;
}

const securityHeaders = (): Record<string, string> => ({
  ...APP_SECURITY_HEADERS,
  "content-security-policy": appContentSecurityPolicy(),
});

function asset(body: Buffer, file: string, cacheControl: string): Asset {
  return {
    body,
    gzipped: gzipSync(body, { level: 9 }),
    contentType: CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
    cacheControl,
  };
}

/** Builds the app (in a private temporary folder: several runners may start at once) and keeps it in memory. */
function buildInMemory(config: WebAppConfig): Map<string, Asset> {
  const outDir = mkdtempSync(join(tmpdir(), "rmt-web-"));
  try {
    const { files } = buildWebAppSync({ outDir });
    const assets = new Map<string, Asset>();
    for (const file of files) {
      const hashed = file.startsWith("assets/");
      // Hashed names change with their content: cache for a year. index.html names them: always revalidate.
      assets.set(
        file,
        asset(
          readFileSync(join(outDir, file)),
          file,
          hashed ? "public, max-age=31536000, immutable" : "no-cache",
        ),
      );
    }
    assets.set(APP_CONFIG_FILE, asset(Buffer.from(JSON.stringify(config)), APP_CONFIG_FILE, "no-cache"));
    return assets;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function acceptsGzip(request: IncomingMessage): boolean {
  const accept = String(request.headers["accept-encoding"] ?? "");
  return accept.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

function send(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer | string,
  head: boolean,
): void {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  response.writeHead(status, { ...securityHeaders(), ...headers, "content-length": String(bytes.length) });
  response.end(head ? undefined : bytes);
}

function sendProblem(response: ServerResponse, status: number, slug: string, detail: string, extra = {}) {
  send(
    response,
    status,
    { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", ...extra },
    JSON.stringify(problemBody(status, slug, detail)),
    false,
  );
}

export function createWebApp(options: WebAppOptions = {}): WebAppServer {
  const assets = buildInMemory(options.config ?? { SignIn: "local" });
  const appRoot = APP_PATH.replace(/\/$/, "");

  function serveApp(request: IncomingMessage, response: ServerResponse, pathname: string) {
    const method = (request.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD")
      return sendProblem(response, 405, "method-not-allowed", `${method} is not allowed on ${pathname}.`, {
        allow: "GET, HEAD",
      });
    if (pathname === appRoot) {
      const query = new URL(request.url ?? "/", "http://localhost").search;
      return send(response, 301, { location: `${APP_PATH}${query}`, "cache-control": "no-cache" }, "", true);
    }
    const file = pathname.slice(APP_PATH.length) || "index.html";
    const found = assets.get(file);
    if (!found) return sendProblem(response, 404, "not-found", `No app file ${pathname}.`);
    const gzip = acceptsGzip(request);
    send(
      response,
      200,
      {
        "content-type": found.contentType,
        "cache-control": found.cacheControl,
        vary: "accept-encoding",
        ...(gzip ? { "content-encoding": "gzip" } : {}),
      },
      gzip ? found.gzipped : found.body,
      method === "HEAD",
    );
  }

  return {
    files: [...assets.keys()],
    async handle(request, response, body) {
      const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
      if (pathname === LOCAL_SIGN_IN_PATH && options.signIn) {
        await devSignIn(options.signIn, request, response, body);
        return true;
      }
      if (pathname !== appRoot && !pathname.startsWith(APP_PATH)) return false;
      serveApp(request, response, pathname);
      return true;
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(
    response,
    status,
    { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    JSON.stringify(body),
    false,
  );
}

/** What the sign-in page lists: the forwarders that may sign in (enabled), by id. */
export async function signInChoices(
  tenants: DevSignInDeps["tenants"],
): Promise<Array<{ Id: string; Name: string }>> {
  const choices: Array<{ Id: string; Name: string }> = [];
  let cursor: string | null = null;
  do {
    const page = await tenants.listTenants("forwarder", { limit: 100, cursor });
    // Forwarders have no display name: the ForwarderId is what support and the forwarder call it.
    for (const tenant of page.items)
      if (tenant.kind === "forwarder" && tenant.enabled)
        choices.push({ Id: tenant.forwarderId, Name: tenant.forwarderId });
    cursor = page.next;
  } while (cursor !== null && choices.length < SIGN_IN_LIST_LIMIT);
  return choices.sort((a, b) => a.Id.localeCompare(b.Id)).slice(0, SIGN_IN_LIST_LIMIT);
}

/** The claims of a person's access token for a forwarder (the shape Cognito gives a signed-in user). */
export function personTokenClaims(tenant: ForwarderTenant, nowSeconds: number): AccessTokenClaims {
  return {
    ...tokenClaimsFor(tenant),
    sub: `local-user-${tenant.forwarderId}`,
    username: `local-user-${tenant.forwarderId}`,
    client_id: LOCAL_WEB_CLIENT_ID,
    token_use: "access",
    scope: TENANT_SCOPES.forwarder,
    iat: nowSeconds,
    exp: nowSeconds + LOCAL_SIGN_IN_TOKEN_SECONDS,
  };
}

async function devSignIn(
  deps: DevSignInDeps,
  request: IncomingMessage,
  response: ServerResponse,
  body: string,
): Promise<void> {
  const method = (request.method ?? "GET").toUpperCase();
  if (method === "GET") return sendJson(response, 200, { Items: await signInChoices(deps.tenants) });
  if (method !== "POST")
    return sendProblem(
      response,
      405,
      "method-not-allowed",
      `${method} is not allowed on ${LOCAL_SIGN_IN_PATH}.`,
      {
        allow: "GET, POST",
      },
    );
  const refuse = (message: string) =>
    send(
      response,
      400,
      { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store" },
      JSON.stringify(
        problemBody(400, "validation", "The request body is invalid.", [{ field: "ForwarderId", message }]),
      ),
      false,
    );
  if (Buffer.byteLength(body) > SIGN_IN_MAX_BYTES)
    return refuse(`the body must be at most ${SIGN_IN_MAX_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body || "null");
  } catch {
    return refuse('the body must be JSON: {"ForwarderId": "<id>"}');
  }
  const forwarderId =
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as { ForwarderId?: unknown }).ForwarderId
      : undefined;
  if (typeof forwarderId !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(forwarderId))
    return refuse("is required: the id of an onboarded forwarder");
  const tenant = await deps.tenants.getTenant({ kind: "forwarder", forwarderId });
  if (tenant?.kind !== "forwarder")
    return sendProblem(response, 404, "not-found", `No forwarder ${forwarderId} is onboarded.`);
  if (!tenant.enabled)
    return sendProblem(response, 403, "forbidden", `Forwarder ${forwarderId} is disabled.`);
  const now = deps.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  sendJson(response, 200, {
    access_token: deps.sign(personTokenClaims(tenant, now)),
    token_type: "Bearer",
    expires_in: LOCAL_SIGN_IN_TOKEN_SECONDS,
  });
}
