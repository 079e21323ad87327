/**
 * Shared pieces of the notifications core: field errors, the event-name vocabularies of rules and
 * webhooks, comma-list parsing, secret masking and the subscriber identity every rule/webhook carries.
 */
import * as v from "valibot";
import { MILESTONE_NAMES, type MilestoneName } from "../carrier-messages/types.ts";
import type { EventName } from "../events.ts";

/** Same shape as the problem+json `errors` items (functions/http/problems.ts); the core cannot import it. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * Events a notification rule may list. Decision: AWD is allowed (it is a planned destination
 * milestone with a planned time, so Event, Missed and ProActive alerts all make sense for it), and
 * every milestone — LAT and FWB included — has a planned time in a planned route map, so all nine
 * are valid for every alert kind. RMP/CAN are webhook-only.
 */
export const RULE_EVENT_NAMES: readonly MilestoneName[] = MILESTONE_NAMES;

/** Events a webhook may list (spec "Webhook": AWD is not in the list). */
export const WEBHOOK_EVENT_NAMES = [
  "FWB",
  "LAT",
  "RCS",
  "DEP",
  "ARR",
  "RCF",
  "NFD",
  "DLV",
  "RMP",
  "CAN",
] as const satisfies readonly EventName[];
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/** E-mail subject header item codes (spec "Notification rule"). */
export const HEADER_ITEM_CODES = ["AWB", "MIL", "NTF", "STN", "RTG", "RMT", "AGT", "BRA"] as const;
export type HeaderItemCode = (typeof HEADER_ITEM_CODES)[number];

/** The forwarder a rule or webhook belongs to, copied from its token when it was created. */
export interface SubscriberIdentity {
  forwarderId: string;
  agentCode: string;
  agentCass: string;
  /** Branch station (3 letters) or null when the token had none. */
  agentStation: string | null;
}

export type CommaListResult<T extends string> = { ok: true; values: T[] } | { ok: false; message: string };

/**
 * Parses "DEP,ARR" (spaces around commas tolerated) against a vocabulary. Names are exact (upper
 * case, as the spec writes them); empty items, unknown names and duplicates are refused so a stored
 * list is always canonical.
 */
export function parseCommaList<T extends string>(text: string, allowed: readonly T[]): CommaListResult<T> {
  const items = text.split(",").map((item) => item.trim());
  if (items.length === 1 && items[0] === "") return { ok: false, message: "must list at least one value" };
  if (items.some((item) => item === "")) return { ok: false, message: "must not contain empty items" };
  const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0) {
    return { ok: false, message: `unknown value(s) ${unknown.join(", ")}; allowed: ${allowed.join(", ")}` };
  }
  const duplicates = items.filter((item, index) => items.indexOf(item) !== index);
  if (duplicates.length > 0) return { ok: false, message: `duplicate value(s) ${duplicates.join(", ")}` };
  return { ok: true, values: items as T[] };
}

/**
 * Secrets (Psk, Token, customer header values) in every response after the creating one (DESIGN.md
 * section 9). Decision: four bullets, then the last 4 characters; a secret shorter than 12 characters
 * is shown as bullets only, since its last 4 would be a third of it. The bullet count never depends on
 * the secret's length, so the length does not leak either.
 */
export const SECRET_MASK = "••••";
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `${SECRET_MASK}${secret.slice(-4)}` : SECRET_MASK;
}

/** A value in the masked form of a response (`••••` + up to 4 characters): an echo, never a secret. */
export function isMaskedSecret(value: string): boolean {
  return value.startsWith(SECRET_MASK) && value.length <= SECRET_MASK.length + 4;
}

/**
 * Tolerant reader for a secret sent back (Token, Psk, a customer header value): what to store, or why
 * not. `sent` undefined = keep, null = remove, the masked form of the stored secret = keep it (a client
 * echoing a GET body), any other masked form = refused. `targetChanged`: the secret would go to a new
 * address, so it must be sent again in full (or null); the stored one never follows the address.
 */
export function resolveSentSecret(
  sent: string | null | undefined,
  stored: string | null,
  targetChanged: boolean,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const echo = sent === undefined || (sent !== null && isMaskedSecret(sent));
  if (echo && stored !== null && targetChanged) {
    return { ok: false, message: "must be sent again in full (or null to remove it) when Url changes" };
  }
  if (sent === undefined) return { ok: true, value: stored };
  if (sent === null || !isMaskedSecret(sent)) return { ok: true, value: sent };
  if (stored !== null && maskSecret(stored) === sent) return { ok: true, value: stored };
  return {
    ok: false,
    message:
      stored === null
        ? "is a masked value: send the secret itself"
        : "is a masked value that does not match the stored secret: send the secret itself, or null to remove it",
  };
}

/** GUID as issued by support for a customer endpoint (any version, case-insensitive). */
export const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * http(s) URL without credentials, at most 2048 characters (webhook and customer endpoint addresses).
 * No whitespace or control characters anywhere: URL parsing silently drops CR/LF and tabs, so the
 * address called would not be the one stored (percent-encode them if they are really meant).
 */
export const TargetUrlSchema = v.pipe(
  v.string(),
  v.minLength(1, "must not be empty"),
  v.check(
    (text) => !hasSpaceOrControl(text),
    "must not contain spaces, line breaks, tabs or other control characters",
  ),
  v.maxLength(2048, "at most 2048 characters"),
  v.check(isHttpUrl, "must be an absolute http or https URL without user name or password"),
);

/** Any whitespace (Unicode included) or a C0/DEL control character. */
function hasSpaceOrControl(text: string): boolean {
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char.trim() === "") return true;
  }
  return false;
}

function isHttpUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (
    (url.protocol === "https:" || url.protocol === "http:") &&
    url.hostname !== "" &&
    url.username === "" &&
    url.password === ""
  );
}

/** A field-level comma-list check: valibot attaches the field's own path to the issue. */
export function commaListField(allowed: readonly string[]) {
  return v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const parsed = parseCommaList(dataset.value, allowed);
    if (!parsed.ok) addIssue({ message: parsed.message });
  });
}

/** Path item for issues raised by cross-field checks, so `v.getDotPath` names the field. */
export function fieldPath(input: Record<string, unknown>, key: string): [v.IssuePathItem] {
  return [{ type: "object", origin: "value", input, key, value: input[key] }];
}
