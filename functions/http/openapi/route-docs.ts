/**
 * What the OpenAPI document says about each route (summary, tag, body/query/response schemas and
 * descriptions), keyed by handler id. The route itself (method, path, roles, content types) is plain
 * data in functions/contracts/routes.ts; the `Record<HandlerId, ...>` type makes a route without docs
 * fail to compile.
 */
import type { GenericSchema } from "valibot";
import type { HandlerId } from "../../contracts/routes.ts";
import { CarrierJsonMessageSchema } from "../../core/carrier-messages/index.ts";
import {
  CustomerEndpointRequestSchema,
  NotificationRuleRequestSchema,
  NotificationRuleUpdateSchema,
  WebhookRequestSchema,
  WebhookUpdateSchema,
} from "../../core/notifications/index.ts";
import { CarrierSchema, CarrierSettingsSchema } from "../schemas/carriers.ts";
import {
  CustomerEndpointResponseSchema,
  DeliverySchema,
  NotificationRuleResponseSchema,
  ReplayResponseSchema,
  WebhookResponseSchema,
} from "../schemas/notifications.ts";
import { PagingQuerySchema, pagedSchema } from "../schemas/paging.ts";
import {
  IngestResultSchema,
  RouteMapHistorySchema,
  RouteMapSchema,
  RouteMapSearchResultSchema,
  RouteMapSearchSchema,
  SendsmeRequestSchema,
  SendsmeResponseSchema,
} from "../schemas/route-maps.ts";

export interface RouteDocs {
  summary: string;
  tag: string;
  /** Schema of a JSON body (documented under application/json) and a description of the body. */
  body?: { schema?: GenericSchema; description?: string };
  /** One query parameter per property. */
  query?: GenericSchema;
  response?: GenericSchema;
}

const PAGING = " Paged: ?CurrentPage= (1-based) &PageSize= (default 100, max 500).";
const OWNER_ONLY = " Only your own; anything else is 404.";

/** Documented in the OpenAPI document (body description of the webhook routes) and the README. */
const WEBHOOK_VERIFICATION_DOC =
  "URL verification: on creation, on a PUT that changes Url (or leaves the webhook unverified) and on " +
  'POST .../webhook/{id}/verify, the service POSTs { "Type": "WebhookVerification", "Challenge": ' +
  '"<random>", "WebhookId": <id> } with header x-route-map-challenge: <random> (and the webhook\'s ' +
  "bearer Token / Standard Webhooks signature when set). The receiver must answer 2xx within 5 s with " +
  'the challenge echoed: JSON { "Challenge": "<same>" } or a text body equal to it. Until it does, ' +
  "the webhook receives nothing and answers Enabled false; header x-webhook-verification says " +
  "verified, pending or failed; <reason>. Token and Psk are shown in full only in the creating " +
  "response, masked (last 4 characters) afterwards. At most MAX_WEBHOOKS_PER_FORWARDER (default 50) " +
  "webhooks per forwarder (409 beyond).";

export const ROUTE_DOCS: Record<HandlerId, RouteDocs> = {
  "get-openapi": { summary: "This API's OpenAPI 3.1 description", tag: "meta" },
  "ingest-carrier-message": {
    summary:
      "Report carrier messages: Cargo-IMP text (FSU, FWB, FFR/FFA), Cargo-XML XFSU, or the JSON event form",
    tag: "carriers",
    body: {
      // Documentation only: the handler passes the raw body to the parsers so errors name the line.
      schema: CarrierJsonMessageSchema,
      description:
        "text/plain: Cargo-IMP (several messages may share a body; Type-B envelope lines are skipped). " +
        "application/xml or text/xml: XFSU. application/json: the schema below. Every AWB must carry the " +
        "calling carrier's prefix. Errors are 400 problem+json naming the line, and nothing is stored. " +
        "Each message is stored in its own transaction: a body stored only in part (lost write races 409, " +
        "a change too large 422, a fault 500) answers with an `Applied` member listing what was stored, " +
        "shaped like the success body; resend from the message named in errors[0].field.",
    },
    response: IngestResultSchema,
  },
  "trigger-route-map": {
    summary:
      "Trigger a route map (quality program: owner only; IsXTD true: XTD). 200 with the route map, or " +
      "{ AwbNumber, Status: Requested } when the caller cannot read one yet; header x-route-map-note for advice",
    tag: "route maps",
    body: { schema: SendsmeRequestSchema },
    response: SendsmeResponseSchema,
  },
  "search-route-maps": {
    summary:
      "Search the route maps you may read (filters in the body, ?CurrentPage=&PageSize= default 100, max 500)",
    tag: "route maps",
    body: { schema: RouteMapSearchSchema },
    query: PagingQuerySchema,
    response: RouteMapSearchResultSchema,
  },
  "get-route-map-history": {
    summary: "The route map with its snapshots (one per change, newest first, kept 30 days from creation)",
    tag: "route maps",
    response: RouteMapHistorySchema,
  },
  "get-route-map": {
    summary: "Retrieve the route map of one AWB (11 digits or ppp-nnnnnnnn)",
    tag: "route maps",
    response: RouteMapSchema,
  },
  "put-carrier": {
    summary: "Create or update a carrier's participation (quality program, XTD)",
    tag: "support",
    body: { schema: CarrierSettingsSchema },
    response: CarrierSchema,
  },
  "get-carrier": { summary: "Read a carrier's participation", tag: "support", response: CarrierSchema },
  // ---- notification rules ------------------------------------------------------------------------
  "create-notification-rule": {
    summary:
      "Create a notification rule (Email or Url channel). Url: NotifyTo must be a customer endpoint GUID " +
      "support registered for you (else 422 naming NotifyTo). At most MAX_RULES_PER_FORWARDER (default " +
      "500) rules per forwarder (409 beyond).",
    tag: "notifications",
    body: { schema: NotificationRuleRequestSchema },
    response: NotificationRuleResponseSchema,
  },
  "list-notification-rules": {
    summary: `Your notification rules in id order.${PAGING}`,
    tag: "notifications",
    query: PagingQuerySchema,
    response: pagedSchema(NotificationRuleResponseSchema),
  },
  "get-notification-rule": {
    summary: `One notification rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  "update-notification-rule": {
    summary: `Replace a notification rule (same rules as creation; Id and owner stay).${OWNER_ONLY}`,
    tag: "notifications",
    body: { schema: NotificationRuleUpdateSchema },
    response: NotificationRuleResponseSchema,
  },
  "delete-notification-rule": {
    summary: `Delete a notification rule; 200 with the deleted rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  "enable-notification-rule": {
    summary: `Switch a rule on (idempotent); 200 with the rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  "disable-notification-rule": {
    summary: `Switch a rule off (idempotent); 200 with the rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: NotificationRuleResponseSchema,
  },
  "list-rule-deliveries": {
    summary: `The rule's deliveries (newest first, kept 30 days) with their attempt log.${PAGING}${OWNER_ONLY}`,
    tag: "notifications",
    query: PagingQuerySchema,
    response: pagedSchema(DeliverySchema),
  },
  "replay-rule-delivery": {
    summary:
      "Send a delivered or parked delivery again as one new attempt; 202 with the delivery (409 while " +
      `it is still being attempted).${OWNER_ONLY}`,
    tag: "notifications",
    response: ReplayResponseSchema,
  },
  // ---- webhooks -----------------------------------------------------------------------------------
  "create-webhook": {
    summary:
      "Register a webhook; its Url is verified at once (challenge echo, see the body description). A Url " +
      "the service may not call (production: https and public addresses only) is a 422 naming Url.",
    tag: "webhooks",
    body: { schema: WebhookRequestSchema, description: WEBHOOK_VERIFICATION_DOC },
    response: WebhookResponseSchema,
  },
  "list-webhooks": {
    summary: `Your webhooks in id order, secrets masked.${PAGING}`,
    tag: "webhooks",
    query: PagingQuerySchema,
    response: pagedSchema(WebhookResponseSchema),
  },
  "get-webhook": {
    summary: `One webhook, secrets masked; header x-webhook-verification.${OWNER_ONLY}`,
    tag: "webhooks",
    response: WebhookResponseSchema,
  },
  "update-webhook": {
    summary:
      "Replace a webhook (absent Token/Psk keep the stored ones, null removes them); a changed Url is " +
      `verified again.${OWNER_ONLY}`,
    tag: "webhooks",
    body: { schema: WebhookUpdateSchema, description: WEBHOOK_VERIFICATION_DOC },
    response: WebhookResponseSchema,
  },
  "delete-webhook": {
    summary: `Delete a webhook; 200 with the deleted webhook (secrets masked).${OWNER_ONLY}`,
    tag: "webhooks",
    response: WebhookResponseSchema,
  },
  "verify-webhook": {
    summary:
      'Run the URL challenge again (POST { "Type": "WebhookVerification", "Challenge", "WebhookId" }, ' +
      'header x-route-map-challenge; answer 2xx echoing it as { "Challenge": "<same>" } or plain text); ' +
      `200 with the webhook and header x-webhook-verification.${OWNER_ONLY}`,
    tag: "webhooks",
    response: WebhookResponseSchema,
  },
  "list-webhook-deliveries": {
    summary: `The webhook's deliveries (newest first, kept 30 days) with their attempt log.${PAGING}${OWNER_ONLY}`,
    tag: "webhooks",
    query: PagingQuerySchema,
    response: pagedSchema(DeliverySchema),
  },
  "replay-webhook-delivery": {
    summary:
      "Send a delivered or parked delivery again as one new attempt; 202 with the delivery (409 while " +
      `it is still being attempted).${OWNER_ONLY}`,
    tag: "webhooks",
    response: ReplayResponseSchema,
  },
  // ---- support: customer endpoints ----------------------------------------------------------------
  "register-customer-endpoint": {
    summary:
      "Register a forwarder's Url-channel endpoint and its header; the answer's Id (GUID) is the NotifyTo " +
      "of that forwarder's Url rules. HeaderValue is shown in full only in this response.",
    tag: "support",
    body: { schema: CustomerEndpointRequestSchema },
    response: CustomerEndpointResponseSchema,
  },
  "list-customer-endpoints": {
    summary: `Registered customer endpoints in registration order, header values masked.${PAGING}`,
    tag: "support",
    query: PagingQuerySchema,
    response: pagedSchema(CustomerEndpointResponseSchema),
  },
};
