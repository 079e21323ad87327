/**
 * Starts the real local runner (`bin/local.ts`) as a child process on free ports, the way a developer
 * runs `npm start`, and stops it with SIGTERM. End-to-end tests talk to it only over HTTP and the
 * emulators' own APIs. The runner and its emulators are one process group (processes.ts): stopping
 * it, or a failed start, leaves none of them running.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { carrierClaims, forwarderClaims, signDevToken, supportClaims } from "../../bin/dev-issuer.ts";
import { spawnGroup, stopGroup } from "./processes.ts";
import { scaled } from "./time.ts";

export const PROJECT_ROOT = join(import.meta.dirname, "..", "..");

export interface RunningStack {
  url: string;
  sesUrl: string;
  dynamoEndpoint: string;
  sqsEndpoint: string;
  schedulerEndpoint: string;
  /** The local SMTP listener (Cargo-IMP by e-mail), its banner line `SMTP smtp://127.0.0.1:<port>`. */
  smtpUrl: string;
  smtpPort: number;
  /** The local OAuth 2.0 token endpoint (`POST /oauth2/token`). */
  tokenUrl: string;
  /** The support client the runner created at start (its banner line `Support client <id> <secret>`). */
  supportClient: { clientId: string; clientSecret: string };
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** How long a start may take on a quiet machine before it counts as failed (scaled, time.ts). */
const READY_BUDGET_MS = 45_000;

export async function startRunner(extraEnv: Record<string, string> = {}): Promise<RunningStack> {
  const group = spawnGroup(
    "local runner",
    process.execPath,
    ["--import", "tsx", join(PROJECT_ROOT, "bin", "local.ts")],
    {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        PORT: "0",
        DYNAMODB_PORT: "0",
        SQS_PORT: "0",
        SES_PORT: "0",
        SCHEDULER_PORT: "0",
        SMTP_PORT: "0",
        POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "ERROR",
        ...extraEnv,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const child = group.child;
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const budgetMs = scaled(READY_BUDGET_MS);
  const deadline = Date.now() + budgetMs;
  while (!output.includes("Ctrl-C stops everything")) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stopGroup(group);
      throw new Error(`runner exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
    }
    if (Date.now() > deadline) {
      await stopGroup(group, { graceMs: 0 });
      throw new Error(`runner not ready in ${budgetMs / 1000} s (TEST_TIME_FACTOR scales it):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const find = (label: string) => {
    const match = new RegExp(`${label}\\s+(http://\\S+)`).exec(output);
    if (!match?.[1]) throw new Error(`no ${label} URL in runner output:\n${output}`);
    return match[1];
  };
  const smtp = /SMTP\s+(smtp:\/\/127\.0\.0\.1:(\d+))/.exec(output);
  if (!smtp?.[1] || !smtp[2]) throw new Error(`no SMTP URL in runner output:\n${output}`);
  const support = /Support client\s+(\S+)\s+(\S+)/.exec(output);
  if (!support?.[1] || !support[2]) throw new Error(`no support client in runner output:\n${output}`);
  return {
    url: find("API"),
    tokenUrl: find("Token URL"),
    supportClient: { clientId: support[1], clientSecret: support[2] },
    sesUrl: find("SES mail viewer"),
    dynamoEndpoint: find("DynamoDB Local"),
    sqsEndpoint: find("SQS \\(fauxqs\\)"),
    schedulerEndpoint: find("Scheduler"),
    smtpUrl: smtp[1],
    smtpPort: Number(smtp[2]),
    process: child,
    output: () => output,
    stop: (signal = "SIGTERM") => stopGroup(group, { signal }),
  };
}

export const tokens = {
  forwarder: (forwarderId = "ACMECARGO", agentCode = "1234567", agentCass = "0001", station = "FRA") =>
    signDevToken(forwarderClaims({ forwarderId, agentCode, agentCass, station })),
  carrier: (prefix = "020") => signDevToken(carrierClaims(prefix)),
  support: () => signDevToken(supportClaims()),
};

/** fetch with a bearer token and JSON body; returns status, headers and parsed body (or text). */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    json?: unknown;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] = options.contentType ?? "application/json";
  } else if (options.contentType) {
    headers["content-type"] = options.contentType;
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** RFC 6749 section 2.3.1: the client id and secret form-urlencoded, then base64 as HTTP Basic. */
export const basicAuthorization = (clientId: string, clientSecret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`;

/** POST /oauth2/token with a form body; status, headers and the parsed JSON answer. */
export async function tokenRequest(
  stack: Pick<RunningStack, "tokenUrl">,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(stack.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/**
 * An access token from the runner's /oauth2/token for these client credentials (HTTP Basic,
 * grant_type=client_credentials, optional scope); throws with the error answer when refused.
 */
export async function clientToken(
  stack: Pick<RunningStack, "tokenUrl">,
  clientId: string,
  clientSecret: string,
  scope?: string,
): Promise<string> {
  const answer = await tokenRequest(
    stack,
    { grant_type: "client_credentials", ...(scope ? { scope } : {}) },
    { authorization: basicAuthorization(clientId, clientSecret) },
  );
  if (answer.status !== 200 || typeof answer.body.access_token !== "string")
    throw new Error(`token request refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.access_token;
}
