/**
 * What the senders answered, in the channels' common terms (SendResult): the HTTP sender's result for
 * every channel that POSTs, SES's for every channel that mails.
 */
import type { EmailSendResult, OutboundResult } from "../../ports/notifications.ts";
import type { SendResult } from "./channel.ts";

/** The log detail of an attempt that hit its deadline (the delivery use case sends its retry to the slow lane). */
export const TIMEOUT_DETAIL = "timeout";

/** The per-attempt deadline to pass to the HTTP sender, when the attempt has one. */
export const timeoutOf = (timeoutMs: number | undefined) => (timeoutMs === undefined ? {} : { timeoutMs });

export function fromHttp(result: OutboundResult): SendResult {
  switch (result.kind) {
    case "response":
      return {
        outcome: result.status,
        status: result.status,
        retryAfter: result.headers["retry-after"] ?? null,
        latencyMs: result.latencyMs,
        detail: `HTTP ${result.status}${result.body ? `: ${result.body}` : ""}${
          result.bodyCutOff ? " (answer cut off at the attempt deadline)" : ""
        }`,
      };
    case "refused":
      return {
        outcome: null,
        status: null,
        retryAfter: null,
        latencyMs: result.latencyMs,
        detail: `target refused: ${result.reason}`,
      };
    case "timeout":
      return {
        outcome: "timeout",
        status: null,
        retryAfter: null,
        latencyMs: result.latencyMs,
        detail: TIMEOUT_DETAIL,
      };
    case "network-error":
      return {
        outcome: "network-error",
        status: null,
        retryAfter: null,
        latencyMs: result.latencyMs,
        detail: `network error: ${result.message}`,
      };
  }
}

/**
 * SES accepted the e-mail (200 for the policy and the log, with its MessageId) or did not: throttling
 * and service trouble are retried like a network error, a refused message is parked. `note` follows
 * the detail either way.
 */
export function fromSes(sent: EmailSendResult, note = ""): SendResult {
  if (sent.kind === "sent")
    return {
      outcome: 200,
      status: 200,
      retryAfter: null,
      latencyMs: sent.latencyMs,
      detail: `accepted by SES as ${sent.messageId}${note}`,
      ...(sent.messageId ? { emailMessageId: sent.messageId } : {}),
    };
  return {
    outcome: sent.retryable ? "network-error" : null,
    status: null,
    retryAfter: null,
    latencyMs: sent.latencyMs,
    detail: `SES: ${sent.message}${note}`,
  };
}
