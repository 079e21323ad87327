/**
 * What the OpenAPI document says about each route (summary, tag, body/query/response schemas and
 * descriptions), keyed by handler id. The route itself (method, path, roles, content types) is plain
 * data in functions/contracts/routes.ts; the `Record<HandlerId, ...>` type makes a route without docs
 * fail to compile.
 */
import * as v from "valibot";
import type { HandlerId } from "../../contracts/routes.ts";
import { CarrierJsonMessageSchema } from "../../core/carrier-messages/index.ts";
import {
  CustomerEndpointRequestSchema,
  CustomerEndpointUpdateSchema,
  NotificationRuleRequestSchema,
  NotificationRuleUpdateSchema,
  WebhookRequestSchema,
  WebhookUpdateSchema,
} from "../../core/notifications/index.ts";
import { CarrierSchema, CarrierSettingsSchema } from "../schemas/carriers.ts";
import { ForwarderUserRequestSchema, ForwarderUserResponseSchema } from "../schemas/forwarder-users.ts";
import { InboundMailEntrySchema } from "../schemas/inbound-mail.ts";
import {
  CustomerEndpointResponseSchema,
  DeletedCustomerEndpointResponseSchema,
  DeliverySchema,
  ForceQuerySchema,
  NotificationRuleResponseSchema,
  ReplayResponseSchema,
  WebhookResponseSchema,
} from "../schemas/notifications.ts";
import { OneRecordNotificationResultSchema } from "../schemas/onerecord.ts";
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
import { CreatedShareSchema, ShareListSchema, ShareRequestSchema } from "../schemas/share-links.ts";
import {
  AllXtdUsageSchema,
  CarrierStatusRequestReplaySchema,
  CarrierStatusRequestSchema,
  MonthQuerySchema,
  PulledStatusRequestSchema,
  XtdUsageSchema,
} from "../schemas/status-requests.ts";
import {
  CarrierTenantResponseSchema,
  ClientRequestSchema,
  ClientResponseSchema,
  CreatedClientResponseSchema,
  CursorQuerySchema,
  cursorPagedSchema,
  DeletedCarrierResponseSchema,
  DeletedForwarderResponseSchema,
  ForwarderRequestSchema,
  ForwarderResponseSchema,
} from "../schemas/tenants.ts";

export interface RouteDocs {
  summary: string;
  tag: string;
  /** Schema of a JSON body (documented under application/json) and a description of the body. */
  body?: { schema?: v.GenericSchema; description?: string };
  /** One query parameter per property. */
  query?: v.GenericSchema;
  response?: v.GenericSchema;
}

const PAGING = " Paged: ?CurrentPage= (1-based) &PageSize= (default 100, max 500).";
const CURSOR_PAGING =
  " Paged: ?Limit= (1-100, default 100) &Cursor= (the NextCursor of the previous page; null on the last).";
const IDEMPOTENT = " Idempotent; unknown: 404.";
const NEW_CLIENT =
  " OAuth 2.0 client credentials for POST /oauth2/token: 201 with ClientId and ClientSecret, the secret " +
  "shown only in this answer. Allowed while the tenant is disabled (no token until it is enabled).";
const ROTATE = " Rotating a secret: create a new client, switch over, delete the old one.";
const OWNER_ONLY = " Only your own; anything else is 404.";

/** Documented in the OpenAPI document (body description of the webhook routes) and the README. */
const WEBHOOK_VERIFICATION_DOC =
  "Enable true means enabled: the webhook receives events whether or not its Url is verified. URL " +
  "verification is an optional ownership proof, run on creation, on a PUT that changes Url (or " +
  'switches on a webhook a 410 switched off) and on POST .../webhook/{id}/verify: the service POSTs { "Type": ' +
  '"WebhookVerification", "Challenge": "<random>", "WebhookId": <id> } with header ' +
  "x-route-map-challenge: <random> (and the webhook's bearer Token / Standard Webhooks signature when " +
  "set). The receiver proves it by answering 2xx within 5 s with the bare challenge value as the body " +
  "(text/plain; a JSON string is accepted too). An echo of the request (its JSON body, or any JSON " +
  "object) does not pass, so an endpoint that merely reflects requests cannot. The outcome is shown as " +
  "Verified and LastVerification (and header x-webhook-verification: verified, pending or failed; " +
  "<reason>). Unknown and response-only members (Id, ForwarderIdentifier, Enabled, Verified, ...) are " +
  "ignored; Enabled stands in for Enable when only it is sent. Token and Psk are shown in full only in " +
  "the creating response, masked (last 4 characters) afterwards; the masked value sent back keeps the " +
  "stored secret, except with a changed Url, which needs the secrets in full again (or null: 400 " +
  "otherwise). Url: no spaces or control characters. At most MAX_WEBHOOKS_PER_FORWARDER (default 50) " +
  "webhooks per forwarder (409 beyond).";

export const ROUTE_DOCS: Record<HandlerId, RouteDocs> = {
  "get-openapi": { summary: "This API's OpenAPI 3.1 description", tag: "meta" },
  "show-email-confirmation": {
    summary:
      "The link of a NotifyTo confirmation e-mail (no bearer token: the random link token is the " +
      "credential): an HTML page naming the address and forwarder with a Confirm button (a POST to the " +
      "same URL). Changes nothing. Used, replaced or expired (7 days) links: 404.",
    tag: "notifications",
  },
  "confirm-email-address": {
    summary:
      "Confirms the address of a confirmation link for the forwarder whose Email rule named it; alerts " +
      "to it are delivered from then on; answers an HTML page saying so. Used, replaced or expired " +
      "links: 404.",
    tag: "notifications",
  },
  "ingest-carrier-message": {
    summary:
      "Report carrier messages: Cargo-IMP text (FSU, FWB, FFR/FFA), Cargo-XML XFSU, the JSON event form, " +
      "or ONE Record LogisticsEvents (JSON-LD)",
    tag: "carriers",
    body: {
      // Documentation only: the handler passes the raw body to the parsers so errors name the line.
      schema: CarrierJsonMessageSchema,
      description:
        "text/plain: Cargo-IMP FSU, FSA, FWB, FFR, FFA (several messages may share a body; Type-B " +
        "envelope lines and SOH/STX/ETX are skipped). application/xml or text/xml: XFSU. " +
        "application/json: the schema below. application/ld+json: ONE Record LogisticsEvents (data model " +
        "3.x: one event, a @graph or array of them, or an api:Collection); eventCode a StatusCode code " +
        "(IRI or plain), eventDate, eventLocation (IATA code in locationCodes), eventFor the Waybill (or " +
        "Shipment/Piece leading to it) embedded with waybillPrefix, waybillNumber, departureLocation, " +
        "arrivalLocation; only ACTUAL events (or without eventTimeType) are applied, PLANNED/ESTIMATED/" +
        "EXPECTED/REQUESTED are skipped; codes beyond the milestones are kept as history; errors name the " +
        "JSON path as written. At most 100 messages (status lines, reported statuses) per " +
        "body in every format; times with a year within 366 days of receipt; weights 0 or 0.001 to " +
        "1,000,000 kg (2,204,623 lb), volumes 0 or 0.001 to 100,000 m³. Every AWB must carry the " +
        "calling carrier's prefix. Errors are 400 problem+json naming the line (422 for a well-formed line " +
        "naming a station or date we cannot place), and nothing is stored. " +
        "Each message is stored in its own transaction: a body stored only in part (lost write races or " +
        "the function's 10 s deadline 409 with Retry-After, a change too large 422, a fault 500) answers " +
        "with an `Applied` member listing what was stored, shaped like the success body; resend from the " +
        "message named in errors[0].field.",
    },
    response: IngestResultSchema,
  },
  "receive-onerecord-notification": {
    summary:
      "A carrier's ONE Record server (publisher) sends a Notification (JSON-LD, API 2.x): for " +
      "LOGISTICS_EVENT_RECEIVED (api:hasLogisticsEvent) or LOGISTICS_OBJECT_UPDATED (api:hasLogisticsObject: " +
      "its /logistics-events list) the service GETs the LogisticsEvents from the carrier's OneRecord.ServerUrl " +
      "(only IRIs under it; bearer OneRecord.Token; https and public addresses only) and applies them like " +
      "application/ld+json on /carrier/messages; 200 with what was fetched and applied. Other event types: " +
      "200, nothing fetched. Events with codes outside the StatusCode list are skipped. No ONE Record server " +
      "configured or an IRI outside it: 422; a fetched event we cannot use: 422 naming its IRI, line and " +
      "path; the publisher down or answering an error: 503/502 with Retry-After (send the notification " +
      "again); nothing is stored then.",
    tag: "carriers",
    response: OneRecordNotificationResultSchema,
  },
  "get-xtd-usage": {
    summary:
      "The caller's XTD requests of a month (UTC, ?month=YYYY-MM): the count and the entries, oldest first. " +
      "Every accepted XTD sendsme counts, also one that collapsed into an earlier status request for the AWB.",
    tag: "route maps",
    query: MonthQuerySchema,
    response: XtdUsageSchema,
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
      "Search the route maps you may read (filters in the body, ?CurrentPage=&PageSize= default 100; pages hold at most 150 route maps, the answer's PageSize says the size used). Sorted by CreationDate (the default) pages come straight from the index: any depth, NextCursor/Cursor for deep pages, TotalItems counted to the end of the next page (TotalItemsExact). Other sorts: at most 10000 matches, else 400 naming Sort and CreationDate.",
    tag: "route maps",
    body: { schema: RouteMapSearchSchema },
    query: PagingQuerySchema,
    response: RouteMapSearchResultSchema,
  },
  "get-route-map-history": {
    summary:
      "The route map with one page of its snapshots (one per change, newest first, kept 30 days from creation; ?CurrentPage=&PageSize= default 100, at most 150; headers x-total-items, x-total-pages, x-current-page, x-page-size), plus StatusMessages: the status messages beyond the milestones (FOH, MAN, TFD, ...) kept as history, newest first",
    tag: "route maps",
    query: PagingQuerySchema,
    response: RouteMapHistorySchema,
  },
  "get-route-map": {
    summary: "Retrieve the route map of one AWB (11 digits or ppp-nnnnnnnn)",
    tag: "route maps",
    response: RouteMapSchema,
  },
  "create-route-map-share": {
    summary:
      "Create a share link of a route map you may read (else 404): a read-only view of this one AWB " +
      "without sign-in, for ExpiresInHours (1-720). 201 with Id, Url and ExpiresAt; the Url (its random " +
      "token) is shown only in this answer and stored only as a hash.",
    tag: "route maps",
    body: { schema: ShareRequestSchema },
    response: CreatedShareSchema,
  },
  "list-route-map-shares": {
    summary: "Your active share links of a route map (Id, CreatedAt, ExpiresAt; never the link itself)",
    tag: "route maps",
    response: ShareListSchema,
  },
  "delete-route-map-share": {
    summary: `Revoke one of your share links of a route map at once (204).${OWNER_ONLY}`,
    tag: "route maps",
  },
  "get-shared-route-map": {
    summary:
      "The Url of a share link (no bearer token: its random token is the credential): the route map of " +
      "that one AWB, as GET route map answers it, with nothing naming an agent, a CASS or a forwarder. " +
      "Unknown, malformed, revoked and expired links: the same 404.",
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
  // ---- tenants and their machine clients ------------------------------------------------------------
  "create-forwarder": {
    summary:
      "Onboard a forwarder (enabled): ForwarderId (1-64 letters, digits, _ . -), AgentCode (7 digits), " +
      "AgentCass (4 digits), AgentStation (3 capital letters, optional) and ContactEmail. Its tokens carry " +
      "exactly these claims. 409 when the forwarder is already onboarded.",
    tag: "support",
    body: { schema: ForwarderRequestSchema },
    response: ForwarderResponseSchema,
  },
  "list-forwarders": {
    summary: `Onboarded forwarders in ForwarderId order.${CURSOR_PAGING}`,
    tag: "support",
    query: CursorQuerySchema,
    response: cursorPagedSchema(ForwarderResponseSchema),
  },
  "get-forwarder": {
    summary: "One onboarded forwarder (404 otherwise)",
    tag: "support",
    response: ForwarderResponseSchema,
  },
  "delete-forwarder": {
    summary:
      "Offboard a forwarder: each of its clients is deregistered (no new token) and deleted with it, and " +
      "each person signing in for it is removed. Its rules, webhooks and route maps stay. Tokens already " +
      "issued run out within their hour.",
    tag: "support",
    response: DeletedForwarderResponseSchema,
  },
  "disable-forwarder": {
    summary: `Switch a forwarder off: none of its clients gets a token.${IDEMPOTENT}`,
    tag: "support",
    response: ForwarderResponseSchema,
  },
  "enable-forwarder": {
    summary: `Switch a forwarder on again.${IDEMPOTENT}`,
    tag: "support",
    response: ForwarderResponseSchema,
  },
  "create-forwarder-client": {
    summary: `A new machine client of the forwarder.${NEW_CLIENT}`,
    tag: "support",
    body: { schema: ClientRequestSchema, description: "Name: free text for support, optional." },
    response: CreatedClientResponseSchema,
  },
  "list-forwarder-clients": {
    summary: "The forwarder's machine clients, oldest first, without secrets",
    tag: "support",
    response: v.object({ Items: v.array(ClientResponseSchema) }),
  },
  "create-forwarder-user": {
    summary:
      "A person who signs in to the web app for the forwarder: their tokens carry the forwarder's claims. In AWS Cognito mails the invitation (temporary password); 409 for an e-mail that already signs in.",
    tag: "support",
    body: {
      schema: ForwarderUserRequestSchema,
      description: "Email: where the invitation goes (stored lower-cased).",
    },
    response: ForwarderUserResponseSchema,
  },
  "list-forwarder-users": {
    summary: "The people who sign in for the forwarder, oldest first",
    tag: "support",
    response: v.object({ Items: v.array(ForwarderUserResponseSchema) }),
  },
  "delete-forwarder-user": {
    summary:
      "Remove a person's sign-in for the forwarder: no new token (tokens already issued run out within their hour)",
    tag: "support",
    response: ForwarderUserResponseSchema,
  },
  "delete-forwarder-client": {
    summary: `Delete one of the forwarder's clients: its next token request gets 401 invalid_client.${ROTATE}`,
    tag: "support",
    response: ClientResponseSchema,
  },
  "disable-forwarder-client": {
    summary: `Switch one of the forwarder's clients off (no token).${IDEMPOTENT}`,
    tag: "support",
    response: ClientResponseSchema,
  },
  "enable-forwarder-client": {
    summary: `Switch one of the forwarder's clients on again.${IDEMPOTENT}`,
    tag: "support",
    response: ClientResponseSchema,
  },
  "list-carriers": {
    summary:
      "Onboarded carriers in prefix order (a carrier is onboarded by PUT /support/carriers/{prefix}), each " +
      `with its settings and Enabled.${CURSOR_PAGING}`,
    tag: "support",
    query: CursorQuerySchema,
    response: cursorPagedSchema(CarrierTenantResponseSchema),
  },
  "delete-carrier": {
    summary:
      "Offboard a carrier's access: each of its clients is deregistered and deleted with its tenant " +
      "profile. Its settings stay (PUT enables it again). 404 for a carrier without settings.",
    tag: "support",
    response: DeletedCarrierResponseSchema,
  },
  "disable-carrier": {
    summary: `Switch a carrier off: none of its clients gets a token.${IDEMPOTENT}`,
    tag: "support",
    response: CarrierTenantResponseSchema,
  },
  "enable-carrier": {
    summary: `Switch a carrier on again.${IDEMPOTENT}`,
    tag: "support",
    response: CarrierTenantResponseSchema,
  },
  "create-carrier-client": {
    summary: `A new machine client of the carrier (its settings must be stored first, else 404).${NEW_CLIENT}`,
    tag: "support",
    body: { schema: ClientRequestSchema, description: "Name: free text for support, optional." },
    response: CreatedClientResponseSchema,
  },
  "list-carrier-inbound-mail": {
    summary:
      "The carrier's received Cargo-IMP e-mails, newest first: sender, subject, received, Outcome (applied, or " +
      "refused with its Reason and Line) and what was applied; kept 30 days. 404 without carrier settings." +
      CURSOR_PAGING,
    tag: "support",
    query: CursorQuerySchema,
    response: cursorPagedSchema(InboundMailEntrySchema),
  },
  "list-unknown-sender-mail": {
    summary:
      "E-mails to the inbound address from senders no carrier registered (InboundSenders): refused, nothing " +
      `changed, never answered; newest first, kept 30 days.${CURSOR_PAGING}`,
    tag: "support",
    query: CursorQuerySchema,
    response: cursorPagedSchema(InboundMailEntrySchema),
  },
  "list-carrier-status-requests": {
    summary:
      "The carrier's status requests (FSR, one per AWB and collapse window), newest first, kept 30 days, with " +
      "their delivery state and attempt log",
    tag: "support",
    query: PagingQuerySchema,
    response: pagedSchema(CarrierStatusRequestSchema),
  },
  "replay-carrier-status-request": {
    summary:
      "Send a delivered or parked status request again as one new attempt, through the carrier's channel as " +
      "it is now; 202 (409 while it is still being attempted)",
    tag: "support",
    response: CarrierStatusRequestReplaySchema,
  },
  "list-xtd-usage": {
    summary: "Every forwarder's count of XTD requests in a month (UTC, ?month=YYYY-MM)",
    tag: "support",
    query: MonthQuerySchema,
    response: AllXtdUsageSchema,
  },
  "list-carrier-requests": {
    summary:
      "The caller's pending status requests (channel Pull), oldest first: each stays until acked (30 days at most)",
    tag: "carriers",
    query: PagingQuerySchema,
    response: pagedSchema(PulledStatusRequestSchema),
  },
  "ack-carrier-request": {
    summary:
      "Take a status request off the caller's pull queue: 204; 404 for an unknown or another carrier's id",
    tag: "carriers",
  },
  "list-carrier-clients": {
    summary: "The carrier's machine clients, oldest first, without secrets",
    tag: "support",
    response: v.object({ Items: v.array(ClientResponseSchema) }),
  },
  "delete-carrier-client": {
    summary: `Delete one of the carrier's clients: its next token request gets 401 invalid_client.${ROTATE}`,
    tag: "support",
    response: ClientResponseSchema,
  },
  "disable-carrier-client": {
    summary: `Switch one of the carrier's clients off (no token).${IDEMPOTENT}`,
    tag: "support",
    response: ClientResponseSchema,
  },
  "enable-carrier-client": {
    summary: `Switch one of the carrier's clients on again.${IDEMPOTENT}`,
    tag: "support",
    response: ClientResponseSchema,
  },
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
      "Replace a webhook (absent or echoed masked Token/Psk keep the stored ones, null removes them); a " +
      `changed Url needs the secrets again and is verified again.${OWNER_ONLY}`,
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
      "header x-route-map-challenge; answer 2xx with the bare challenge value as the body); 200 with the " +
      `webhook, its Verified and LastVerification, and header x-webhook-verification.${OWNER_ONLY}`,
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
  "update-customer-endpoint": {
    summary:
      "Replace an endpoint's Url, HeaderName and HeaderValue (e.g. rotate the header value); the Id and " +
      "ForwarderIdentifier stay (sent ones are ignored). The masked HeaderValue of a GET keeps the stored " +
      "value, unless the Url changes. Header value masked in the answer. Unknown Id: 404.",
    tag: "support",
    body: { schema: CustomerEndpointUpdateSchema },
    response: CustomerEndpointResponseSchema,
  },
  "delete-customer-endpoint": {
    summary:
      "Delete an endpoint. 409 while enabled Url rules send to it (the detail names them); with " +
      "?force=true those rules are switched off first (DisabledRules lists them). Unknown Id: 404.",
    tag: "support",
    query: ForceQuerySchema,
    response: DeletedCustomerEndpointResponseSchema,
  },
  "list-own-customer-endpoints": {
    summary:
      "Your customer endpoints (registered by support), header values masked: the Id is the NotifyTo of " +
      `a Url rule.${PAGING}`,
    tag: "notifications",
    query: PagingQuerySchema,
    response: pagedSchema(CustomerEndpointResponseSchema),
  },
};
