/**
 * The URL challenge: an optional ownership proof shown as `Verified`, never a gate. The service POSTs
 *     { "Type": "WebhookVerification", "Challenge": "<random>", "WebhookId": <id> }
 * (Content-Type application/json, header `x-route-map-challenge: <random>`, plus the webhook's bearer
 * Token and Standard Webhooks signature when it has them, so a receiver that authenticates everything
 * can still answer). The receiver passes by answering 2xx within 5 s with the bare challenge value as
 * the body (surrounding whitespace ignored; a JSON string literal of it is accepted too). The expected
 * answer differs from the request: an endpoint that reflects the request (its JSON body, or any JSON
 * object such as `{ "Challenge": ... }`) cannot pass. Sent through the HTTP sender, so the SSRF guard
 * applies exactly as for deliveries.
 */
import { randomBytes } from "node:crypto";
import { signWebhook, type Webhook } from "../core/notifications/index.ts";
import type { TargetVerdict, VerificationOutcome, WebhookVerifier } from "../core/ports/notifications.ts";
import { wallClockSeconds } from "./clock.ts";
import { createHttpSender, type HttpSender } from "./http-sender.ts";

export const CHALLENGE_HEADER = "x-route-map-challenge";
const VERIFICATION_TIMEOUT_MS = 5_000;
const SHOWN_BODY = 120;

/** The answered value: the body itself (trimmed), or the content of a JSON string literal. */
function answeredChallenge(body: string): string {
  const text = body.trim();
  if (!text.startsWith('"')) return text;
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === "string" ? json : text;
  } catch {
    return text;
  }
}

const shown = (body: string) =>
  body.length > SHOWN_BODY ? `${body.slice(0, SHOWN_BODY)}…` : body === "" ? "(empty)" : body;

export function createWebhookVerifier(
  sender: HttpSender = createHttpSender(),
  challenge: () => string = () => randomBytes(24).toString("base64url"),
): WebhookVerifier {
  return {
    async checkTarget(url): Promise<TargetVerdict> {
      const check = await sender.check(url);
      // An unresolvable host may be fixed by DNS later: the challenge records it as a failure instead.
      if (check.allowed || check.reason === "no-addresses") return { allowed: true };
      return { allowed: false, reason: `${check.reason} (${check.detail})` };
    },

    async verify(webhook: Webhook): Promise<VerificationOutcome> {
      const secret = challenge();
      const body = JSON.stringify({ Type: "WebhookVerification", Challenge: secret, WebhookId: webhook.id });
      const headers: Record<string, string> = {
        "content-type": "application/json",
        [CHALLENGE_HEADER]: secret,
      };
      if (webhook.token) headers.authorization = `Bearer ${webhook.token}`;
      if (webhook.psk) {
        const id = `verify-${webhook.id}-${secret.slice(0, 8)}`;
        Object.assign(
          headers,
          // Real time, not the (locally movable) service clock: the receiver checks it against its own.
          signWebhook({ id, timestampSeconds: wallClockSeconds(), body, psk: webhook.psk }),
        );
      }
      const result = await sender.post({
        url: webhook.url,
        headers,
        body,
        timeoutMs: VERIFICATION_TIMEOUT_MS,
      });
      switch (result.kind) {
        case "refused":
          return { ok: false, reason: `target refused: ${result.reason}` };
        case "timeout":
          return { ok: false, reason: `no answer within ${VERIFICATION_TIMEOUT_MS / 1000} s` };
        case "network-error":
          return { ok: false, reason: `network error: ${result.message}` };
        case "response":
          if (result.status < 200 || result.status > 299)
            return { ok: false, reason: `receiver answered HTTP ${result.status}, expected 2xx` };
          if (answeredChallenge(result.body) !== secret)
            return {
              ok: false,
              reason: `answer is not the bare challenge value (HTTP ${result.status}, answer body: ${shown(result.body)})`,
            };
          return { ok: true };
      }
    },
  };
}
