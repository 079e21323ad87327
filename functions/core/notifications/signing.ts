/**
 * Standard Webhooks signature (DESIGN.md sections 5 and 9): `webhook-signature: v1,<base64 HMAC-SHA256
 * of "<id>.<timestamp>.<body>">`. node:crypto is pure computation (no AWS, HTTP or clock).
 */
import { createHmac } from "node:crypto";
import { WHSEC_PREFIX } from "./webhooks.ts";

export interface WebhookSignatureHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** `whsec_<base64>` is base64-decoded to the key; any other Psk is its UTF-8 bytes. */
export function pskKeyBytes(psk: string): Buffer {
  return psk.startsWith(WHSEC_PREFIX)
    ? Buffer.from(psk.slice(WHSEC_PREFIX.length), "base64")
    : Buffer.from(psk, "utf8");
}

/**
 * `id` is the delivery id (stable across retries); `timestampSeconds` the attempt's Unix time, given
 * by the caller; `body` exactly the bytes sent.
 */
export function signWebhook(input: {
  id: string;
  timestampSeconds: number;
  body: string;
  psk: string;
}): WebhookSignatureHeaders {
  if (!Number.isInteger(input.timestampSeconds) || input.timestampSeconds < 0) {
    throw new RangeError("timestampSeconds must be a non-negative integer (Unix seconds)");
  }
  const timestamp = String(input.timestampSeconds);
  const signature = createHmac("sha256", pskKeyBytes(input.psk))
    .update(`${input.id}.${timestamp}.${input.body}`, "utf8")
    .digest("base64");
  return { "webhook-id": input.id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
}
