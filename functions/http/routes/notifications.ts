/**
 * A forwarder's notification rules (e-mail and Url channel), its deliveries, the customer endpoints
 * support registered for it, and the links of NotifyTo confirmation e-mails.
 */
import {
  NotificationRuleRequestSchema,
  NotificationRuleUpdateSchema,
} from "../../core/notifications/index.ts";
import {
  CustomerEndpointResponseSchema,
  DeliverySchema,
  NotificationRuleResponseSchema,
  ReplayResponseSchema,
} from "../schemas/notifications.ts";
import { PageRequestSchema, pagedSchema } from "../schemas/paging.ts";
import { DELIVERY_EXAMPLE, pageOf } from "./examples.ts";
import { component, type RouteApis } from "./route-api.ts";

export const PAGING = " Paged: ?CurrentPage= (1-based) &PageSize= (default 100, max 500).";
export const OWNER_ONLY = " Only your own; anything else is 404.";

const RULE_REQUEST_EXAMPLE = {
  ChannelType: "Email" as const,
  NotifyTo: "ops@forwarder.example",
  HeaderItems: "AWB,MIL,NTF",
  FormatType: "Html" as const,
  AirlinePrefix: "*",
  AwbNumber: "",
  Event: "DEP,ARR,NFD,DLV",
  EventAlert: true,
  MissedEventAlert: false,
  ProActiveAlert: false,
  ProActiveTime: 0,
  Destination: "JFK",
  Enabled: true,
};
const RULE_REQUEST = component(
  "NotificationRuleRequest",
  NotificationRuleRequestSchema,
  RULE_REQUEST_EXAMPLE,
);
// A PUT takes what a POST takes: one component while the core's two schemas are one object.
const RULE_UPDATE = component("NotificationRuleRequest", NotificationRuleUpdateSchema, RULE_REQUEST_EXAMPLE);

const RULE_EXAMPLE = {
  ...RULE_REQUEST_EXAMPLE,
  ShareLinkHours: null,
  Id: 12,
  ForwarderIdentifier: "ACMECARGO",
  AgentCode: "1234567",
  AgentCass: "0001",
  Origin: null,
  IgnoreStation: null,
};
const RULE = component("NotificationRule", NotificationRuleResponseSchema, RULE_EXAMPLE);

export const CUSTOMER_ENDPOINT_EXAMPLE = {
  Id: "9b2e4f60-1c3a-4d5e-8f70-a1b2c3d4e5f6",
  ForwarderIdentifier: "ACMECARGO",
  Url: "https://tms.forwarder.example/route-map-events",
  HeaderName: "apiKey",
  HeaderValue: "••••9f3a",
};
export const CUSTOMER_ENDPOINT_PAGE = component(
  "CustomerEndpointPage",
  pagedSchema(CustomerEndpointResponseSchema),
  pageOf(CUSTOMER_ENDPOINT_EXAMPLE),
);

export const DELIVERY_PAGE = component("DeliveryPage", pagedSchema(DeliverySchema), pageOf(DELIVERY_EXAMPLE));
export const REPLAY = component("DeliveryReplay", ReplayResponseSchema, {
  ...DELIVERY_EXAMPLE,
  ReplayAttempt: 2,
});

const CONFIRMATION_LINK =
  "The link of a NotifyTo confirmation e-mail (no bearer token: the random link token is the credential)";

export const NOTIFICATION_ROUTES = {
  "show-email-confirmation": {
    summary:
      `${CONFIRMATION_LINK}: an HTML page naming the address and forwarder with a Confirm button (a POST to the ` +
      "same URL). Changes nothing. Used, replaced or expired (7 days) links: 404.",
    tag: "notifications",
    response: { html: "The page naming the address and the forwarder, with its Confirm button" },
    errors: [400, 404],
  },
  "confirm-email-address": {
    summary:
      "Confirms the address of a confirmation link for the forwarder whose Email rule named it; alerts " +
      "to it are delivered from then on; answers an HTML page saying so. Used, replaced or expired " +
      "links: 404.",
    tag: "notifications",
    response: { html: "The page saying the address is confirmed" },
    errors: [400, 404],
  },
  "create-notification-rule": {
    summary:
      "Create a notification rule (Email or Url channel). Url: NotifyTo must be a customer endpoint GUID " +
      "support registered for you (else 422 naming NotifyTo). At most MAX_RULES_PER_FORWARDER (default " +
      "500) rules per forwarder (409 beyond).",
    tag: "notifications",
    body: RULE_REQUEST,
    response: RULE,
    errors: [409, 422],
  },
  "list-notification-rules": {
    summary: `Your notification rules in id order.${PAGING}`,
    tag: "notifications",
    query: PageRequestSchema,
    response: component(
      "NotificationRulePage",
      pagedSchema(NotificationRuleResponseSchema),
      pageOf(RULE_EXAMPLE),
    ),
  },
  "get-notification-rule": {
    summary: `One notification rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: RULE,
    errors: [400, 404],
  },
  "update-notification-rule": {
    summary: `Replace a notification rule (same rules as creation; Id and owner stay).${OWNER_ONLY}`,
    tag: "notifications",
    body: RULE_UPDATE,
    response: RULE,
    errors: [400, 404, 409, 422],
  },
  "delete-notification-rule": {
    summary: `Delete a notification rule; 200 with the deleted rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: RULE,
    errors: [400, 404],
  },
  "enable-notification-rule": {
    summary: `Switch a rule on (idempotent); 200 with the rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: RULE,
    errors: [400, 404],
  },
  "disable-notification-rule": {
    summary: `Switch a rule off (idempotent); 200 with the rule.${OWNER_ONLY}`,
    tag: "notifications",
    response: RULE,
    errors: [400, 404],
  },
  "list-rule-deliveries": {
    summary: `The rule's deliveries (newest first, kept 30 days) with their attempt log.${PAGING}${OWNER_ONLY}`,
    tag: "notifications",
    query: PageRequestSchema,
    response: DELIVERY_PAGE,
    errors: [400, 404],
  },
  "replay-rule-delivery": {
    summary:
      "Send a delivered or parked delivery again as one new attempt; 202 with the delivery (409 while " +
      `it is still being attempted).${OWNER_ONLY}`,
    tag: "notifications",
    status: 202,
    response: REPLAY,
    errors: [400, 404, 409],
  },
  "list-own-customer-endpoints": {
    summary:
      "Your customer endpoints (registered by support), header values masked: the Id is the NotifyTo of " +
      `a Url rule.${PAGING}`,
    tag: "notifications",
    query: PageRequestSchema,
    response: CUSTOMER_ENDPOINT_PAGE,
  },
} satisfies RouteApis;
