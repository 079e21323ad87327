/**
^ * Ports of the notification flows, shared by the subscription endpoints, the matcher and
 * the delivery handler. Adapters implement them over DynamoDB/SQS/SES/HTTP; tests over memory.
 */

import type { DomainEvent } from "../events.ts";
import type {
  CustomerEndpoint,
  DeliveryTarget,
  EmailConfirmation,
  NotificationRule,
  Subscription,
  Webhook,
} from "../notifications/index.ts";
import type { StatusRequest } from "../status-requests.ts";

export interface Page<T> {
  items: T[];
  total: number;
}

export interface PageRequest {
  /** 1-based */
  page: number;
  pageSize: number;
}

export interface SubscriptionRepository {
  /** Next integer id of the kind (increasing, never reused). */
  nextId(kind: "rule" | "webhook"): Promise<number>;
  /** Writes the rule and its match-index items (stale index items of an updated rule are removed). */
  putRule(rule: NotificationRule): Promise<void>;
  getRule(forwarderId: string, id: number): Promise<NotificationRule | null>;
  listRules(forwarderId: string, page: PageRequest): Promise<Page<NotificationRule>>;
  deleteRule(forwarderId: string, id: number): Promise<boolean>;
  putWebhook(webhook: Webhook): Promise<void>;
  getWebhook(forwarderId: string, id: number): Promise<Webhook | null>;
  listWebhooks(forwarderId: string, page: PageRequest): Promise<Page<Webhook>>;
  deleteWebhook(forwarderId: string, id: number): Promise<boolean>;
  countSubscriptions(forwarderId: string, kind: "rule" | "webhook"): Promise<number>;
  /**
   * Stores a NEW rule under the next id unless its forwarder already has `limit` rules: the stored rule,
   * or null when full (nothing written, no id taken). Exact under concurrency (a conditional
   * per-forwarder counter, not a count then a write); deleteRule frees the slot.
   */
  insertRule(draft: Omit<NotificationRule, "id">, limit: number): Promise<NotificationRule | null>;
  /** insertRule for webhooks (its own counter); deleteWebhook frees the slot. */
  insertWebhook(draft: Omit<Webhook, "id">, limit: number): Promise<Webhook | null>;
  /** Every subscription stored under any of these match-index keys (one Query per key, no Scan). */
  findCandidates(indexKeys: readonly string[]): Promise<Subscription[]>;
  putCustomerEndpoint(endpoint: CustomerEndpoint): Promise<void>;
  getCustomerEndpoint(id: string): Promise<CustomerEndpoint | null>;
  /** Replaces an existing endpoint (same id and forwarder); false when it no longer exists. */
  updateCustomerEndpoint(endpoint: CustomerEndpoint): Promise<boolean>;
  /** Removes the endpoint and its listing copy; false when it did not exist. */
  deleteCustomerEndpoint(endpoint: CustomerEndpoint): Promise<boolean>;
  /** In registration order; only that forwarder's when `forwarderId` is given. */
  listCustomerEndpoints(page: PageRequest, forwarderId?: string): Promise<Page<CustomerEndpoint>>;
}

/**
 * Confirmations of NotifyTo addresses, per (forwarder, address); the link's token
 * is stored only as its hash.
 */
export interface EmailConfirmationRepository {
  get(forwarderId: string, address: string): Promise<EmailConfirmation | null>;
  /** The pending confirmation whose current link has this token hash. */
  findByTokenHash(tokenHash: string): Promise<EmailConfirmation | null>;
  /** Stores a pending confirmation (a new link; the previous link of that address stops working). */
  putPending(confirmation: EmailConfirmation): Promise<void>;
  /** Marks it confirmed, only while its link is still `tokenHash`; false when it no longer was. */
  confirm(confirmation: EmailConfirmation, tokenHash: string): Promise<boolean>;
}

/** One SQS message per (event, target); secrets are never in it (read from the store at delivery). */
export interface NotificationJob {
  kind?: undefined;
  deliveryId: string;
  event: DomainEvent;
  target: DeliveryTarget;
  /** 1 for the first try. */
  attempt: number;
  /**
   * The share link an earlier attempt of this e-mail made (its rule's ShareLinkHours),
   * carried to the next attempt only, so a retry sends the same link instead of making another.
   */
  shareLink?: { id: string; token: string };
}

/**
 * A status request to a carrier on the same queue, with the same retries, attempt log, park
 * and replay; its delivery id is the request id. The carrier's channel and secret are read at delivery.
 */
export interface StatusRequestJob {
  kind: "status-request";
  deliveryId: string;
  request: StatusRequest;
  attempt: number;
}

export type DeliveryJob = NotificationJob | StatusRequestJob;

/**
 * "slow": the delivery slow lane, for retries of a target that timed out, so it cannot take the
 * capacity other targets' jobs need. Everything else goes to "main".
 */
export type DeliveryLane = "main" | "slow";

export interface DeliveryJobQueue {
  enqueue(jobs: readonly DeliveryJob[], delaySeconds?: number, lane?: DeliveryLane): Promise<void>;
}

export type DeliveryStatus = "pending" | "retrying" | "delivered" | "parked";

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  /** HTTP status, or null for a timeout / network error / SES failure. */
  status: number | null;
  latencyMs: number;
  /**
   * "suppressed": not sent, the address bounced or complained before; "bounced"/"complained": SES
   * feedback on the e-mail this attempt sent, appended when it arrives (same attempt number).
   */
  outcome: "delivered" | "retry" | "parked" | "disabled" | "suppressed" | "bounced" | "complained";
  /** Response body or error, truncated. */
  detail: string;
  /** When the next attempt is due (outcome "retry" only): what a redelivered job re-queues for. */
  nextAttemptAt?: string;
  /** SES MessageId of the e-mail this attempt sent: how bounces and complaints find their delivery. */
  emailMessageId?: string;
}

export interface DeliveryRecord {
  deliveryId: string;
  /** The event's id; a status request's: its request id. */
  eventId: string;
  /** "carrier": a status request, listed under the carrier (subscriptionId: its prefix as a number). */
  subscriptionKind: "rule" | "webhook" | "carrier" | "onerecord";
  subscriptionId: number;
  forwarderId: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Kept so a parked delivery can be replayed exactly. */
  job: DeliveryJob;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryRepository {
  /** Creates the record unless it exists (at-least-once jobs); returns false when it existed. */
  create(record: DeliveryRecord): Promise<boolean>;
  get(deliveryId: string): Promise<DeliveryRecord | null>;
  recordAttempt(deliveryId: string, attempt: DeliveryAttempt, status: DeliveryStatus): Promise<void>;
  listForSubscription(
    kind: "rule" | "webhook" | "carrier" | "onerecord",
    subscriptionId: number,
    page: PageRequest,
  ): Promise<Page<DeliveryRecord>>;
  /** The subscription's newest delivery (its first listed one), or null; a bounded read. */
  latestForSubscription(kind: "rule" | "webhook", subscriptionId: number): Promise<DeliveryRecord | null>;
  /** The delivery an attempt of which logged this SES MessageId (`emailMessageId`), or null. */
  findByEmailMessageId(messageId: string): Promise<DeliveryRecord | null>;
}

/** An address SES reported as bouncing for good or complaining: never mailed again. */
export interface EmailSuppression {
  /** Normalised (trimmed, lower case). */
  address: string;
  reason: "bounce" | "complaint";
  /** What SES said (bounce type, diagnostic), for the people reading the log. */
  detail: string;
  /** When SES reported it. */
  at: string;
  /** SES MessageId of the e-mail that bounced or was complained about. */
  emailMessageId: string;
}

/** Suppressed addresses (SES bounces and complaints), by normalised address. */
export interface EmailSuppressionList {
  get(address: string): Promise<EmailSuppression | null>;
  /** Stores (or replaces) the suppression of its address. */
  suppress(suppression: EmailSuppression): Promise<void>;
}

/** Whether the service may ever call a URL (SSRF guard: scheme, credentials, address class). */
export interface TargetChecker {
  checkTarget(url: string): Promise<TargetVerdict>;
}

/** POSTs the challenge to the webhook's Url (functions/adapters/webhook-verifier.ts). */
export interface WebhookVerifier extends TargetChecker {
  verify(webhook: Webhook): Promise<VerificationOutcome>;
}

// ---- ports of the outbound side (implemented by functions/adapters) -------------------------------

export interface OutboundPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

/** HTTP POST with the SSRF guard and the per-attempt timeout (functions/adapters/http-sender.ts). */
export interface OutboundPoster {
  post(request: OutboundPost): Promise<OutboundResult>;
}

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<EmailSendResult>;
}

/** Re-queues a job at an absolute time beyond SQS's 15-minute delay (EventBridge Scheduler). */
export interface DeliveryRetryScheduler {
  scheduleRetry(job: DeliveryJob, at: string): Promise<void>;
}

/** TargetChecker.checkTarget: may the service call this Url at all (scheme, address class)? */
export type TargetVerdict = { allowed: true } | { allowed: false; reason: string };

/** WebhookVerifier.verify: did the receiver echo the challenge? */
export type VerificationOutcome = { ok: true } | { ok: false; reason: string };

export type OutboundResult =
  | {
      kind: "response";
      status: number;
      headers: Record<string, string>;
      body: string;
      latencyMs: number;
      /** The attempt's deadline passed while the body was still arriving. */
      bodyCutOff?: boolean;
    }
  /** The SSRF guard refused the target: nothing was sent. */
  | { kind: "refused"; reason: string; latencyMs: number }
  | { kind: "timeout"; latencyMs: number }
  | { kind: "network-error"; message: string; latencyMs: number };

export type EmailSendResult =
  | { kind: "sent"; messageId: string; latencyMs: number }
  /** `retryable`: throttling, service or network trouble; otherwise the message itself was refused. */
  | { kind: "failed"; retryable: boolean; message: string; latencyMs: number };
