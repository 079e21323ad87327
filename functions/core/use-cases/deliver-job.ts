/**
 * One delivery attempt of one job (DESIGN.md section 5): read the target's current settings and
 * secrets from the store, render, send (SES e-mail, Url-channel POST or webhook POST), log the attempt
 * and decide what comes next (done, retry via SQS delay or a one-time schedule, park, disable on 410).
 * A status-request job goes the same way to its carrier's current StatusRequests channel:
 * a signed POST to its Url, an SES e-mail, or its pull queue; a carrier without a channel is parked.
 *
 * Order of one attempt, so that a crash between any two steps loses nothing:
 *   1. send;
 *   2. what a redelivered job could not work out from the log (a 410 switches the webhook off);
 *   3. log the attempt: the commit point, the answer is now known;
 *   4. queue the next attempt of a retry;
 *   5. (the handler) Powertools stores its idempotency record for delivery id + attempt.
 * A crash before 3 sends again when SQS redelivers the job: unavoidable, the answer was never
 * recorded, and receivers de-duplicate on `webhook-id`/IdMessage. A crash after 3 re-POSTs nothing:
 * the redelivered job finds its attempt logged and only re-queues the next attempt if the log ends in
 * this attempt's retry. The next attempt's identity is deterministic (delivery id + attempt; its
 * schedule name derives from them), so a second copy of it is absorbed by the deliverer's idempotency
 * and the attempt log.
 */

import { alertsPageUrl, type EmailLinks, routeMapPageUrl } from "../notifications/email-links.ts";
import {
  type AttemptOutcome,
  disableWebhook,
  type EventPayload,
  type HeaderItemCode,
  isEndpointUsableBy,
  isWebhookActive,
  matchesFilters,
  type NextAttempt,
  nextAttemptDelay,
  normaliseAddress,
  RETRY_SCHEDULE_SECONDS,
  renderEmail,
  renderEventPayload,
  renderWebhookBody,
  type SubscriberIdentity,
  type Subscription,
  signWebhook,
  splitDelay,
  type Webhook,
} from "../notifications/index.ts";
import type { CarrierDirectory, CarrierRequestInbox } from "../ports/carriers.ts";
import type {
  DeliveryAttempt,
  DeliveryJob,
  DeliveryJobQueue,
  DeliveryLane,
  DeliveryRepository,
  DeliveryRetryScheduler,
  DeliveryStatus,
  EmailConfirmationRepository,
  EmailSender,
  EmailSuppressionList,
  NotificationJob,
  OutboundPoster,
  OutboundResult,
  StatusRequestJob,
  SubscriptionRepository,
} from "../ports/notifications.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import type { ShareLinkRepository } from "../ports/share-links.ts";
import { isActive, sharedRouteMapPageUrl, shareExpiresAt } from "../route-map/share-links.ts";
import type { RouteMap } from "../route-map/spec-types.ts";
import { renderStatusRequest, type StatusRequest, type StatusRequestSettings } from "../status-requests.ts";
import { normaliseUtc } from "../time/station-time.ts";
import { newDeliveryRecord } from "./shared/deliveries.ts";
import { currentRouteMapJson, mayRead } from "./shared/read-access.ts";

export interface DeliverJobDeps {
  subscriptions: SubscriptionRepository;
  deliveries: DeliveryRepository;
  queue: DeliveryJobQueue;
  retryScheduler: DeliveryRetryScheduler;
  http: OutboundPoster;
  email: EmailSender;
  /**
   * Confirmed NotifyTo addresses: an e-mail to an address its forwarder has not
   * had confirmed is parked, never sent. Absent only in tests that do not care.
   */
  confirmations?: EmailConfirmationRepository;
  /**
   * Addresses SES reported bouncing for good or complaining: an e-mail to one is logged "suppressed",
   * never sent. Absent only in tests that do not care.
   */
  suppressions?: EmailSuppressionList;
  /** Carrier settings: where a status request goes (read at delivery, like a subscription). */
  carriers?: CarrierDirectory;
  /** The carriers' pull queues (status requests of channel "Pull"). */
  carrierInbox?: CarrierRequestInbox;
  /** The shipment as of sending, for an e-mail's timeline (absent: e-mails without one). */
  routeMaps?: Pick<RouteMapRepository, "getView" | "get">;
  /** Where an e-mail's share link is stored (rules with ShareLinkHours). */
  shareLinks?: ShareLinkRepository;
  /** A fresh share link's id and unguessable token, from an adapter (the core makes no randomness). */
  newShareLink?: () => { id: string; token: string };
}

export interface DeliverJobInput {
  job: DeliveryJob;
  /** ISO UTC time of this attempt (the service clock: what the log and the retry plan use). */
  now: string;
  /**
   * Unix seconds of the real wall clock at sending, for `webhook-timestamp`: receivers check it
   * against their own clock (Standard Webhooks: 5 minutes), so it is about the transmission and never
   * the service clock, which the local runner can move forward.
   */
  sentAtSeconds: number;
  /** In [0, 1): retry jitter. */
  random: number;
  /**
   * Multiplies the retry schedule (5 s, 5 min, 30 min, ...): 1 in production; the local runner and
   * tests shrink it. A receiver's own Retry-After is never scaled: it asked for that wait.
   */
  retryScale?: number;
  /** Per-attempt HTTP timeout (default: the sender's 10 s). */
  timeoutMs?: number;
  serviceName?: string;
  /** Origin of the web app (APP_BASE_URL) for an e-mail's links; absent: e-mails without links. */
  appBaseUrl?: string;
}

export type DeliverJobOutcome =
  | "delivered"
  | "retry"
  | "parked"
  | "disabled"
  /** The subscription was deleted, disabled or changed meanwhile: parked with the reason, nothing sent. */
  | "skipped"
  /** The e-mail address bounced or complained before (SES feedback): parked, nothing sent. */
  | "suppressed"
  /** This attempt was already made (a redelivered job): not sent again. */
  | "duplicate";

export interface DeliverJobResult {
  deliveryId: string;
  attempt: number;
  outcome: DeliverJobOutcome;
  status: number | null;
  detail: string;
  /** Seconds until the next attempt, for outcome "retry". */
  nextAttemptInSeconds?: number;
}

/** The log detail of an attempt that hit its deadline (its retry goes to the slow lane). */
const TIMEOUT_DETAIL = "timeout";
/** Attempt log entries keep this much of a response or error. */
const DETAIL_LIMIT = 1000;
const truncate = (text: string, limit = DETAIL_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
/** `text` cut so that `note` (what happened next) still fits after it. */
const withNote = (text: string, note: string) => `${truncate(text, DETAIL_LIMIT - note.length)}${note}`;

// ---- resolving the target against the store ------------------------------------------------------

/** What to send and where, with the secrets read just now. */
type ResolvedTarget =
  | {
      kind: "email";
      recipient: SubscriberIdentity;
      to: string;
      headerItems: HeaderItemCode[];
      ruleId: number;
      /** The rule's ShareLinkHours: null links the signed-in web app. */
      shareLinkHours: number | null;
      proActiveMinutes?: number;
    }
  | { kind: "url"; recipient: SubscriberIdentity; url: string; headerName: string; headerValue: string }
  | { kind: "webhook"; recipient: SubscriberIdentity; webhook: Webhook }
  /** A status request to a carrier, through its current StatusRequests channel. */
  | { kind: "carrier"; carrierPrefix: string; settings: StatusRequestSettings };

type Resolution = { ok: true; target: ResolvedTarget } | { ok: false; reason: string; suppressed?: true };

async function resolveTarget(
  {
    subscriptions,
    confirmations,
    suppressions,
  }: Pick<DeliverJobDeps, "subscriptions" | "confirmations" | "suppressions">,
  job: NotificationJob,
): Promise<Resolution> {
  const { target, event } = job;
  const stillMatches = (subscription: Subscription) => matchesFilters(subscription, event);
  if (target.subscriptionKind === "webhook") {
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
    if (!stillMatches({ kind: "webhook", webhook }))
      return { ok: false, reason: `webhook ${webhook.id} no longer listens to this event` };
    return { ok: true, target: { kind: "webhook", recipient: webhook.owner, webhook } };
  }
  const rule = await subscriptions.getRule(target.forwarderId, target.subscriptionId);
  if (!rule) return { ok: false, reason: `rule ${target.subscriptionId} was deleted` };
  if (!rule.enabled) return { ok: false, reason: `rule ${rule.id} is disabled` };
  if (!stillMatches({ kind: "rule", rule }))
    return { ok: false, reason: `rule ${rule.id} no longer matches this event` };
  if (rule.channel === "Email") {
    const address = normaliseAddress(rule.notifyTo);
    const suppression = suppressions ? await suppressions.get(address) : null;
    if (suppression)
      return {
        ok: false,
        suppressed: true,
        reason: `e-mail address ${address} is suppressed: ${suppression.reason === "bounce" ? "it bounced" : "its recipient complained"} on ${suppression.at} (${suppression.detail})`,
      };
    const confirmation = confirmations ? await confirmations.get(rule.owner.forwarderId, address) : null;
    if (confirmations && confirmation?.status !== "confirmed")
      return {
        ok: false,
        reason: `e-mail address ${address} is not confirmed yet (it was mailed a confirmation link)`,
      };
    return {
      ok: true,
      target: {
        kind: "email",
        recipient: rule.owner,
        to: rule.notifyTo,
        headerItems: rule.headerItems,
        ruleId: rule.id,
        shareLinkHours: rule.shareLinkHours ?? null,
        ...(rule.alert.kind === "ProActive" ? { proActiveMinutes: rule.alert.minutes } : {}),
      },
    };
  }
  const endpoint = await subscriptions.getCustomerEndpoint(rule.notifyTo);
  if (!endpoint || !isEndpointUsableBy(endpoint, rule.owner.forwarderId))
    return { ok: false, reason: `customer endpoint ${rule.notifyTo} is not registered for this forwarder` };
  return {
    ok: true,
    target: {
      kind: "url",
      recipient: rule.owner,
      url: endpoint.url,
      headerName: endpoint.headerName,
      headerValue: endpoint.headerValue,
    },
  };
}

/** A suppressed address (SES bounce or complaint), as the reason of a resolution; null when usable. */
async function suppressedReason(
  suppressions: EmailSuppressionList | undefined,
  address: string,
): Promise<string | null> {
  const suppression = suppressions ? await suppressions.get(address) : null;
  if (!suppression) return null;
  const why = suppression.reason === "bounce" ? "it bounced" : "its recipient complained";
  return `e-mail address ${address} is suppressed: ${why} on ${suppression.at} (${suppression.detail})`;
}

/** The carrier's channel as set now: a carrier without one (or gone) is parked, replayable once set. */
async function resolveCarrierTarget(
  deps: Pick<DeliverJobDeps, "carriers" | "carrierInbox" | "suppressions">,
  request: StatusRequest,
): Promise<Resolution> {
  const prefix = request.carrierPrefix;
  const carrier = deps.carriers ? await deps.carriers.get(prefix) : null;
  if (!carrier) return { ok: false, reason: `carrier ${prefix} is not registered` };
  const settings = carrier.statusRequests;
  if (!settings)
    return {
      ok: false,
      reason: `carrier ${prefix} has no StatusRequests channel (replay once support sets one)`,
    };
  if (settings.channel === "Email") {
    const reason = await suppressedReason(deps.suppressions, normaliseAddress(settings.email ?? ""));
    if (reason) return { ok: false, suppressed: true, reason };
  }
  if (settings.channel === "Pull" && !deps.carrierInbox)
    return { ok: false, reason: "the carriers' pull queue is not available" };
  return { ok: true, target: { kind: "carrier", carrierPrefix: prefix, settings } };
}

// ---- sending --------------------------------------------------------------------------------------

/** What one send produced, in the terms of the retry policy and the attempt log. */
interface SendResult {
  /** For the policy; null = decided without it (refused by the SSRF guard, e-mail refused by SES). */
  outcome: AttemptOutcome | null;
  /** For the log: HTTP status (SES: 200 when accepted), null without an answer. */
  status: number | null;
  retryAfter: string | null;
  latencyMs: number;
  detail: string;
  /** SES MessageId of the e-mail sent (bounces and complaints refer to it). */
  emailMessageId?: string;
  /** The share link the e-mail carries: a retry of this delivery sends the same one. */
  shareLink?: { id: string; token: string };
}

function fromHttp(result: OutboundResult): SendResult {
  switch (result.kind) {
    case "response":
      return {
        outcome: result.status,
        status: result.status,
        retryAfter: result.headers["retry-after"] ?? null,
        latencyMs: result.latencyMs,
        detail: `HTTP ${result.status}${result.body ? `: ${result.body}` : ""}${
          result.bodyCutOff ? " (answer cut off at the attempt deadline)" : ""
        }`,
      };
    case "refused":
      return {
        outcome: null,
        status: null,
        retryAfter: null,
        latencyMs: result.latencyMs,
        detail: `target refused: ${result.reason}`,
      };
    case "timeout":
      return {
        outcome: "timeout",
        status: null,
        retryAfter: null,
        latencyMs: result.latencyMs,
        detail: TIMEOUT_DETAIL,
      };
    case "network-error":
      return {
        outcome: "network-error",
        status: null,
        retryAfter: null,
        latencyMs: result.latencyMs,
        detail: `network error: ${result.message}`,
      };
  }
}

// ---- the e-mail a person reads -----------------------------------------------------------

type EmailTarget = Extract<ResolvedTarget, { kind: "email" }>;
interface EmailShareLink {
  id: string;
  token: string;
  url: string;
  expiresAt: string;
}

/**
 * The route map as of sending, for the timeline; null when there is none, or when the rule's
 * forwarder may no longer read it (the e-mail never shows more than its recipient may read now).
 */
async function routeMapForEmail(
  deps: DeliverJobDeps,
  job: NotificationJob,
  recipient: SubscriberIdentity,
  now: string,
): Promise<RouteMap | null> {
  const routeMaps = deps.routeMaps;
  if (!routeMaps) return null;
  const view = await routeMaps.getView(job.event.awb);
  if (!view || !mayRead(view, { role: "forwarder", ...recipient })) return null;
  const json = await currentRouteMapJson(view, now, () => routeMaps.get(job.event.awb));
  return JSON.parse(json) as RouteMap;
}

/**
 * The e-mail's share link: the one an earlier attempt of this delivery made while it still works,
 * else a new one valid the rule's hours from now, owned by the rule's forwarder (so it reads only
 * while that forwarder may).
 */
async function shareLinkForEmail(
  deps: DeliverJobDeps,
  job: NotificationJob,
  target: EmailTarget,
  input: { now: string; appBaseUrl: string },
): Promise<EmailShareLink | null> {
  const { shareLinks, newShareLink } = deps;
  if (!shareLinks || !newShareLink || target.shareLinkHours === null) return null;
  const page = (token: string) => sharedRouteMapPageUrl(input.appBaseUrl, token);
  if (job.shareLink) {
    const earlier = await shareLinks.findByToken(job.shareLink.token);
    if (earlier && earlier.id === job.shareLink.id && isActive(earlier, input.now))
      return { ...job.shareLink, url: page(job.shareLink.token), expiresAt: earlier.expiresAt };
  }
  const { id, token } = newShareLink();
  const createdAt = normaliseUtc(input.now);
  const expiresAt = shareExpiresAt(createdAt, target.shareLinkHours);
  const { forwarderId, agentCode, agentCass } = target.recipient;
  await shareLinks.create(
    { id, awb: job.event.awb, owner: { forwarderId, agentCode, agentCass }, createdAt, expiresAt },
    token,
  );
  return { id, token, url: page(token), expiresAt };
}

async function composeEmail(
  deps: DeliverJobDeps,
  job: NotificationJob,
  target: EmailTarget,
  payload: EventPayload,
  input: DeliverJobInput,
): Promise<{ email: ReturnType<typeof renderEmail>; shareLink: EmailShareLink | null }> {
  const routeMap = await routeMapForEmail(deps, job, target.recipient, input.now);
  const base = input.appBaseUrl;
  // A share link only for a route map its forwarder may read now.
  const shareLink =
    base && routeMap
      ? await shareLinkForEmail(deps, job, target, { now: input.now, appBaseUrl: base })
      : null;
  const links: EmailLinks | null = base
    ? {
        routeMap: shareLink
          ? { kind: "share", url: shareLink.url, expiresAt: shareLink.expiresAt }
          : { kind: "app", url: routeMapPageUrl(base, job.event.awb) },
        manageRule: alertsPageUrl(base),
      }
    : null;
  const email = renderEmail(payload, target.headerItems, {
    ...(input.serviceName ? { serviceName: input.serviceName } : {}),
    routeMap,
    milestoneKey: job.event.milestoneKey,
    links,
    ruleId: target.ruleId,
    ...(target.proActiveMinutes === undefined ? {} : { proActiveMinutes: target.proActiveMinutes }),
  });
  return { email, shareLink };
}

async function send(
  deps: DeliverJobDeps,
  job: NotificationJob,
  target: Exclude<ResolvedTarget, { kind: "carrier" }>,
  payload: EventPayload,
  input: DeliverJobInput,
): Promise<SendResult> {
  const timeout = input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs };
  if (target.kind === "email") {
    const { email, shareLink } = await composeEmail(deps, job, target, payload, input);
    const sent = await deps.email.send({
      to: target.to,
      subject: email.subject,
      html: email.html,
      text: email.text,
    });
    const linkNote = shareLink ? `; share link ${shareLink.id} valid until ${shareLink.expiresAt}` : "";
    const carried = shareLink ? { shareLink: { id: shareLink.id, token: shareLink.token } } : {};
    if (sent.kind === "sent") {
      return {
        outcome: 200,
        status: 200,
        retryAfter: null,
        latencyMs: sent.latencyMs,
        detail: `accepted by SES as ${sent.messageId}${linkNote}`,
        ...(sent.messageId ? { emailMessageId: sent.messageId } : {}),
        ...carried,
      };
    }
    return {
      outcome: sent.retryable ? "network-error" : null,
      status: null,
      retryAfter: null,
      latencyMs: sent.latencyMs,
      detail: `SES: ${sent.message}${linkNote}`,
      ...carried,
    };
  }
  if (target.kind === "url") {
    return fromHttp(
      await deps.http.post({
        url: target.url,
        headers: { "content-type": "application/json", [target.headerName]: target.headerValue },
        body: JSON.stringify(payload),
        ...timeout,
      }),
    );
  }
  const { webhook } = target;
  const { contentType, body } = renderWebhookBody(payload, webhook.type);
  const headers: Record<string, string> = { "content-type": contentType };
  if (webhook.token) headers.authorization = `Bearer ${webhook.token}`;
  if (webhook.psk) {
    // webhook-id = the delivery id: stable across retries, so receivers de-duplicate on it.
    Object.assign(
      headers,
      signWebhook({
        id: input.job.deliveryId,
        timestampSeconds: input.sentAtSeconds,
        body,
        psk: webhook.psk,
      }),
    );
  }
  return fromHttp(await deps.http.post({ url: webhook.url, headers, body, ...timeout }));
}

/**
 * A status request through the carrier's channel: Url (POST, Standard Webhooks signature with the
 * carrier's secret, `webhook-id` = the request id), Email (SES, the message as the text) or Pull (put
 * in the carrier's queue for GET /carrier/requests).
 */
async function sendStatusRequest(
  deps: DeliverJobDeps,
  settings: StatusRequestSettings,
  request: StatusRequest,
  input: DeliverJobInput,
): Promise<SendResult> {
  const { contentType, body } = renderStatusRequest(request, settings.format);
  const awbText = `${request.awb.prefix}-${request.awb.serial}`;
  if (settings.channel === "Pull") {
    await deps.carrierInbox?.put({
      request,
      format: settings.format,
      contentType,
      body,
      availableAt: input.now,
    });
    return {
      outcome: 200,
      status: null,
      retryAfter: null,
      latencyMs: 0,
      detail: "in the carrier's pull queue (GET /carrier/requests)",
    };
  }
  if (settings.channel === "Email") {
    const escaped = body.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    const sent = await deps.email.send({
      to: settings.email ?? "",
      subject: `FSR ${awbText} (${request.requestId})`,
      text: body,
      html: `<pre>${escaped}</pre>`,
    });
    if (sent.kind === "sent")
      return {
        outcome: 200,
        status: 200,
        retryAfter: null,
        latencyMs: sent.latencyMs,
        detail: `accepted by SES as ${sent.messageId}`,
        ...(sent.messageId ? { emailMessageId: sent.messageId } : {}),
      };
    return {
      outcome: sent.retryable ? "network-error" : null,
      status: null,
      retryAfter: null,
      latencyMs: sent.latencyMs,
      detail: `SES: ${sent.message}`,
    };
  }
  const headers: Record<string, string> = { "content-type": contentType };
  if (settings.signingSecret)
    Object.assign(
      headers,
      signWebhook({
        id: request.requestId,
        timestampSeconds: input.sentAtSeconds,
        body,
        psk: settings.signingSecret,
      }),
    );
  const timeout = input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs };
  return fromHttp(await deps.http.post({ url: settings.url ?? "", headers, body, ...timeout }));
}

type Preparation =
  | { ok: true; target: ResolvedTarget; send: () => Promise<SendResult> }
  | { ok: false; reason: string; suppressed?: true };

/** The job's target as it stands now, and how to send to it. */
async function prepare(deps: DeliverJobDeps, job: DeliveryJob, input: DeliverJobInput): Promise<Preparation> {
  if (job.kind === "status-request") return prepareStatusRequest(deps, job, input);
  const resolved = await resolveTarget(deps, job);
  if (!resolved.ok) return resolved;
  const target = resolved.target;
  if (target.kind === "carrier") return { ok: false, reason: "a notification cannot go to a carrier" };
  return {
    ok: true,
    target,
    send: () => send(deps, job, target, renderEventPayload(job.event, target.recipient), input),
  };
}

async function prepareStatusRequest(
  deps: DeliverJobDeps,
  job: StatusRequestJob,
  input: DeliverJobInput,
): Promise<Preparation> {
  const resolved = await resolveCarrierTarget(deps, job.request);
  if (!resolved.ok) return resolved;
  const target = resolved.target;
  if (target.kind !== "carrier") return { ok: false, reason: "a status request goes to a carrier" };
  return { ok: true, target, send: () => sendStatusRequest(deps, target.settings, job.request, input) };
}

// ---- the attempt ----------------------------------------------------------------------------------

function decide(result: SendResult, input: DeliverJobInput): NextAttempt {
  if (result.outcome === null) return { action: "park", reason: "rejected" };
  return nextAttemptDelay({
    attempt: input.job.attempt,
    status: result.outcome,
    retryAfterHeader: result.retryAfter,
    now: input.now,
    random: input.random,
    scheduleScale: input.retryScale ?? 1,
  });
}

/**
 * Queues attempt n+1: an SQS delay up to 15 minutes, a one-time schedule beyond. A target that timed
 * out gets it on the slow lane (a schedule puts it back on the main queue: hours later, the target may
 * well have recovered).
 */
async function queueNextAttempt(
  deps: DeliverJobDeps,
  job: DeliveryJob,
  delaySeconds: number,
  now: string,
  lane: DeliveryLane,
) {
  const next: DeliveryJob = { ...job, attempt: job.attempt + 1 };
  const plan = splitDelay(delaySeconds);
  if (plan.via === "sqs") await deps.queue.enqueue([next], plan.delaySeconds, lane);
  else
    await deps.retryScheduler.scheduleRetry(
      next,
      new Date(Date.parse(now) + plan.delaySeconds * 1000).toISOString(),
    );
}

/** The lane of the next attempt, from what this one logged: a timeout goes to the slow lane. */
const laneAfter = (detail: string): DeliveryLane => (detail.startsWith(TIMEOUT_DETAIL) ? "slow" : "main");

/** The log note of a retry, for the people reading the attempt log. */
const retryNote = (nextAttempt: number, seconds: number) => ` (attempt ${nextAttempt} in ${seconds} s)`;

/**
 * Seconds from `now` until the next attempt a logged retry planned (0 when already due). An entry
 * logged without its due time (older records) falls back to the scheduled backoff of that attempt.
 */
function plannedRetrySeconds(entry: DeliveryAttempt, now: string, retryScale: number): number {
  const due =
    entry.nextAttemptAt !== undefined
      ? Date.parse(entry.nextAttemptAt)
      : Date.parse(entry.at) +
        (RETRY_SCHEDULE_SECONDS[entry.attempt - 1] ?? RETRY_SCHEDULE_SECONDS[0]) * retryScale * 1000;
  return Math.max(0, Math.ceil((due - Date.parse(now)) / 1000));
}

export async function deliverJob(deps: DeliverJobDeps, input: DeliverJobInput): Promise<DeliverJobResult> {
  const { job, now } = input;
  const base = { deliveryId: job.deliveryId, attempt: job.attempt };
  const existing = await deps.deliveries.get(job.deliveryId);
  if (existing?.attempts.some((attempt) => attempt.attempt === job.attempt)) {
    // Answered before (step 3 happened): never sent again. Only step 4 may be missing.
    const last = existing.attempts.at(-1);
    if (existing.status === "retrying" && last?.attempt === job.attempt && last.outcome === "retry") {
      const seconds = plannedRetrySeconds(last, now, input.retryScale ?? 1);
      await queueNextAttempt(deps, job, seconds, now, laneAfter(last.detail));
      return {
        ...base,
        outcome: "duplicate",
        status: null,
        detail: `attempt already made; attempt ${job.attempt + 1} queued (again) in ${seconds} s`,
        nextAttemptInSeconds: seconds,
      };
    }
    return { ...base, outcome: "duplicate", status: null, detail: "attempt already made" };
  }
  // A job always has its record (the matcher creates it first); a missing one is recreated, not lost.
  if (!existing) await deps.deliveries.create(newDeliveryRecord({ ...job, attempt: 1 }, now));

  const log = async (
    outcome: DeliveryAttempt["outcome"],
    status: DeliveryStatus,
    result: Pick<SendResult, "status" | "latencyMs" | "detail" | "emailMessageId">,
    nextAttemptAt?: string,
  ) =>
    deps.deliveries.recordAttempt(
      job.deliveryId,
      {
        attempt: job.attempt,
        at: now,
        status: result.status,
        latencyMs: result.latencyMs,
        outcome,
        detail: truncate(result.detail),
        ...(nextAttemptAt === undefined ? {} : { nextAttemptAt }),
        ...(result.emailMessageId === undefined ? {} : { emailMessageId: result.emailMessageId }),
      },
      status,
    );

  const resolved = await prepare(deps, job, input);
  if (!resolved.ok && resolved.suppressed) {
    // Not retried (the address will not recover by waiting), not lost: visible in the log.
    const detail = `suppressed: ${resolved.reason}; not sent`;
    await log("suppressed", "parked", { status: null, latencyMs: 0, detail });
    return { ...base, outcome: "suppressed", status: null, detail };
  }
  if (!resolved.ok) {
    const detail = `skipped: ${resolved.reason}`;
    await log("parked", "parked", { status: null, latencyMs: 0, detail });
    return { ...base, outcome: "skipped", status: null, detail };
  }
  const target = resolved.target;
  const result = await resolved.send();
  const next = decide(result, input);

  switch (next.action) {
    case "delivered":
      await log("delivered", "delivered", result);
      return { ...base, outcome: "delivered", status: result.status, detail: truncate(result.detail) };
    case "retry": {
      const seconds = splitDelay(next.delaySeconds).delaySeconds;
      const detail = withNote(result.detail, retryNote(job.attempt + 1, seconds));
      const nextAttemptAt = new Date(Date.parse(now) + seconds * 1000).toISOString();
      await log("retry", "retrying", { ...result, detail }, nextAttemptAt);
      const retried = result.shareLink && !job.kind ? { ...job, shareLink: result.shareLink } : job;
      await queueNextAttempt(deps, retried, seconds, now, laneAfter(result.detail));
      return { ...base, outcome: "retry", status: result.status, detail, nextAttemptInSeconds: seconds };
    }
    case "park": {
      const detail = withNote(result.detail, ` (parked: ${next.reason})`);
      await log("parked", "parked", { ...result, detail });
      return { ...base, outcome: "parked", status: result.status, detail };
    }
    case "disable-webhook": {
      if (target.kind !== "webhook") {
        // A customer endpoint (or a carrier's Url) is support's registration: 410 parks the delivery,
        // nothing is switched off.
        const detail = withNote(result.detail, " (parked: gone)");
        await log("parked", "parked", { ...result, detail });
        return { ...base, outcome: "parked", status: result.status, detail };
      }
      // Step 2, before the log: a redelivered job would see the attempt logged and not get here again.
      // Re-read so a change the forwarder made during the attempt is kept; only the switch flips.
      const current = await deps.subscriptions.getWebhook(
        target.webhook.owner.forwarderId,
        target.webhook.id,
      );
      if (current)
        await deps.subscriptions.putWebhook(disableWebhook(current, "receiver answered 410 Gone", now));
      const detail = withNote(result.detail, " (webhook disabled)");
      await log("disabled", "parked", { ...result, detail });
      return { ...base, outcome: "disabled", status: result.status, detail };
    }
  }
}

/**
 * The job failed on every receive SQS allows it (the store, queue or scheduler kept refusing). Left
 * alone it would sink into the dead-letter queue with its delivery still "in progress", which replay
 * refuses for ever; instead the delivery is parked, visibly and replayable. A delivery that has moved
 * on meanwhile (settled, or a later attempt logged) is left as it is. If this fails too, the caller
 * lets the job go to the dead-letter queue (alarmed).
 */
export async function parkUnfinishedJob(
  deps: Pick<DeliverJobDeps, "deliveries">,
  /** `tries`: how often the job was received; the cause stays in the service's own logs. */
  input: { job: DeliveryJob; now: string; tries: number },
): Promise<DeliverJobResult> {
  const { job, now } = input;
  const base = { deliveryId: job.deliveryId, attempt: job.attempt, status: null };
  const existing = await deps.deliveries.get(job.deliveryId);
  if (!existing) await deps.deliveries.create(newDeliveryRecord({ ...job, attempt: 1 }, now));
  const settled = existing?.status === "delivered" || existing?.status === "parked";
  const overtaken = existing?.attempts.some((attempt) => attempt.attempt > job.attempt) ?? false;
  if (settled || overtaken) {
    return { ...base, outcome: "duplicate", detail: `delivery already ${existing?.status}; left as it is` };
  }
  // The forwarder reads this: it says what happened, not which internal part failed.
  const detail = `parked: the service could not complete attempt ${job.attempt} in ${input.tries} tries; replay to try again`;
  await deps.deliveries.recordAttempt(
    job.deliveryId,
    { attempt: job.attempt, at: now, status: null, latencyMs: 0, outcome: "parked", detail },
    "parked",
  );
  return { ...base, outcome: "parked", detail };
}
