/**
 * Outbound HTTP POSTs to customer endpoints and webhooks. The target is vetted first (SSRF guard,
 * DESIGN.md section 5): its host is resolved once, every address must be allowed for the deployment
 * mode, and the connection goes to a vetted address (no second lookup a DNS rebinding could change).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { assertTargetAllowed, type DeliveryMode, type TargetCheck } from "../core/notifications/index.ts";

/** Per-attempt timeout (DESIGN.md section 5). */
export const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 4096;

export type { DeliveryMode };

export function deliveryModeFromEnv(env: NodeJS.ProcessEnv = process.env): DeliveryMode {
  // Only the local runner sets "local"; anything else is treated as production (fail closed).
  return env.DEPLOYMENT_MODE === "local" ? "local" : "production";
}

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

export type PostResult =
  | { kind: "response"; status: number; headers: Record<string, string>; body: string; latencyMs: number }
  | { kind: "refused"; reason: string; latencyMs: number }
  | { kind: "timeout"; latencyMs: number }
  | { kind: "network-error"; message: string; latencyMs: number };

export interface HttpSender {
  /** Resolves and vets a target without sending anything. */
  check(url: string): Promise<TargetCheck>;
  post(request: PostRequest): Promise<PostResult>;
}

async function resolve(host: string): Promise<string[]> {
  try {
    return (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return [];
  }
}

/** Host name -> addresses; the system resolver unless a test injects its own. */
export type Resolver = (host: string) => Promise<string[]>;

export function createHttpSender(
  mode: DeliveryMode = deliveryModeFromEnv(),
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

  return {
    async check(url) {
      return (await vet(url)).check;
    },

    async post({ url, headers, body, timeoutMs = DEFAULT_TIMEOUT_MS }) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const { check, address } = await vet(url);
      if (!check.allowed)
        return { kind: "refused", reason: `${check.reason}: ${check.detail}`, latencyMs: elapsed() };
      const target = new URL(url);
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
        method: "POST",
        headers: {
          ...headers,
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "RouteMapTracker/1.0",
        },
        timeout: timeoutMs,
        ...(address ? { lookup: pinnedLookup } : {}),
      };
      return new Promise<PostResult>((resolvePost) => {
        let settled = false;
        const finish = (result: PostResult) => {
          if (!settled) {
            settled = true;
            resolvePost(result);
          }
        };
        const send = target.protocol === "https:" ? httpsRequest : httpRequest;
        const outgoing = send(target, options, (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          response.on("end", () => {
            const responseHeaders: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined)
                responseHeaders[name] = Array.isArray(value) ? value.join(", ") : value;
            }
            finish({
              kind: "response",
              status: response.statusCode ?? 0,
              headers: responseHeaders,
              body: Buffer.concat(chunks).toString("utf8").slice(0, MAX_RESPONSE_BYTES),
              latencyMs: elapsed(),
            });
          });
          response.on("error", (error) =>
            finish({ kind: "network-error", message: error.message, latencyMs: elapsed() }),
          );
        });
        outgoing.on("timeout", () => {
          outgoing.destroy();
          finish({ kind: "timeout", latencyMs: elapsed() });
        });
        outgoing.on("error", (error) =>
          finish({ kind: "network-error", message: error.message, latencyMs: elapsed() }),
        );
        outgoing.end(body);
      });
    },
  };
}
