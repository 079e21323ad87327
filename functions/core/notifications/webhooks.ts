/**
 * Webhooks (spec "Webhook"; DESIGN.md sections 4, 5 and 9). A webhook only receives deliveries once
 * it is enabled AND its URL answered the verification challenge; secrets are masked in every response
 * except the creating one.
 */
import * as v from "valibot";
import { parseAwb } from "../awb.ts";
import {
  commaListField,
  maskSecret,
  parseCommaList,
  type SubscriberIdentity,
  TargetUrlSchema,
  WEBHOOK_EVENT_NAMES,
  type WebhookEventName,
} from "./common.ts";

export type WebhookPayloadType = "json" | "xml" | "text";

// ---- AWB filter -----------------------------------------------------------------------------------

/** Empty = every AWB the forwarder may read, 3 digits = that carrier's, 11 digits = one AWB. */
export type AwbFilter =
  | { kind: "all" }
  | { kind: "carrier"; prefix: string }
  | { kind: "awb"; prefix: string; serial: string };

export type AwbFilterParse = { ok: true; filter: AwbFilter } | { ok: false; message: string };

export function parseAwbFilter(text: string | null | undefined): AwbFilterParse {
  const trimmed = (text ?? "").trim();
  if (trimmed === "") return { ok: true, filter: { kind: "all" } };
  if (/^\d{3}$/.test(trimmed)) return { ok: true, filter: { kind: "carrier", prefix: trimmed } };
  const awb = parseAwb(trimmed);
  if (awb.ok) return { ok: true, filter: { kind: "awb", prefix: awb.awb.prefix, serial: awb.awb.serial } };
  if (awb.reason === "check-digit") {
    return { ok: false, message: `AWB check digit must be ${awb.expectedDigit} (first seven digits mod 7)` };
  }
  return {
    ok: false,
    message: "must be empty (all AWBs), a 3-digit carrier prefix, or an AWB as 11 digits or ppp-nnnnnnnn",
  };
}

/** Stored/answered form: null = all, "020" = carrier, "02012345675" = one AWB (canonical, no dash). */
function awbFilterText(filter: AwbFilter): string | null {
  switch (filter.kind) {
    case "all":
      return null;
    case "carrier":
      return filter.prefix;
    case "awb":
      return `${filter.prefix}${filter.serial}`;
  }
}

// ---- secrets --------------------------------------------------------------------------------------

const MAX_TOKEN_LENGTH = 8192;
const BASE64URL_PART = /^[A-Za-z0-9_-]+$/;

function decodeJsonObject(part: string): Record<string, unknown> | null {
  // Buffer's base64url decoder is lenient, so the alphabet is checked first; length 4n+1 is impossible.
  if (!BASE64URL_PART.test(part) || part.length % 4 === 1) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Why a Token is not a usable JWT, or null when it is one: three base64url parts, header and payload
 * JSON objects, the header names an `alg` and it is not "none" (an unsigned token is no credential).
 * The signature cannot be checked (the key is the receiver's); expiry is not judged (no clock here).
 */
export function jwtProblem(token: string): string | null {
  if (token.length > MAX_TOKEN_LENGTH) return `must be at most ${MAX_TOKEN_LENGTH} characters`;
  const parts = token.split(".");
  if (parts.length !== 3) return "must be a JWT: three base64url parts separated by dots";
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonObject(headerPart);
  if (!header) return "JWT header must be base64url-encoded JSON object";
  if (typeof header.alg !== "string" || header.alg === "") return "JWT header must name its alg";
  if (header.alg.toLowerCase() === "none") return 'JWT alg "none" (unsigned) is not accepted';
  if (!decodeJsonObject(payloadPart)) return "JWT payload must be a base64url-encoded JSON object";
  if (!BASE64URL_PART.test(signaturePart)) return "JWT signature must be base64url";
  return null;
}

export const WHSEC_PREFIX = "whsec_";
/** Raw Psk bounds (characters); a whsec_ key decodes to 24..64 bytes as Standard Webhooks recommends. */
const MIN_PSK_LENGTH = 16;
const MAX_PSK_LENGTH = 256;

/**
 * Why a Psk is unusable, or null. Decision: at least 16 visible ASCII characters (an HMAC key shorter
 * than that is guessable) and at most 256; `whsec_<base64>` must decode to 24..64 bytes.
 */
function pskProblem(psk: string): string | null {
  if (psk.startsWith(WHSEC_PREFIX)) {
    const encoded = psk.slice(WHSEC_PREFIX.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
      return "a whsec_ key must be followed by standard base64";
    }
    const bytes = Buffer.from(encoded, "base64").length;
    if (bytes < 24 || bytes > 64) return "a whsec_ key must decode to 24 to 64 bytes";
    return null;
  }
  if (psk.length < MIN_PSK_LENGTH) return `must be at least ${MIN_PSK_LENGTH} characters`;
  if (psk.length > MAX_PSK_LENGTH) return `must be at most ${MAX_PSK_LENGTH} characters`;
  if (!/^[\x21-\x7e]+$/.test(psk)) return "must consist of visible ASCII characters (no spaces)";
  return null;
}

function problemCheck(problem: (value: string) => string | null) {
  return v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const message = problem(dataset.value);
    if (message) addIssue({ message });
  });
}

// ---- request --------------------------------------------------------------------------------------

/**
 * POST webhook body. Token/Psk: absent or null = none on creation; on PUT absent = keep the stored
 * secret, null = remove it, a value = replace it. A client echoing a masked value back gets a 400:
 * "••••abcd" is neither a JWT nor a Psk (the bullets are not ASCII).
 */
export const WebhookRequestSchema = v.strictObject({
  Event: v.pipe(v.string(), v.trim(), commaListField(WEBHOOK_EVENT_NAMES)),
  Url: TargetUrlSchema,
  Enable: v.boolean("must be true or false"),
  Type: v.picklist(["json", "xml", "text"], "must be json, xml or text"),
  AWB: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        problemCheck((text) => {
          const parsed = parseAwbFilter(text);
          return parsed.ok ? null : parsed.message;
        }),
      ),
    ),
    "",
  ),
  Token: v.optional(v.nullable(v.pipe(v.string(), v.trim(), problemCheck(jwtProblem)))),
  Psk: v.optional(v.nullable(v.pipe(v.string(), problemCheck(pskProblem)))),
});
export type WebhookRequest = v.InferOutput<typeof WebhookRequestSchema>;

/** PUT of one webhook: same fields and rules (secrets: see WebhookRequestSchema). */
export const WebhookUpdateSchema = WebhookRequestSchema;
export type WebhookUpdate = WebhookRequest;

// ---- domain ---------------------------------------------------------------------------------------

/**
 * Outcome of the URL challenge. A new webhook, or one whose Url changed, is `pending` until its
 * receiver answers; `failed` keeps the reason to show the forwarder. Only `verified` receives events.
 */
export interface WebhookVerification {
  status: "pending" | "verified" | "failed";
  reason: string | null;
  /** When the status was last set (UTC Z). */
  checkedAt: string | null;
}

export interface Webhook {
  id: number;
  owner: SubscriberIdentity;
  events: WebhookEventName[];
  url: string;
  /** The forwarder's switch (`Enable`); deliveries also need verification (see isWebhookActive). */
  enabled: boolean;
  type: WebhookPayloadType;
  awbFilter: AwbFilter;
  token: string | null;
  psk: string | null;
  verification: WebhookVerification;
  /** Why the service switched it off (410 Gone from the receiver), null otherwise. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

function eventsOf(text: string): WebhookEventName[] {
  const parsed = parseCommaList(text, WEBHOOK_EVENT_NAMES);
  if (!parsed.ok) throw new Error(`unvalidated event list: ${parsed.message}`);
  return parsed.values;
}

function filterOf(text: string | null): AwbFilter {
  const parsed = parseAwbFilter(text);
  if (!parsed.ok) throw new Error(`unvalidated AWB filter: ${parsed.message}`);
  return parsed.filter;
}

const pending = (now: string): WebhookVerification => ({ status: "pending", reason: null, checkedAt: now });

export function webhookFromRequest(
  request: WebhookRequest,
  meta: { id: number; owner: SubscriberIdentity; now: string },
): Webhook {
  return {
    id: meta.id,
    owner: { ...meta.owner },
    events: eventsOf(request.Event),
    url: request.Url,
    enabled: request.Enable,
    type: request.Type,
    awbFilter: filterOf(request.AWB),
    token: request.Token ?? null,
    psk: request.Psk ?? null,
    verification: pending(meta.now),
    disabledReason: null,
    createdAt: meta.now,
    updatedAt: meta.now,
  };
}

/**
 * PUT: a changed Url must be verified again, and so must a webhook a receiver's 410 switched off that
 * is switched on again (410 said the endpoint is gone: it has to prove it is back before it hears
 * anything). Absent secrets are kept, null removes them.
 */
export function applyWebhookUpdate(webhook: Webhook, update: WebhookUpdate, now: string): Webhook {
  const urlChanged = update.Url !== webhook.url;
  const backFromGone = update.Enable && webhook.disabledReason !== null;
  return {
    ...webhook,
    events: eventsOf(update.Event),
    url: update.Url,
    enabled: update.Enable,
    type: update.Type,
    awbFilter: filterOf(update.AWB),
    token: update.Token === undefined ? webhook.token : update.Token,
    psk: update.Psk === undefined ? webhook.psk : update.Psk,
    verification: urlChanged || backFromGone ? pending(now) : webhook.verification,
    disabledReason: update.Enable ? null : webhook.disabledReason,
    updatedAt: now,
  };
}

export function markWebhookVerified(webhook: Webhook, now: string): Webhook {
  return { ...webhook, verification: { status: "verified", reason: null, checkedAt: now }, updatedAt: now };
}

export function markWebhookVerificationFailed(webhook: Webhook, reason: string, now: string): Webhook {
  return { ...webhook, verification: { status: "failed", reason, checkedAt: now }, updatedAt: now };
}

/** The receiver answered 410 Gone: switch the webhook off and say why. */
export function disableWebhook(webhook: Webhook, reason: string, now: string): Webhook {
  return { ...webhook, enabled: false, disabledReason: reason, updatedAt: now };
}

/** Receives deliveries only when switched on and verified. */
export function isWebhookActive(webhook: Webhook): boolean {
  return webhook.enabled && webhook.verification.status === "verified";
}

/** Exactly the spec's response fields, in the spec's order. */
export interface WebhookResponse {
  Id: number;
  ForwarderIdentifier: string;
  Event: string;
  Url: string;
  Token: string | null;
  Enabled: boolean;
  Type: WebhookPayloadType;
  Psk: string | null;
  AWB: string | null;
}

/**
 * `revealSecrets` only for the creating response (DESIGN.md section 9). `Enabled` is the forwarder's
 * switch as sent; verification state is not a spec field and is not added here.
 */
export function webhookToApi(webhook: Webhook, options: { revealSecrets: boolean }): WebhookResponse {
  const secret = (value: string | null) =>
    value === null ? null : options.revealSecrets ? value : maskSecret(value);
  return {
    Id: webhook.id,
    ForwarderIdentifier: webhook.owner.forwarderId,
    Event: webhook.events.join(","),
    Url: webhook.url,
    Token: secret(webhook.token),
    Enabled: webhook.enabled,
    Type: webhook.type,
    Psk: secret(webhook.psk),
    AWB: awbFilterText(webhook.awbFilter),
  };
}
