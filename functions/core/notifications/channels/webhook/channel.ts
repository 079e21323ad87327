/**
 * The webhook channel: a forwarder's webhook, active (switched on and its Url verified) and still
 * listening to the event. The body in the webhook's type (json, xml, text), its Token as a bearer
 * token, and with a Psk the Standard Webhooks signature, `webhook-id` being the delivery id (stable
 * across retries, so receivers de-duplicate on it). The SSRF guard is the HTTP sender's. A 410 Gone
 * switches the webhook off.
 */
import type {
  NotificationJob,
  OutboundPoster,
  SubscriptionRepository,
} from "../../../ports/notifications.ts";
import { matchesFilters } from "../../matching.ts";
import { renderEventPayload } from "../../payload.ts";
import { signWebhook } from "../../signing.ts";
import { renderWebhookBody } from "../../webhook-body.ts";
import { disableWebhook, isWebhookActive, type Webhook } from "../../webhooks.ts";
import type { DeliveryChannel } from "../channel.ts";
import { fromHttp, timeoutOf } from "../results.ts";

export interface WebhookChannelDeps {
  subscriptions: SubscriptionRepository;
  http: OutboundPoster;
}

export interface WebhookTarget {
  job: NotificationJob;
  webhook: Webhook;
}

export const webhookChannel: DeliveryChannel<WebhookTarget, WebhookChannelDeps> = {
  kind: "webhook",

  async resolve(job, { subscriptions }) {
    if (job.kind !== undefined || job.target.subscriptionKind !== "webhook") return null;
    const { target, event } = job;
    const webhook = await subscriptions.getWebhook(target.forwarderId, target.subscriptionId);
    if (!webhook) return { ok: false, reason: `webhook ${target.subscriptionId} was deleted` };
    if (!isWebhookActive(webhook)) {
      const why = !webhook.enabled
        ? webhook.disabledReason
          ? `disabled (${webhook.disabledReason})`
          : "disabled"
        : `not verified (${webhook.verification.status})`;
      return { ok: false, reason: `webhook ${webhook.id} is ${why}` };
    }
    if (!matchesFilters({ kind: "webhook", webhook }, event))
      return { ok: false, reason: `webhook ${webhook.id} no longer listens to this event` };
    return { ok: true, target: { job, webhook } };
  },

  async send({ job, webhook }, deps, attempt) {
    const payload = renderEventPayload(job.event, webhook.owner);
    const { contentType, body } = renderWebhookBody(payload, webhook.type);
    const headers: Record<string, string> = { "content-type": contentType };
    if (webhook.token) headers.authorization = `Bearer ${webhook.token}`;
    if (webhook.psk) {
      Object.assign(
        headers,
        signWebhook({ id: job.deliveryId, timestampSeconds: attempt.sentAtSeconds, body, psk: webhook.psk }),
      );
    }
    return fromHttp(
      await deps.http.post({ url: webhook.url, headers, body, ...timeoutOf(attempt.timeoutMs) }),
    );
  },

  async switchOff({ webhook }, { subscriptions }, now) {
    // Re-read so a change the forwarder made during the attempt is kept; only the switch flips.
    const current = await subscriptions.getWebhook(webhook.owner.forwarderId, webhook.id);
    if (current) await subscriptions.putWebhook(disableWebhook(current, "receiver answered 410 Gone", now));
    return " (webhook disabled)";
  },
};
