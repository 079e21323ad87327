/** Rules, webhooks and delivery records for the subscription adapter and use-case tests. */
import * as v from "valibot";
import {
  type NotificationRule,
  NotificationRuleRequestSchema,
  ruleFromRequest,
  type SubscriberIdentity,
  type Webhook,
  WebhookRequestSchema,
  webhookFromRequest,
} from "../../../functions/core/notifications/index.ts";
import type { DeliveryRecord, NotificationJob } from "../../../functions/core/ports/notifications.ts";
import { emailRuleBody, makeEvent, NOW, OWNER } from "../../unit/notifications/helpers.ts";

export {
  emailRuleBody,
  makeEvent,
  NOW,
  OWNER,
  STRANGER,
  urlRuleBody,
  XTD,
} from "../../unit/notifications/helpers.ts";

export function rule(
  id: number,
  overrides: Record<string, unknown> = {},
  owner: SubscriberIdentity = OWNER,
): NotificationRule {
  return ruleFromRequest(v.parse(NotificationRuleRequestSchema, emailRuleBody(overrides)), {
    id,
    owner,
    now: NOW,
  });
}

export function webhookBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Event: "DEP,ARR",
    Url: "https://hooks.example.com/in",
    Enable: true,
    Type: "json",
    AWB: "",
    ...overrides,
  };
}

export function webhook(
  id: number,
  overrides: Record<string, unknown> = {},
  owner: SubscriberIdentity = OWNER,
): Webhook {
  return webhookFromRequest(v.parse(WebhookRequestSchema, webhookBody(overrides)), { id, owner, now: NOW });
}

/** A delivery of `eventId` to webhook `webhookId` of OWNER (delivery id as the matcher builds it). */
export function deliveryRecord(
  eventId: string,
  webhookId = 7,
  overrides: Partial<DeliveryRecord & { job: NotificationJob }> = {},
  owner: SubscriberIdentity = OWNER,
): DeliveryRecord & { job: NotificationJob } {
  const event = makeEvent({ eventId });
  const deliveryId = `${eventId}:webhook-${webhookId}`;
  const job: NotificationJob = {
    deliveryId,
    event,
    target: {
      deliveryId,
      subscriptionKind: "webhook",
      subscriptionId: webhookId,
      forwarderId: owner.forwarderId,
      recipient: owner,
      targetKind: "webhook",
      url: "https://hooks.example.com/in",
      payloadType: "json",
    },
    attempt: 1,
  };
  return {
    deliveryId,
    eventId,
    subscriptionKind: "webhook",
    subscriptionId: webhookId,
    forwarderId: owner.forwarderId,
    status: "pending",
    attempts: [],
    job,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

/**
 * A delivery record created a minute ago, for tests against DynamoDB Local: a record expires 30 days
 * after creation (TTL) and DynamoDB Local deletes expired items, so one created at NOW (a fixed past
 * date) could vanish mid-test.
 */
export function recentDeliveryRecord(...args: Parameters<typeof deliveryRecord>): DeliveryRecord {
  const [eventId, webhookId, overrides = {}, owner] = args;
  const createdAt = new Date(Date.now() - 60_000).toISOString();
  return deliveryRecord(eventId, webhookId, { createdAt, updatedAt: createdAt, ...overrides }, owner);
}
