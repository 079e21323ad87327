/**
 * Rules and webhooks between the API's JSON and the app's forms (strings and booleans), and the
 * delivery log's one-line reading. Pure. The shapes are the API's own answer types (type-only
 * imports), narrowed to the members the app reads.
 */
import type {
  DeliveryAttemptResponse,
  DeliveryResponse,
  NotificationRuleResponse,
  WebhookResponse,
  WebhookViewResponse,
} from "../../../functions/contracts/api-bodies.ts";
import { durationText } from "../../../functions/core/notifications/verdict-words.ts";

/** A rule as the app reads it: its Id and the members its form edits. */
export type Rule = Pick<NotificationRuleResponse, "Id" | RuleField>;

/** A webhook as the app reads it; GET and list add its newest delivery. */
export type Webhook = Pick<
  WebhookResponse,
  "Id" | "Event" | "Url" | "Token" | "Enabled" | "Type" | "Psk" | "AWB" | "Verified" | "LastVerification"
> &
  Partial<Pick<WebhookViewResponse, "LastDelivery">>;

/** One attempt of a delivery, as the log shows it. */
export type Attempt = Pick<
  DeliveryAttemptResponse,
  "Attempt" | "At" | "HttpStatus" | "Outcome" | "Detail" | "NextAttemptAt"
>;

/** One delivery of a rule's or webhook's log, as the app reads it. */
export type Delivery = Pick<
  DeliveryResponse,
  "DeliveryId" | "Event" | "Type" | "AwbNumber" | "Status" | "CreatedAt" | "UpdatedAt"
> & { Attempts: Attempt[] };

export type FormValues = Record<string, string | boolean>;

export const RULE_FIELDS = [
  "ChannelType",
  "NotifyTo",
  "HeaderItems",
  "FormatType",
  "AirlinePrefix",
  "AwbNumber",
  "Event",
  "EventAlert",
  "MissedEventAlert",
  "ProActiveAlert",
  "ProActiveTime",
  "Origin",
  "Destination",
  "Enabled",
  "ShareLinkHours",
] as const;
type RuleField = (typeof RULE_FIELDS)[number];

export const NEW_RULE: FormValues = {
  ChannelType: "Email",
  NotifyTo: "",
  HeaderItems: "AWB,MIL,NTF",
  FormatType: "Html",
  AirlinePrefix: "*",
  AwbNumber: "",
  Event: "DEP",
  EventAlert: true,
  MissedEventAlert: false,
  ProActiveAlert: false,
  ProActiveTime: "0",
  Origin: "",
  Destination: "",
  Enabled: true,
  ShareLinkHours: "",
};

export function ruleToForm(rule: Rule): FormValues {
  return {
    ChannelType: rule.ChannelType,
    NotifyTo: rule.NotifyTo,
    HeaderItems: rule.HeaderItems,
    FormatType: rule.FormatType,
    AirlinePrefix: rule.AirlinePrefix,
    AwbNumber: rule.AwbNumber,
    Event: rule.Event,
    EventAlert: rule.EventAlert,
    MissedEventAlert: rule.MissedEventAlert,
    ProActiveAlert: rule.ProActiveAlert,
    ProActiveTime: String(rule.ProActiveTime),
    Origin: rule.Origin ?? "",
    Destination: rule.Destination ?? "",
    Enabled: rule.Enabled,
    // Part of the form, so that saving a rule sends it back: a PUT replaces the whole rule.
    ShareLinkHours: rule.ShareLinkHours === null ? "" : String(rule.ShareLinkHours),
  };
}

const text = (values: FormValues, name: string) => {
  const value = values[name];
  return typeof value === "string" ? value.trim() : "";
};

/** A whole number stays a number, empty is `empty`, anything else stays text for the API to name. */
const numberOr = (value: string, empty: 0 | null) =>
  /^\d+$/.test(value) ? Number(value) : value === "" ? empty : value;

/**
 * The rule body: texts trimmed, stations upper-cased, ProActiveTime and ShareLinkHours numbers when
 * they are (else the text, so the API names the field instead of the app guessing); an empty
 * ShareLinkHours is null (links to the signed-in app).
 */
export function ruleBody(values: FormValues): Record<string, unknown> {
  const minutes = text(values, "ProActiveTime");
  return {
    ChannelType: text(values, "ChannelType"),
    NotifyTo: text(values, "NotifyTo"),
    HeaderItems: text(values, "HeaderItems"),
    FormatType: text(values, "FormatType"),
    AirlinePrefix: text(values, "AirlinePrefix"),
    AwbNumber: text(values, "AwbNumber"),
    Event: text(values, "Event").toUpperCase(),
    EventAlert: values.EventAlert === true,
    MissedEventAlert: values.MissedEventAlert === true,
    ProActiveAlert: values.ProActiveAlert === true,
    ProActiveTime: numberOr(minutes, 0),
    Origin: text(values, "Origin").toUpperCase(),
    Destination: text(values, "Destination").toUpperCase(),
    Enabled: values.Enabled === true,
    ShareLinkHours: numberOr(text(values, "ShareLinkHours"), null),
  };
}

export const WEBHOOK_FIELDS = ["Event", "Url", "Type", "AWB", "Token", "Psk", "Enable"] as const;

export const NEW_WEBHOOK: FormValues = {
  Event: "DEP",
  Url: "",
  Type: "json",
  AWB: "",
  Token: "",
  Psk: "",
  Enable: true,
};

export function webhookToForm(webhook: Webhook): FormValues {
  return {
    Event: webhook.Event,
    Url: webhook.Url,
    Type: webhook.Type,
    AWB: webhook.AWB ?? "",
    Token: webhook.Token ?? "",
    Psk: webhook.Psk ?? "",
    Enable: webhook.Enabled,
  };
}

/** Empty secrets are null (none); a masked secret sent back unchanged keeps the stored one (API rule). */
export function webhookBody(values: FormValues): Record<string, unknown> {
  const secret = (name: string) => text(values, name) || null;
  return {
    Event: text(values, "Event").toUpperCase(),
    Url: text(values, "Url"),
    Type: text(values, "Type"),
    AWB: text(values, "AWB"),
    Token: secret("Token"),
    Psk: secret("Psk"),
    Enable: values.Enable === true,
  };
}

/** The same webhook switched on or off, for the Enable/Disable buttons (a PUT of the whole webhook). */
export const webhookToggled = (webhook: Webhook, enable: boolean) =>
  webhookBody({ ...webhookToForm(webhook), Enable: enable });

/** Which alert a rule raises, in words (a ProActive alert: still not reported that long after the plan). */
export function ruleAlertText(rule: Rule): string {
  if (rule.ProActiveAlert) return `if not reported ${durationText(rule.ProActiveTime)} after plan`;
  if (rule.MissedEventAlert) return "when missed";
  return "when reported";
}

/**
 * What a rule listens to, in words: "DEP, ARR · all carriers", "DEP · carrier 020 · AWB 020-12345675
 * · from FRA · to JFK".
 */
export function ruleSummary(
  rule: Pick<Rule, "Event" | "AirlinePrefix" | "AwbNumber" | "Origin" | "Destination">,
): string {
  const events = rule.Event.split(",")
    .map((event) => event.trim())
    .filter(Boolean)
    .join(", ");
  const carrier = rule.AirlinePrefix === "*" ? "all carriers" : `carrier ${rule.AirlinePrefix}`;
  const awb = rule.AwbNumber
    ? `AWB ${rule.AirlinePrefix === "*" ? rule.AwbNumber : `${rule.AirlinePrefix}-${rule.AwbNumber}`}`
    : null;
  return [
    events,
    carrier,
    awb,
    rule.Origin ? `from ${rule.Origin}` : null,
    rule.Destination ? `to ${rule.Destination}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * What a webhook listens to, in words: "DEP, ARR, RMP · json · all AWBs" ("carrier 020's AWBs", "AWB
 * 020-12345675": the AWB filter is empty, 3 digits or 11).
 */
export function webhookSummary(webhook: Pick<Webhook, "Event" | "Type" | "AWB">): string {
  const events = webhook.Event.split(",")
    .map((event) => event.trim())
    .filter(Boolean)
    .join(", ");
  const filter = (webhook.AWB ?? "").replace(/\D/g, "");
  const awbs =
    filter.length === 3
      ? `carrier ${filter}'s AWBs`
      : filter.length === 11
        ? `AWB ${filter.slice(0, 3)}-${filter.slice(3)}`
        : "all AWBs";
  return `${events} · ${webhook.Type} · ${awbs}`;
}

/** A delivery's outcome: its last attempt's, else its status ("pending"). */
export function deliveryOutcome(delivery: Delivery): string {
  return delivery.Attempts.at(-1)?.Outcome ?? delivery.Status;
}

/** The last attempt's HTTP status, "none" when it had none (timeout, network error, e-mail). */
export function deliveryResponseStatus(delivery: Delivery): string {
  const last = delivery.Attempts.at(-1);
  if (!last) return "—";
  return last.HttpStatus === null ? "none" : String(last.HttpStatus);
}
