/**
 * Routes of notification rules, webhooks, deliveries and customer endpoints (issue 4); spread into the
 * one route table in routes.ts. Every forwarder route only ever reaches the caller's own rules,
 * webhooks and deliveries: another forwarder's answer 404 exactly like unknown ones.
 */
import {
  CustomerEndpointRequestSchema,
  NotificationRuleRequestSchema,
  NotificationRuleUpdateSchema,
  WebhookRequestSchema,
  WebhookUpdateSchema,
} from "../../core/notifications/index.ts";
import {
  CustomerEndpointResponseSchema,
  DeliverySchema,
  NotificationRuleResponseSchema,
  pagedSchema,
  ReplayResponseSchema,
  WebhookResponseSchema,
} from "./notification-schemas.ts";
import type { RouteDefinition } from "./routes.ts";
import { PagingQuerySchema } from "./schemas.ts";

const FFW = "/ffw/service/routemap";
const RULES = `${FFW}/eventconfignotifier`;
const WEBHOOKS = `${FFW}/webhook`;
const JSON_BODY = ["application/json"] as const;
const forwarder = ["forwarder"] as const;
const PAGING = " Paged: ?CurrentPage= (1-based) &PageSize= (default 100, max 500).";
const OWNER_ONLY = " Only your own; anything else is 404.";

/** Documented in the OpenAPI document (body description of the webhook routes) and the README. */
export const WEBHOOK_VERIFICATION_DOC =
  "URL verification: on creation, on a PUT that changes Url (or leaves the webhook unverified) and on " +
  'POST .../webhook/{id}/verify, the service POSTs { "Type": "WebhookVerification", "Challenge": ' +
  '"<random>", "WebhookId": <id> } with header x-route-map-challenge: <random> (and the webhook\'s ' +
  "bearer Token / Standard Webhooks signature when set). The receiver must answer 2xx within 5 s with " +
  'the challenge echoed: JSON { "Challenge": "<same>" } or a text body equal to it. Until it does, ' +
  "the webhook receives nothing and answers Enabled false; header x-webhook-verification says " +
  "verified, pending or failed; <reason>. Token and Psk are shown in full only in the creating " +
  "response, masked (last 4 characters) afterwards. At most MAX_WEBHOOKS_PER_FORWARDER (default 50) " +
  "webhooks per forwarder (409 beyond).";

export const NOTIFICATION_ROUTES: readonly RouteDefinition[] = [
  // ---- notification rules ------------------------------------------------------------------------
  {
    handler: "create-notification-rule",
    method: "POST",
    path: RULES,
    roles: forwarder,
    summary:
      "Create a notification rule (Email or Url channel). Url: NotifyTo must be a customer endpoint GUID " +
      "support registered for you (else 422 naming NotifyTo). At most MAX_RULES_PER_FORWARDER (default " +
      "500) rules per forwarder (409 beyond).",
    tag: "notifications",
    body: { contentTypes: JSON_BODY, schema: NotificationRuleRequestSchema },
    response: NotificationRuleResponseSchema,
  },
  {
    handler: "list-notification-rules",
    method: "GET",
    path: RULES,
    roles: forwarder,
    summary: `Your notification rules in id order.${PAGING}`,
    tag: "notifications",
    query: PagingQuerySchema,
    response: pagedSchema(NotificationRuleResponseSchema),
  },
  {
    handler: "get-notification-rule",
    method: "GET",
    path: `${RULES}/{id}`,
    roles: forwarder,
    summary: `One notification rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  {
    handler: "update-notification-rule",
    method: "PUT",
    path: `${RULES}/{id}`,
    roles: forwarder,
    summary: `Replace a notification rule (same rules as creation; Id and owner stay).${OWNER_ONLY}`,
    tag: "notifications",
    body: { contentTypes: JSON_BODY, schema: NotificationRuleUpdateSchema },
    response: NotificationRuleResponseSchema,
  },
  {
    handler: "delete-notification-rule",
    method: "DELETE",
    path: `${RULES}/{id}`,
    roles: forwarder,
    summary: `Delete a notification rule; 200 with the deleted rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  {
    handler: "enable-notification-rule",
    method: "POST",
    path: `${RULES}/{id}/enable`,
    roles: forwarder,
    summary: `Switch a rule on (idempotent); 200 with the rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  {
    handler: "disable-notification-rule",
    method: "POST",
    path: `${RULES}/{id}/disable`,
    roles: forwarder,
    summary: `Switch a rule off (idempotent); 200 with the rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  {
    handler: "list-rule-deliveries",
    method: "GET",
    path: `${RULES}/{id}/deliveries`,
    roles: forwarder,
    summary: `The rule's deliveries (newest first, kept 30 days) with their attempt log.${PAGING}${OWNER_ONLY}`,
    tag: "notifications",
    query: PagingQuerySchema,
    response: pagedSchema(DeliverySchema),
  },
  {
    handler: "replay-rule-delivery",
    method: "POST",
    path: `${RULES}/{id}/deliveries/{deliveryId}/replay`,
    roles: forwarder,
    summary:
      "Send a delivered or parked delivery again as one new attempt; 202 with the delivery (409 while " +
      `it is still being attempted).${OWNER_ONLY}`,
    tag: "notifications",
    response: ReplayResponseSchema,
  },
  // ---- webhooks -----------------------------------------------------------------------------------
  {
    handler: "create-webhook",
    method: "POST",
    path: WEBHOOKS,
    roles: forwarder,
    summary:
      "Register a webhook; its Url is verified at once (challenge echo, see the body description). A Url " +
      "the service may not call (production: https and public addresses only) is a 422 naming Url.",
    tag: "webhooks",
    body: { contentTypes: JSON_BODY, schema: WebhookRequestSchema, description: WEBHOOK_VERIFICATION_DOC },
    response: WebhookResponseSchema,
  },
  {
    handler: "list-webhooks",
    method: "GET",
    path: WEBHOOKS,
    roles: forwarder,
    summary: `Your webhooks in id order, secrets masked.${PAGING}`,
    tag: "webhooks",
    query: PagingQuerySchema,
    response: pagedSchema(WebhookResponseSchema),
  },
  {
    handler: "get-webhook",
    method: "GET",
    path: `${WEBHOOKS}/{id}`,
    roles: forwarder,
    summary: `One webhook, secrets masked; header x-webhook-verification.${OWNER_ONLY}`,
    tag: "webhooks",
    response: WebhookResponseSchema,
  },
  {
    handler: "update-webhook",
    method: "PUT",
    path: `${WEBHOOKS}/{id}`,
    roles: forwarder,
    summary:
      "Replace a webhook (absent Token/Psk keep the stored ones, null removes them); a changed Url is " +
      `verified again.${OWNER_ONLY}`,
    tag: "webhooks",
    body: { contentTypes: JSON_BODY, schema: WebhookUpdateSchema, description: WEBHOOK_VERIFICATION_DOC },
    response: WebhookResponseSchema,
  },
  {
    handler: "delete-webhook",
    method: "DELETE",
    path: `${WEBHOOKS}/{id}`,
    roles: forwarder,
    summary: `Delete a webhook; 200 with the deleted webhook (secrets masked).${OWNER_ONLY}`,
    tag: "webhooks",
    response: WebhookResponseSchema,
  },
  {
    handler: "verify-webhook",
    method: "POST",
    path: `${WEBHOOKS}/{id}/verify`,
    roles: forwarder,
    summary:
      'Run the URL challenge again (POST { "Type": "WebhookVerification", "Challenge", "WebhookId" }, ' +
      'header x-route-map-challenge; answer 2xx echoing it as { "Challenge": "<same>" } or plain text); ' +
      `200 with the webhook and header x-webhook-verification.${OWNER_ONLY}`,
    tag: "webhooks",
    response: WebhookResponseSchema,
  },
  {
    handler: "list-webhook-deliveries",
    method: "GET",
    path: `${WEBHOOKS}/{id}/deliveries`,
    roles: forwarder,
    summary: `The webhook's deliveries (newest first, kept 30 days) with their attempt log.${PAGING}${OWNER_ONLY}`,
    tag: "webhooks",
    query: PagingQuerySchema,
    response: pagedSchema(DeliverySchema),
  },
  {
    handler: "replay-webhook-delivery",
    method: "POST",
    path: `${WEBHOOKS}/{id}/deliveries/{deliveryId}/replay`,
    roles: forwarder,
    summary:
      "Send a delivered or parked delivery again as one new attempt; 202 with the delivery (409 while " +
      `it is still being attempted).${OWNER_ONLY}`,
    tag: "webhooks",
    response: ReplayResponseSchema,
  },
  // ---- support: customer endpoints ----------------------------------------------------------------
  {
    handler: "register-customer-endpoint",
    method: "POST",
    path: "/support/customer-endpoints",
    roles: ["support"],
    summary:
      "Register a forwarder's Url-channel endpoint and its header; the answer's Id (GUID) is the NotifyTo " +
      "of that forwarder's Url rules. HeaderValue is shown in full only in this response.",
    tag: "support",
    body: { contentTypes: JSON_BODY, schema: CustomerEndpointRequestSchema },
    response: CustomerEndpointResponseSchema,
  },
  {
    handler: "list-customer-endpoints",
    method: "GET",
    path: "/support/customer-endpoints",
    roles: ["support"],
    summary: `Registered customer endpoints in registration order, header values masked.${PAGING}`,
    tag: "support",
    query: PagingQuerySchema,
    response: pagedSchema(CustomerEndpointResponseSchema),
  },
];
