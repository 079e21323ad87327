/**
 * The JSON the forwarders' API answers with, as types only (no code): the core's mapping returns
 * them and the web app reads them, so the two cannot drift apart. Notification rules, webhooks and
 * their delivery log, customer endpoints, share links and the paged list around them; the route map
 * itself, its history and the search answer are in core/route-map/spec-types.ts. The OpenAPI
 * document's schemas are held to these by test/unit/web/api-types.test.ts.
 */

/** Every list route's page: `?CurrentPage=&PageSize=`. */
export interface PagedResponse<T> {
  TotalItems: number;
  TotalPages: number;
  PageSize: number;
  CurrentPage: number;
  Items: T[];
}

// ---- notification rules -------------------------------------------------------------------------

/** The spec's rule response: the request fields, then Id, ForwarderIdentifier, AgentCode, AgentCass, Origin, IgnoreStation. */
export interface NotificationRuleResponse {
  ChannelType: "Email" | "Url";
  NotifyTo: string;
  HeaderItems: string;
  FormatType: "Html" | "Json";
  AirlinePrefix: string;
  AwbNumber: string;
  Event: string;
  EventAlert: boolean;
  MissedEventAlert: boolean;
  ProActiveAlert: boolean;
  ProActiveTime: number;
  /** null when the rule has no destination filter (never an invented ""). */
  Destination: string | null;
  Enabled: boolean;
  /** Our extension: null = the e-mail links the signed-in web app. */
  ShareLinkHours: number | null;
  Id: number;
  ForwarderIdentifier: string;
  AgentCode: string | null;
  AgentCass: string | null;
  Origin: string | null;
  IgnoreStation: null;
}

// ---- webhooks -----------------------------------------------------------------------------------

/** The last run of the URL challenge, as the API shows it (null: not run yet). */
export interface WebhookVerificationResponse {
  Outcome: "verified" | "failed";
  At: string | null;
  /** Why it failed (the receiver's answer, a timeout, a network error); null when verified. */
  Detail: string | null;
}

/** The spec's response fields, in the spec's order, then the verification state. */
export interface WebhookResponse {
  Id: number;
  ForwarderIdentifier: string;
  Event: string;
  Url: string;
  Token: string | null;
  Enabled: boolean;
  Type: "json" | "xml" | "text";
  Psk: string | null;
  AWB: string | null;
  /** Whether the Url passed the challenge (the bare challenge value answered); informative only. */
  Verified: boolean;
  LastVerification: WebhookVerificationResponse | null;
}

/** A webhook's newest delivery, as GET and list show it: its state and its last attempt. */
export interface WebhookLastDelivery {
  DeliveryId: string;
  Event: string;
  Status: DeliveryStatus;
  /** When it last changed (UTC). */
  At: string;
  /** Of the last attempt; null: none yet, timeout, network error or refused. */
  HttpStatus: number | null;
  /** The last attempt's answer or error, cut to 200 characters. */
  Detail: string | null;
}

/** GET and list: the webhook with its newest delivery (null when none in the last 30 days). */
export interface WebhookViewResponse extends WebhookResponse {
  LastDelivery: WebhookLastDelivery | null;
}

// ---- the delivery log of a rule, a webhook or a carrier ------------------------------------------

export type DeliveryStatus = "pending" | "retrying" | "delivered" | "parked";

export interface DeliveryAttemptResponse {
  Attempt: number;
  At: string;
  /** null: timeout, network error or refused. */
  HttpStatus: number | null;
  LatencyMs: number;
  /**
   * "suppressed": not sent, the address bounced or complained before; "bounced"/"complained": SES
   * feedback on the e-mail of that attempt.
   */
  Outcome: "delivered" | "retry" | "parked" | "disabled" | "suppressed" | "bounced" | "complained";
  /** Response body or error, truncated. */
  Detail: string;
  /** When the next attempt is due (retries only). */
  NextAttemptAt: string | null;
}

export interface DeliveryResponse {
  DeliveryId: string;
  EventId: string;
  Event: string;
  Type: string;
  AwbNumber: string;
  SubscriptionKind: "rule" | "webhook" | "carrier" | "onerecord";
  SubscriptionId: number;
  Status: DeliveryStatus;
  CreatedAt: string;
  UpdatedAt: string;
  /** Oldest first; the last 20 are kept. */
  Attempts: DeliveryAttemptResponse[];
}

/** POST …/deliveries/{id}/replay: the delivery, and the number of the attempt just queued. */
export interface ReplayResponse extends DeliveryResponse {
  ReplayAttempt: number;
}

// ---- customer endpoints -------------------------------------------------------------------------

export interface CustomerEndpointResponse {
  /** GUID: the NotifyTo of the forwarder's Url rules. */
  Id: string;
  ForwarderIdentifier: string;
  Url: string;
  HeaderName: string;
  /** Masked, except in the registering response. */
  HeaderValue: string;
}

// ---- share links of a route map -----------------------------------------------------------------

/** POST …/{awb}/share: the link's id (for DELETE), the link itself (only in this answer), its expiry. */
export interface CreatedShareResponse {
  Id: string;
  Url: string;
  ExpiresAt: string;
}

/** One active share link in GET …/{awb}/share (never its token). */
export interface ShareListItem {
  Id: string;
  ExpiresAt: string;
  CreatedAt: string;
}
