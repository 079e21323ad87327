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
const SECRET_MASK = "••••";
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `${SECRET_MASK}${secret.slice(-4)}` : SECRET_MASK;
}

/** GUID as issued by support for a customer endpoint (any version, case-insensitive). */
export const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** http(s) URL without credentials, at most 2048 characters (webhook and customer endpoint addresses). */
export const TargetUrlSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "must not be empty"),
  v.maxLength(2048, "at most 2048 characters"),
  v.check(isHttpUrl, "must be an absolute http or https URL without user name or password"),
);

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
