/**
 * Webhooks (spec "Webhook"; DESIGN.md sections 4, 5 and 9). A webhook receives deliveries when it is
 * enabled (`Enable: true`, as the spec says); the URL challenge is an optional ownership proof shown as
 * `Verified`, never a gate. Secrets are masked in every response except the creating one.
 */
import * as v from "valibot";
import type { WebhookResponse } from "../../contracts/api-bodies.ts";
import { parseAwb } from "../awb.ts";
import { InvalidFieldsError } from "../errors.ts";
import {
  commaListField,
  type FieldError,
  isMaskedSecret,
  maskSecret,
  parseCommaList,
  resolveSentSecret,
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

/** A JWT/Psk check that lets the masked form of a response through (judged against the stored secret). */
const secretCheck = (problem: (value: string) => string | null) =>
  problemCheck((value) => (isMaskedSecret(value) ? null : problem(value)));

/**
 * POST webhook body, read tolerantly (unknown and response-only members such as Id,
 * ForwarderIdentifier, Verified are ignored). Token/Psk: absent or null = none on creation; on PUT
 * absent = keep the stored secret, null = remove it, a value = replace it, the masked form of the
 * stored secret = keep it (resolveSentSecret). `Enabled` (the response's name) stands in for `Enable`
 * when only it is sent, so a GET body echoed into a PUT works; `Enable` wins when both are sent.
 */
const WebhookFieldsSchema = v.object({
  Event: v.pipe(v.string(), v.trim(), commaListField(WEBHOOK_EVENT_NAMES)),
  Url: TargetUrlSchema,
  Enable: v.optional(v.boolean("must be true or false")),
  Enabled: v.optional(v.boolean("must be true or false")),
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
  Token: v.optional(v.nullable(v.pipe(v.string(), v.trim(), secretCheck(jwtProblem)))),
  Psk: v.optional(v.nullable(v.pipe(v.string(), secretCheck(pskProblem)))),
});

export const WebhookRequestSchema = v.pipe(
  WebhookFieldsSchema,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.value.Enable !== undefined || dataset.value.Enabled !== undefined) return;
    const input = dataset.value as unknown as Record<string, unknown>;
    addIssue({
      message: "is required: true or false",
      path: [{ type: "object", origin: "value", input, key: "Enable", value: undefined }],
    });
  }),
);
export type WebhookRequest = v.InferOutput<typeof WebhookRequestSchema>;

/** The switch as sent: `Enable`, else the echoed `Enabled` (the schema requires one of them). */
const enableOf = (request: WebhookRequest): boolean => request.Enable ?? request.Enabled ?? false;

/** Token and Psk as they will be stored, or a 400 naming each one that cannot be (resolveSentSecret). */
function secretsOf(
  request: WebhookRequest,
  stored: { token: string | null; psk: string | null },
  urlChanged: boolean,
): { token: string | null; psk: string | null } {
  const token = resolveSentSecret(request.Token, stored.token, urlChanged);
  const psk = resolveSentSecret(request.Psk, stored.psk, urlChanged);
  const errors: FieldError[] = [];
  if (!token.ok) errors.push({ field: "Token", message: token.message });
  if (!psk.ok) errors.push({ field: "Psk", message: psk.message });
  if (!token.ok || !psk.ok) throw new InvalidFieldsError(errors);
  return { token: token.value, psk: psk.value };
}

/** PUT of one webhook: same fields and rules (secrets: see WebhookRequestSchema). */
export const WebhookUpdateSchema = WebhookRequestSchema;
export type WebhookUpdate = WebhookRequest;

// ---- domain ---------------------------------------------------------------------------------------

/**
 * Outcome of the URL challenge (an ownership proof, not a gate). A new webhook, or one whose Url
 * changed, is `pending` until the challenge has run; `failed` keeps the reason to show the forwarder.
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
  /** The forwarder's switch (`Enable`): an enabled webhook receives events, verified or not. */
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
  const secrets = secretsOf(request, { token: null, psk: null }, false);
  return {
    id: meta.id,
    owner: { ...meta.owner },
    events: eventsOf(request.Event),
    url: request.Url,
    enabled: enableOf(request),
    type: request.Type,
    awbFilter: filterOf(request.AWB),
    ...secrets,
    verification: pending(meta.now),
    disabledReason: null,
    createdAt: meta.now,
    updatedAt: meta.now,
  };
}

/**
 * PUT: a changed Url is challenged again, and so is a webhook a receiver's 410 switched off that is
 * switched on again. Absent or echoed (masked) secrets are kept, null removes them; a changed Url
 * needs them sent again in full or null (else 400), so a stored Token never follows a new Url.
 */
export function applyWebhookUpdate(webhook: Webhook, update: WebhookUpdate, now: string): Webhook {
  const urlChanged = update.Url !== webhook.url;
  const enabled = enableOf(update);
  const backFromGone = enabled && webhook.disabledReason !== null;
  return {
    ...webhook,
    events: eventsOf(update.Event),
    url: update.Url,
    enabled,
    type: update.Type,
    awbFilter: filterOf(update.AWB),
    ...secretsOf(update, webhook, urlChanged),
    verification: urlChanged || backFromGone ? pending(now) : webhook.verification,
    disabledReason: enabled ? null : webhook.disabledReason,
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

/** Receives deliveries when switched on; verification is a proof shown to the owner, not a gate. */
export function isWebhookActive(webhook: Webhook): boolean {
  return webhook.enabled;
}

/**
 * `revealSecrets` only for the creating response (DESIGN.md section 9). `Enabled` is the forwarder's
 * switch (false too when a receiver's 410 switched it off); `Verified` and `LastVerification` follow
 * the spec's fields (ignored when sent back).
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
    Verified: webhook.verification.status === "verified",
    LastVerification:
      webhook.verification.status === "pending"
        ? null
        : {
            Outcome: webhook.verification.status,
            At: webhook.verification.checkedAt,
            Detail: webhook.verification.reason,
          },
  };
}
