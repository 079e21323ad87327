/**
 * Response schemas of the notification routes (for the OpenAPI document) and the mapping of domain
 * values to them. Request schemas come from functions/core/notifications.
 */
import * as v from "valibot";
import type { AwbId } from "../../core/carrier-messages/types.ts";
import {
  type CustomerEndpoint,
  customerEndpointToApi,
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
  Destination: v.pipe(v.nullable(v.string()), v.description("null when no destination filter was sent")),
  Enabled: v.boolean(),
  ShareLinkHours: v.pipe(
    v.nullable(v.number()),
    v.description(
      "Email rules: the e-mail's route-map link is a share link (no sign-in) valid this many hours (1-720), made when the e-mail is sent; null: a link to the signed-in web app",
    ),
  ),
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
    v.description(
      "Switched on (Enable): receives events whether verified or not; false after a receiver's 410",
    ),
  ),
  Type: v.picklist(["json", "xml", "text"]),
  Psk: v.pipe(v.nullable(v.string()), v.description("Shown in full only in the creating response")),
  AWB: v.nullable(v.string()),
  Verified: v.pipe(
    v.boolean(),
    v.description("The Url answered the challenge with its bare value (an ownership proof, not a gate)"),
  ),
  LastVerification: v.pipe(
    v.nullable(
      v.object({
        Outcome: v.picklist(["verified", "failed"]),
        At: v.nullable(v.string()),
        Detail: v.pipe(v.nullable(v.string()), v.description("Why it failed; null when verified")),
      }),
    ),
    v.description("The last run of the challenge (creation, a new Url, POST …/verify); null before any"),
  ),
  LastDelivery: v.pipe(
    v.optional(
      v.nullable(
        v.object({
          DeliveryId: v.string(),
          Event: v.string(),
          Status: v.picklist(["pending", "retrying", "delivered", "parked"]),
          At: v.pipe(v.string(), v.description("When it last changed (UTC)")),
          HttpStatus: v.pipe(
            v.nullable(v.number()),
            v.description("Of the last attempt; null: none yet, timeout, network error or refused"),
          ),
          Detail: v.pipe(
            v.nullable(v.string()),
            v.description("The last attempt's answer or error, cut to 200 characters"),
          ),
        }),
      ),
    ),
    v.description(
      "GET and list only: the newest delivery (the last delivery outcome); null when none in the last 30 days. Full log: …/{id}/deliveries",
    ),
  ),
});

export const AttemptSchema = v.object({
  Attempt: v.number(),
  At: v.string(),
  HttpStatus: v.pipe(v.nullable(v.number()), v.description("null: timeout, network error or refused")),
  LatencyMs: v.number(),
  Outcome: v.pipe(
    v.picklist(["delivered", "retry", "parked", "disabled", "suppressed", "bounced", "complained"]),
    v.description(
      "suppressed: not sent, the address bounced or complained before; bounced/complained: SES feedback on the e-mail of that attempt",
    ),
  ),
  Detail: v.pipe(v.string(), v.description("Response body or error, truncated")),
  NextAttemptAt: v.pipe(v.nullable(v.string()), v.description("When the next attempt is due (retries only)")),
});

export const DeliverySchema = v.object({
  DeliveryId: v.string(),
  EventId: v.string(),
  Event: v.string(),
  Type: v.string(),
  AwbNumber: v.string(),
  SubscriptionKind: v.picklist(["rule", "webhook", "carrier", "onerecord"]),
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

const LAST_DELIVERY_DETAIL = 200;

/** The newest delivery as GET and list show it: its state and its last attempt. */
export function lastDeliveryBody(record: DeliveryRecord | null) {
  if (!record) return null;
  const last = record.attempts.at(-1);
  const detail = last?.detail ?? null;
  return {
    DeliveryId: record.deliveryId,
    Event: deliveredWhat(record).event,
    Status: record.status,
    At: record.updatedAt,
    HttpStatus: last?.status ?? null,
    Detail:
      detail !== null && detail.length > LAST_DELIVERY_DETAIL
        ? `${detail.slice(0, LAST_DELIVERY_DETAIL - 1)}…`
        : detail,
  };
}

/**
 * Spec fields, then `Verified` and `LastVerification`; with `view` (GET and list) also `LastDelivery`,
 * the newest delivery.
 */
export function webhookBody(
  webhook: Webhook,
  revealSecrets = false,
  view?: { lastDelivery: DeliveryRecord | null },
) {
  const body = webhookToApi(webhook, { revealSecrets });
  return view ? { ...body, LastDelivery: lastDeliveryBody(view.lastDelivery) } : body;
}

/** Header values are printable ASCII; a receiver's error text may not be. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, "?").slice(0, 300);

/**
 * One webhook, with the verification outcome also as a header (`x-webhook-verification: verified |
 * pending | failed; <reason>`, informative: it never gates deliveries), and `x-webhook-disabled:
 * <reason>` when the service switched it off (410).
 */
export function webhookResult(
  webhook: Webhook,
  options: { status?: number; revealSecrets?: boolean; lastDelivery?: DeliveryRecord | null } = {},
): HttpResult {
  const { verification } = webhook;
  const headers: Record<string, string> = {
    "x-webhook-verification": headerSafe(
      verification.status === "failed" ? `failed; ${verification.reason ?? "unknown"}` : verification.status,
    ),
  };
  if (webhook.disabledReason) headers["x-webhook-disabled"] = headerSafe(webhook.disabledReason);
  const view = options.lastDelivery === undefined ? undefined : { lastDelivery: options.lastDelivery };
  return { status: options.status ?? 200, body: webhookBody(webhook, options.revealSecrets, view), headers };
}

/** What a delivery carries: an event, or (a carrier's delivery) a status request. */
function deliveredWhat(record: DeliveryRecord): { event: string; type: string; awb: AwbId } {
  const { job } = record;
  if (job.kind === "status-request") return { event: "StatusRequest", type: "FSR", awb: job.request.awb };
  return { event: job.event.name, type: job.event.type, awb: job.event.awb };
}

export function deliveryBody(record: DeliveryRecord) {
  const what = deliveredWhat(record);
  return {
    DeliveryId: record.deliveryId,
    EventId: record.eventId,
    Event: what.event,
    Type: what.type,
    AwbNumber: `${what.awb.prefix}-${what.awb.serial}`,
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

/** `?force=true|false` of DELETE /support/customer-endpoints/{id} (default false); nothing else. */
export const ForceQuerySchema = v.strictObject({
  force: v.optional(v.picklist(["true", "false"], "must be true or false"), "false"),
});

export const DeletedCustomerEndpointResponseSchema = v.object({
  ...CustomerEndpointResponseSchema.entries,
  DisabledRules: v.pipe(v.array(v.number()), v.description("Ids of the Url rules ?force=true switched off")),
});
