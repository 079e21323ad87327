/**
 * GETs on a carrier's ONE Record server through the SSRF-guarded HTTP sender (production: https and
 * public addresses only; the local runner also allows loopback, as for webhooks). Redirects are not
 * followed; a body larger than MAX_EVENT_DOCUMENT_BYTES is a failure, never half a document.
 * `standIns` (local runner only, config.ts) sends a publisher origin's GETs to a server on this
 * machine, so a publisher's documents are served with the IRIs they were published with.
 */
import type { OneRecordPublisher } from "../core/ports/one-record.ts";
import type { HttpSender } from "./http-sender.ts";

export const MAX_EVENT_DOCUMENT_BYTES = 1_048_576;
const FETCH_TIMEOUT_MS = 5_000;

export function oneRecordPublisher(
  sender: HttpSender,
  standIns: ReadonlyMap<string, string> = new Map(),
): OneRecordPublisher {
  const served = (url: string) => {
    if (standIns.size === 0 || !URL.canParse(url)) return url;
    const target = new URL(url);
    const standIn = standIns.get(target.origin);
    return standIn === undefined ? url : `${standIn}${target.pathname}${target.search}`;
  };
  return {
    async fetch(url, token) {
      const result = await sender.get({
        url: served(url),
        headers: {
          accept: "application/ld+json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        timeoutMs: FETCH_TIMEOUT_MS,
        maxResponseBytes: MAX_EVENT_DOCUMENT_BYTES,
      });
      switch (result.kind) {
        case "refused":
          return { kind: "refused", reason: result.reason };
        case "timeout":
          return { kind: "failed", status: null, reason: `no answer within ${FETCH_TIMEOUT_MS} ms` };
        case "network-error":
          return { kind: "failed", status: null, reason: result.message };
        case "response":
          if (result.status < 200 || result.status > 299)
            return { kind: "failed", status: result.status, reason: `answered ${result.status}` };
          if (result.bodyCutOff || Buffer.byteLength(result.body) >= MAX_EVENT_DOCUMENT_BYTES)
            return { kind: "failed", status: result.status, reason: "the document was cut off or too large" };
          return { kind: "ok", body: result.body };
      }
    },
  };
}
