/**
 * Notification rules (spec "Notification rule", endpoint eventconfignotifier rules 1-6; DESIGN.md
 * section 4 "Rules"). The request schema checks each field and, once every field is well-formed, the
 * cross-field rules, so a handler using it answers one 400 naming every offending field.
 */
import * as v from "valibot";
import type { NotificationRuleResponse } from "../../contracts/api-bodies.ts";
import { isValidAwbSerial } from "../awb.ts";
import type { MilestoneName } from "../carrier-messages/types.ts";
import {
  commaListField,
  type FieldError,
  fieldPath,
  GUID_PATTERN,
  HEADER_ITEM_CODES,
  type HeaderItemCode,
  parseCommaList,
  RULE_EVENT_NAMES,
  type SubscriberIdentity,
} from "./common.ts";
import { MAX_SHARE_LINK_HOURS, MIN_SHARE_LINK_HOURS } from "./email-links.ts";

/** Upper bound of ProActiveTime: one week in minutes (a later alert is no longer pro-active). */
const MAX_PROACTIVE_MINUTES = 10_080;

const SHARE_LINK_HOURS_MESSAGE = `must be a whole number of hours from ${MIN_SHARE_LINK_HOURS} to ${MAX_SHARE_LINK_HOURS}, or null for a link to the signed-in web app`;

const StationFilterSchema = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^([A-Z]{3})?$/, "must be a 3-letter station code (upper case) or empty"),
    ),
  ),
  "",
);

const ruleFields = {
  ChannelType: v.picklist(["Email", "Url"], "must be Email or Url"),
  NotifyTo: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "must not be empty"),
    v.maxLength(254, "at most 254 characters"),
  ),
  /** Mandatory for Email (checked across fields); absent counts as the empty string. */
  HeaderItems: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, "at most 100 characters")), ""),
  FormatType: v.picklist(["Html", "Json"], "must be Html or Json"),
  AirlinePrefix: v.pipe(v.string(), v.trim(), v.regex(/^(\*|\d{3})$/, "must be * or a 3-digit prefix")),
  AwbNumber: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^(\d{8})?$/, "must be the 8-digit AWB serial or empty"),
      v.check(
        // Only judged on 8 digits, so a malformed serial gets one error, not two.
        (serial) => !/^\d{8}$/.test(serial) || isValidAwbSerial(serial),
        (issue) => {
          const serial = String(issue.input);
          return `check digit must be ${Number(serial.slice(0, 7)) % 7} (first seven digits mod 7)`;
        },
      ),
    ),
    "",
  ),
  Event: v.pipe(v.string(), v.trim(), commaListField(RULE_EVENT_NAMES)),
  EventAlert: v.optional(v.boolean(), false),
  MissedEventAlert: v.optional(v.boolean(), false),
  ProActiveAlert: v.optional(v.boolean(), false),
  ProActiveTime: v.optional(
    v.pipe(
      v.number("must be an integer number of minutes"),
      v.integer("must be an integer number of minutes"),
      v.minValue(0, "must not be negative"),
      v.maxValue(MAX_PROACTIVE_MINUTES, `at most ${MAX_PROACTIVE_MINUTES} minutes (one week)`),
    ),
    0,
  ),
  Destination: StationFilterSchema,
  /** Not in the spec's request table (only in the response); accepted as the symmetric filter. */
  Origin: StationFilterSchema,
  Enabled: v.boolean("must be true or false"),
  /**
   * Our extension: the e-mail's route-map link is a share link (no sign-in) valid this many
   * hours, made when the e-mail is sent; null or absent (the default) links the signed-in web app.
   */
  ShareLinkHours: v.optional(
    v.nullable(
      v.pipe(
        v.number(SHARE_LINK_HOURS_MESSAGE),
        v.integer(SHARE_LINK_HOURS_MESSAGE),
        v.minValue(MIN_SHARE_LINK_HOURS, SHARE_LINK_HOURS_MESSAGE),
        v.maxValue(MAX_SHARE_LINK_HOURS, SHARE_LINK_HOURS_MESSAGE),
      ),
    ),
    null,
  ),
};

// Tolerant reader: unknown and response-only members (Id, ForwarderIdentifier, AgentCode, AgentCass,
// IgnoreStation) are dropped, not refused; Origin is read as the symmetric filter it shows.
const RuleShapeSchema = v.object(ruleFields);
type RuleShape = v.InferOutput<typeof RuleShapeSchema>;

const EmailSchema = v.pipe(v.string(), v.email());

/**
 * The rules that tie fields together (eventconfignotifier 1-5). Pure; each error names the field a
 * forwarder has to change.
 */
function ruleCrossFieldErrors(rule: RuleShape): FieldError[] {
  const errors: FieldError[] = [];
  const flags = (["EventAlert", "MissedEventAlert", "ProActiveAlert"] as const).filter((flag) => rule[flag]);
  if (flags.length === 0) {
    errors.push({
      field: "EventAlert",
      message: "exactly one of EventAlert, MissedEventAlert or ProActiveAlert must be true",
    });
  }
  for (const flag of flags.slice(1)) {
    errors.push({
      field: flag,
      message: `only one of EventAlert, MissedEventAlert or ProActiveAlert may be true (${flags[0]} already is)`,
    });
  }
  if (rule.ProActiveAlert && rule.ProActiveTime <= 0) {
    errors.push({
      field: "ProActiveTime",
      message: "must be a positive number of minutes for a ProActiveAlert rule",
    });
  }
  if (!rule.ProActiveAlert && rule.ProActiveTime !== 0) {
    errors.push({ field: "ProActiveTime", message: "must be 0 unless ProActiveAlert is true" });
  }
  if (rule.ChannelType === "Email") {
    if (rule.HeaderItems === "") {
      errors.push({ field: "HeaderItems", message: "is mandatory for Email rules (e.g. AWB,MIL,NTF)" });
    } else {
      const items = parseCommaList(rule.HeaderItems, HEADER_ITEM_CODES);
      if (!items.ok) errors.push({ field: "HeaderItems", message: items.message });
    }
    if (!v.is(EmailSchema, rule.NotifyTo)) {
      errors.push({ field: "NotifyTo", message: "must be an e-mail address for Email rules" });
    }
    if (rule.FormatType !== "Html")
      errors.push({ field: "FormatType", message: "must be Html for Email rules" });
  } else {
    if (rule.HeaderItems !== "") {
      errors.push({ field: "HeaderItems", message: "must be the empty string for Url rules" });
    }
    if (rule.ShareLinkHours !== null) {
      errors.push({
        field: "ShareLinkHours",
        message: "must be null for Url rules (only e-mails carry links)",
      });
    }
    if (!GUID_PATTERN.test(rule.NotifyTo)) {
      errors.push({
        field: "NotifyTo",
        message: "must be the customer endpoint identifier (GUID) issued by support for Url rules",
      });
    }
    if (rule.FormatType !== "Json")
      errors.push({ field: "FormatType", message: "must be Json for Url rules" });
  }
  if (rule.AwbNumber !== "" && rule.AirlinePrefix === "*") {
    errors.push({
      field: "AirlinePrefix",
      message: "must be the AWB's 3-digit prefix when AwbNumber is given",
    });
  }
  return errors;
}

/** POST eventconfignotifier body: field formats, then the cross-field rules. */
export const NotificationRuleRequestSchema = v.pipe(
  RuleShapeSchema,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const input = dataset.value as unknown as Record<string, unknown>;
    // A field whose own format is already wrong gets that error only, not a cross-field one as well.
    const alreadyWrong = new Set((dataset.issues ?? []).map((issue) => v.getDotPath(issue)));
    for (const error of ruleCrossFieldErrors(dataset.value)) {
      if (alreadyWrong.has(error.field)) continue;
      addIssue({ message: error.message, path: fieldPath(input, error.field) });
    }
  }),
);
export type NotificationRuleRequest = v.InferOutput<typeof NotificationRuleRequestSchema>;

/** PUT of one rule: a full replacement, so exactly the creation rules. */
export const NotificationRuleUpdateSchema = NotificationRuleRequestSchema;
export type NotificationRuleUpdate = NotificationRuleRequest;

export interface RuleValidationContext {
  /**
   * Whether NotifyTo names a customer endpoint support registered for this forwarder (Url rules);
   * null when the caller has not looked it up (e.g. an Email rule, or a pre-check).
   */
  isRegisteredEndpoint: boolean | null;
}

export type RuleValidationResult =
  | { ok: true; value: NotificationRuleRequest }
  | { ok: false; errors: FieldError[] };

/** Parses a request body and applies every rule, including the registered-endpoint check. */
export function validateRuleRequest(body: unknown, ctx: RuleValidationContext): RuleValidationResult {
  const parsed = v.safeParse(NotificationRuleRequestSchema, body);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.issues.map((issue) => ({
        field: v.getDotPath(issue) ?? "(body)",
        message: issue.message,
      })),
    };
  }
  if (parsed.output.ChannelType === "Url" && ctx.isRegisteredEndpoint === false) {
    return {
      ok: false,
      errors: [{ field: "NotifyTo", message: "is not a customer endpoint registered by support for you" }],
    };
  }
  return { ok: true, value: parsed.output };
}

/** Which alert a rule raises; ProActive carries its interval. */
export type RuleAlert = { kind: "Event" } | { kind: "Missed" } | { kind: "ProActive"; minutes: number };

export interface NotificationRule {
  id: number;
  owner: SubscriberIdentity;
  channel: "Email" | "Url";
  /** E-mail address (Email) or customer endpoint GUID (Url). */
  notifyTo: string;
  /** Subject items in the order given; empty for Url rules. */
  headerItems: HeaderItemCode[];
  format: "Html" | "Json";
  /** null = all carriers (`*`). */
  airlinePrefix: string | null;
  /** 8-digit serial, null = every AWB. */
  awbSerial: string | null;
  events: MilestoneName[];
  alert: RuleAlert;
  destination: string | null;
  origin: string | null;
  enabled: boolean;
  /**
   * Email rules: hours a share link in the e-mail stays valid; null (and absent, on rules stored
   * before share links existed) = the e-mail links the signed-in web app.
   */
  shareLinkHours?: number | null;
  createdAt: string;
  updatedAt: string;
}

function listOf<T extends string>(text: string, allowed: readonly T[]): T[] {
  if (text === "") return [];
  const parsed = parseCommaList(text, allowed);
  // The schema has already accepted this text; reaching here with a bad list is a programming error.
  if (!parsed.ok) throw new Error(`unvalidated list: ${parsed.message}`);
  return parsed.values;
}

/** Builds the stored rule from a validated request; `now` is the creation (or update) time. */
export function ruleFromRequest(
  request: NotificationRuleRequest,
  meta: { id: number; owner: SubscriberIdentity; now: string; createdAt?: string },
): NotificationRule {
  const alert: RuleAlert = request.ProActiveAlert
    ? { kind: "ProActive", minutes: request.ProActiveTime }
    : request.MissedEventAlert
      ? { kind: "Missed" }
      : { kind: "Event" };
  return {
    id: meta.id,
    owner: { ...meta.owner },
    channel: request.ChannelType,
    notifyTo: request.NotifyTo,
    headerItems: listOf(request.HeaderItems, HEADER_ITEM_CODES),
    format: request.FormatType,
    airlinePrefix: request.AirlinePrefix === "*" ? null : request.AirlinePrefix,
    awbSerial: request.AwbNumber === "" ? null : request.AwbNumber,
    events: listOf(request.Event, RULE_EVENT_NAMES),
    alert,
    destination: request.Destination || null,
    origin: request.Origin || null,
    enabled: request.Enabled,
    shareLinkHours: request.ShareLinkHours,
    createdAt: meta.createdAt ?? meta.now,
    updatedAt: meta.now,
  };
}

/** Applies a validated PUT: identity, id and creation time stay. */
export function applyRuleUpdate(
  rule: NotificationRule,
  update: NotificationRuleUpdate,
  now: string,
): NotificationRule {
  return ruleFromRequest(update, { id: rule.id, owner: rule.owner, now, createdAt: rule.createdAt });
}

export function ruleToApi(rule: NotificationRule): NotificationRuleResponse {
  return {
    ChannelType: rule.channel,
    NotifyTo: rule.notifyTo,
    HeaderItems: rule.headerItems.join(","),
    FormatType: rule.format,
    AirlinePrefix: rule.airlinePrefix ?? "*",
    AwbNumber: rule.awbSerial ?? "",
    Event: rule.events.join(","),
    EventAlert: rule.alert.kind === "Event",
    MissedEventAlert: rule.alert.kind === "Missed",
    ProActiveAlert: rule.alert.kind === "ProActive",
    ProActiveTime: rule.alert.kind === "ProActive" ? rule.alert.minutes : 0,
    Destination: rule.destination,
    Enabled: rule.enabled,
    ShareLinkHours: rule.shareLinkHours ?? null,
    Id: rule.id,
    ForwarderIdentifier: rule.owner.forwarderId,
    AgentCode: rule.owner.agentCode,
    AgentCass: rule.owner.agentCass,
    Origin: rule.origin,
    IgnoreStation: null,
  };
}
