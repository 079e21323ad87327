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
  };
}

const text = (values: FormValues, name: string) => {
  const value = values[name];
  return typeof value === "string" ? value.trim() : "";
};

/**
 * The rule body: texts trimmed, stations upper-cased, ProActiveTime a number when it is one (else the
 * text, so the API names the field instead of the app guessing).
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
    ProActiveTime: /^\d+$/.test(minutes) ? Number(minutes) : minutes === "" ? 0 : minutes,
    Origin: text(values, "Origin").toUpperCase(),
    Destination: text(values, "Destination").toUpperCase(),
    Enabled: values.Enabled === true,
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

/** Which alert a rule raises, in words. */
export function ruleAlertText(rule: Rule): string {
  if (rule.ProActiveAlert) return `${rule.ProActiveTime} min before due`;
  if (rule.MissedEventAlert) return "when missed";
  return "when reported";
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
