/**
 * Response schemas of the notification routes (for the OpenAPI document) and the mapping of domain
 * values to them. Request schemas come from functions/core/notifications.
 */
import * as v from "valibot";
import {
  type CustomerEndpoint,
  customerEndpointToApi,
  isWebhookActive,
  type NotificationRule,
  ruleToApi,
  type Webhook,
  webhookToApi,
} from "../../core/notifications/index.ts";
import type { DeliveryRecord } from "../../core/ports/notifications.ts";
import type { HttpResult } from "../request.ts";

export const NotificationRuleResponseSchema = v.object({
  ChannelType: v.picklist(["Email", "Url"]),
  NotifyTo: v.string(),
  HeaderItems: v.string(),
  FormatType: v.picklist(["Html", "Json"]),
  AirlinePrefix: v.string(),
  AwbNumber: v.string(),
  Event: v.string(),
  EventAlert: v.boolean(),
  MissedEventAlert: v.boolean(),
  ProActiveAlert: v.boolean(),
  ProActiveTime: v.number(),
  Destination: v.string(),
  Enabled: v.boolean(),
  Id: v.number(),
  ForwarderIdentifier: v.string(),
  AgentCode: v.nullable(v.string()),
  AgentCass: v.nullable(v.string()),
  Origin: v.nullable(v.string()),
  IgnoreStation: v.null(),
});

export const WebhookResponseSchema = v.object({
  Id: v.number(),
  ForwarderIdentifier: v.string(),
  Event: v.string(),
  Url: v.string(),
  Token: v.pipe(v.nullable(v.string()), v.description("Shown in full only in the creating response")),
  Enabled: v.pipe(
    v.boolean(),
    v.description("true only when switched on (Enable) AND the Url passed the challenge"),
  ),
  Type: v.picklist(["json", "xml", "text"]),
  Psk: v.pipe(v.nullable(v.string()), v.description("Shown in full only in the creating response")),
  AWB: v.nullable(v.string()),
});

const AttemptSchema = v.object({
  Attempt: v.number(),
  At: v.string(),
  HttpStatus: v.pipe(v.nullable(v.number()), v.description("null: timeout, network error or refused")),
  LatencyMs: v.number(),
  Outcome: v.picklist(["delivered", "retry", "parked", "disabled"]),
  Detail: v.pipe(v.string(), v.description("Response body or error, truncated")),
  NextAttemptAt: v.pipe(v.nullable(v.string()), v.description("When the next attempt is due (retries only)")),
});

export const DeliverySchema = v.object({
  DeliveryId: v.string(),
  EventId: v.string(),
  Event: v.string(),
  Type: v.string(),
  AwbNumber: v.string(),
  SubscriptionKind: v.picklist(["rule", "webhook"]),
  SubscriptionId: v.number(),
  Status: v.picklist(["pending", "retrying", "delivered", "parked"]),
  CreatedAt: v.string(),
  UpdatedAt: v.string(),
  Attempts: v.pipe(v.array(AttemptSchema), v.description("Oldest first; the last 20 are kept")),
});

export const ReplayResponseSchema = v.object({
  ...DeliverySchema.entries,
  ReplayAttempt: v.pipe(v.number(), v.description("Number of the attempt just queued")),
});

export const CustomerEndpointResponseSchema = v.object({
  Id: v.pipe(v.string(), v.description("GUID: the NotifyTo of the forwarder's Url rules")),
  ForwarderIdentifier: v.string(),
  Url: v.string(),
  HeaderName: v.string(),
  HeaderValue: v.pipe(v.string(), v.description("Shown in full only in the registering response")),
});

export const ruleBody = (rule: NotificationRule) => ruleToApi(rule);

/** Spec fields, with `Enabled` = actually receiving events (switched on and verified). */
export function webhookBody(webhook: Webhook, revealSecrets = false) {
  return { ...webhookToApi(webhook, { revealSecrets }), Enabled: isWebhookActive(webhook) };
}

/** Header values are printable ASCII; a receiver's error text may not be. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, "?").slice(0, 300);

/**
 * One webhook with why it is (not) receiving: `x-webhook-verification: verified | pending |
 * failed; <reason>`, and `x-webhook-disabled: <reason>` when the service switched it off (410).
 */
export function webhookResult(
  webhook: Webhook,
  options: { status?: number; revealSecrets?: boolean } = {},
): HttpResult {
  const { verification } = webhook;
  const headers: Record<string, string> = {
    "x-webhook-verification": headerSafe(
      verification.status === "failed" ? `failed; ${verification.reason ?? "unknown"}` : verification.status,
    ),
  };
  if (webhook.disabledReason) headers["x-webhook-disabled"] = headerSafe(webhook.disabledReason);
  return { status: options.status ?? 200, body: webhookBody(webhook, options.revealSecrets), headers };
}

export function deliveryBody(record: DeliveryRecord) {
  const { event } = record.job;
  return {
    DeliveryId: record.deliveryId,
    EventId: record.eventId,
    Event: event.name,
    Type: event.type,
    AwbNumber: `${event.awb.prefix}-${event.awb.serial}`,
    SubscriptionKind: record.subscriptionKind,
    SubscriptionId: record.subscriptionId,
    Status: record.status,
    CreatedAt: record.createdAt,
    UpdatedAt: record.updatedAt,
    Attempts: record.attempts.map((attempt) => ({
      Attempt: attempt.attempt,
      At: attempt.at,
      HttpStatus: attempt.status,
      LatencyMs: attempt.latencyMs,
      Outcome: attempt.outcome,
      Detail: attempt.detail,
      NextAttemptAt: attempt.nextAttemptAt ?? null,
    })),
  };
}

export const customerEndpointBody = (endpoint: CustomerEndpoint, revealSecrets = false) =>
  customerEndpointToApi(endpoint, { revealSecrets });
