/**
 * Outbound HTTP POSTs to customer endpoints and webhooks, and GETs of ONE Record publishers' events.
 * The target is vetted first (SSRF guard,
 * DESIGN.md section 5): its host is resolved once, every address must be allowed for the deployment
 * mode, and the connection goes to a vetted address (no second lookup a DNS rebinding could change).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { assertTargetAllowed, type DeliveryMode, type TargetCheck } from "../core/notifications/index.ts";
import type { OutboundPost, OutboundResult } from "../core/ports/notifications.ts";
import { config } from "./config.ts";
import { inSubsegment } from "./tracer.ts";

/**
 * Per-attempt deadline (DESIGN.md section 5): one budget for resolving, connecting, sending, the
 * response headers and the body, so a receiver that trickles bytes cannot hold an attempt (and the
 * Lambda with its whole batch) beyond it. Requests may pass a shorter one (tests, the URL challenge).
 */
const DEFAULT_TIMEOUT_MS = 10_000;
/** Response bytes kept (for the attempt log); the rest is not read: the connection is closed. */
export const MAX_RESPONSE_BYTES = 4096;

/** The core's outbound port types: this adapter is what implements them. */
export type PostRequest = OutboundPost;
export type PostResult = OutboundResult;

export interface HttpSender {
  /** Resolves and vets a target without sending anything. */
  check(url: string): Promise<TargetCheck>;
  post(request: PostRequest): Promise<PostResult>;
  /** A GET under the same guard and deadline, keeping up to `maxResponseBytes` of the body (default MAX_RESPONSE_BYTES). */
  get(request: GetRequest): Promise<PostResult>;
}

export interface GetRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

async function resolve(host: string): Promise<string[]> {
  try {
    return (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}

/**
 * What an outbound exchange's subsegment is annotated with: the method and the target's host, never
 * its path or query (a customer's URL may carry a token).
 */
export function traceAnnotations(url: string, method: "POST" | "GET"): Record<string, string> {
  let host = "(unreadable URL)";
  try {
    host = new URL(url).host;
  } catch {
    // The vetting refuses it; the subsegment still says an attempt was made.
  }
  return { method, targetHost: host };
}

/** Host name -> addresses; the system resolver unless a test injects its own. */
export type Resolver = (host: string) => Promise<string[]>;

export function createHttpSender(
  // Only the local runner sets DEPLOYMENT_MODE=local; unset is production (fail closed).
  mode: DeliveryMode = config.deploymentMode(),
  resolveHost: Resolver = resolve,
): HttpSender {
  async function vet(url: string): Promise<{ check: TargetCheck; address: string | null }> {
    let host: string;
    try {
      host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
    } catch {
      return { check: assertTargetAllowed(url, [], mode), address: null };
    }
    const addresses = await resolveHost(host);
    const check = assertTargetAllowed(url, addresses, mode);
    return { check, address: addresses[0] ?? null };
  }

  function exchange(
    target: URL,
    address: string | null,
    headers: Record<string, string>,
    body: string | null,
    deadline: Promise<"deadline">,
    elapsed: () => number,
    maxBytes = MAX_RESPONSE_BYTES,
  ): Promise<PostResult> {
    const family = address?.includes(":") ? 6 : 4;
    // Connect to the address we vetted, whatever DNS says by now.
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      if (!address) return callback(new Error("no vetted address"), "", 4);
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (error: null, entries: Array<{ address: string; family: number }>) => void)(
          null,
          [{ address, family }],
        );
      } else {
        callback(null, address, family);
      }
    };
    const options: RequestOptions = {
      // A null body is a GET (nothing sent, no content-length).
      method: body === null ? "GET" : "POST",
      headers: {
        ...headers,
        ...(body === null ? {} : { "content-length": String(Buffer.byteLength(body)) }),
        "user-agent": "RouteMapTracker/1.0",
      },
      ...(address ? { lookup: pinnedLookup } : {}),
    };
    return new Promise<PostResult>((resolvePost) => {
      let settled = false;
      let answer: { status: number; headers: Record<string, string> } | null = null;
      const chunks: Buffer[] = [];
      let size = 0;
      const collected = () => Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
      const request = target.protocol === "https:" ? httpsRequest : httpRequest;
      const outgoing = request(target, options, (response: IncomingMessage) => {
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        answer = { status: response.statusCode ?? 0, headers: responseHeaders };
        const complete = () => {
          if (answer) finish({ kind: "response", ...answer, body: collected(), latencyMs: elapsed() });
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Enough for the log: stop reading rather than wait for the rest.
          if (size >= maxBytes) complete();
        });
        response.on("end", complete);
        response.on("error", (error) =>
          finish({ kind: "network-error", message: error.message, latencyMs: elapsed() }),
        );
      });
      /** Settles once; whatever is still open (socket, response stream) is torn down. */
      function finish(result: PostResult) {
        if (settled) return;
        settled = true;
        if (!outgoing.destroyed) outgoing.destroy();
        resolvePost(result);
      }
      void deadline.then(() => {
        if (answer) {
          finish({ kind: "response", ...answer, body: collected(), latencyMs: elapsed(), bodyCutOff: true });
        } else {
          finish({ kind: "timeout", latencyMs: elapsed() });
        }
      });
      outgoing.on("error", (error) =>
        finish({ kind: "network-error", message: error.message, latencyMs: elapsed() }),
      );
      outgoing.end(body ?? undefined);
    });
  }

  async function send(
    url: string,
    headers: Record<string, string>,
    body: string | null,
    timeoutMs: number,
    maxBytes: number,
  ): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // One timer for the whole attempt, DNS included (a resolver can hang too).
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"deadline">((resolveDeadline) => {
      timer = setTimeout(() => resolveDeadline("deadline"), timeoutMs);
    });
    try {
      const vetted = await Promise.race([vet(url), deadline]);
      if (vetted === "deadline") return { kind: "timeout", latencyMs: elapsed() };
      const { check, address } = vetted;
      if (!check.allowed)
        return { kind: "refused", reason: `${check.reason}: ${check.detail}`, latencyMs: elapsed() };
      return await exchange(new URL(url), address, headers, body, deadline, elapsed, maxBytes);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async check(url) {
      return (await vet(url)).check;
    },

    post({ url, headers, body, timeoutMs = DEFAULT_TIMEOUT_MS }) {
      return inSubsegment("## outbound POST", traceAnnotations(url, "POST"), () =>
        send(url, headers, body, timeoutMs, MAX_RESPONSE_BYTES),
      );
    },

    get({ url, headers, timeoutMs = DEFAULT_TIMEOUT_MS, maxResponseBytes = MAX_RESPONSE_BYTES }) {
      return inSubsegment("## outbound GET", traceAnnotations(url, "GET"), () =>
        send(url, headers, null, timeoutMs, maxResponseBytes),
      );
    },
  };
}
