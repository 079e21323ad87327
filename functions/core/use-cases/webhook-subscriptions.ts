/**
 * Webhooks of one forwarder: create, read, list, update, delete and URL verification. A webhook
 * receives events only once its receiver has echoed a challenge (isWebhookActive), so every write that
 * leaves it unverified (creation, a changed Url, an update of a failed one, switching on one that a
 * receiver's 410 switched off) runs the challenge at once and stores the outcome; the forwarder sees
 * the result in the same response.
 */

import { SubscriptionNotFoundError, UnusableReferenceError } from "../errors.ts";
import {
  applyWebhookUpdate,
  markWebhookVerificationFailed,
  markWebhookVerified,
  type SubscriberIdentity,
  type Webhook,
  type WebhookRequest,
  webhookFromRequest,
} from "../notifications/index.ts";
import type {
  Page,
  PageRequest,
  SubscriptionRepository,
  TargetChecker,
  WebhookVerifier,
} from "../ports/notifications.ts";
import { ensureBelowLimit, type SubscriptionLimits } from "./subscription-limits.ts";

export type TargetVerdict = { allowed: true } | { allowed: false; reason: string };

export type VerificationOutcome = { ok: true } | { ok: false; reason: string };

export interface WebhookDeps {
  subscriptions: SubscriptionRepository;
  verifier: WebhookVerifier;
  limits: SubscriptionLimits;
}

async function ensureTargetAllowed(checker: TargetChecker, url: string): Promise<void> {
  const verdict = await checker.checkTarget(url);
  if (!verdict.allowed) throw new UnusableReferenceError("Url", `cannot be called: ${verdict.reason}`);
}

async function verified(verifier: WebhookVerifier, webhook: Webhook, now: string): Promise<Webhook> {
  const outcome = await verifier.verify(webhook);
  return outcome.ok
    ? markWebhookVerified(webhook, now)
    : markWebhookVerificationFailed(webhook, outcome.reason, now);
}

export async function getWebhook(
  deps: Pick<WebhookDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<Webhook> {
  const webhook = await deps.subscriptions.getWebhook(forwarderId, id);
  if (!webhook) throw new SubscriptionNotFoundError("webhook", String(id));
  return webhook;
}

export async function createWebhook(
  deps: WebhookDeps,
  input: { owner: SubscriberIdentity; request: WebhookRequest; now: string },
): Promise<Webhook> {
  const { owner, request, now } = input;
  await ensureBelowLimit(deps.subscriptions, deps.limits, owner.forwarderId, "webhook");
  await ensureTargetAllowed(deps.verifier, request.Url);
  const id = await deps.subscriptions.nextId("webhook");
  const webhook = await verified(deps.verifier, webhookFromRequest(request, { id, owner, now }), now);
  await deps.subscriptions.putWebhook(webhook);
  return webhook;
}

export function listWebhooks(
  deps: Pick<WebhookDeps, "subscriptions">,
  forwarderId: string,
  page: PageRequest,
): Promise<Page<Webhook>> {
  return deps.subscriptions.listWebhooks(forwarderId, page);
}

/**
 * PUT: absent Token/Psk keep the stored ones; a webhook left unverified (a new Url, or switched on
 * again after a 410) is challenged again.
 */
export async function updateWebhook(
  deps: Omit<WebhookDeps, "limits">,
  input: { forwarderId: string; id: number; request: WebhookRequest; now: string },
): Promise<Webhook> {
  const current = await getWebhook(deps, input.forwarderId, input.id);
  if (input.request.Url !== current.url) await ensureTargetAllowed(deps.verifier, input.request.Url);
  let updated = applyWebhookUpdate(current, input.request, input.now);
  if (updated.verification.status !== "verified") updated = await verified(deps.verifier, updated, input.now);
  await deps.subscriptions.putWebhook(updated);
  return updated;
}

/** POST .../verify: runs the challenge again whatever the current state, and stores the outcome. */
export async function verifyWebhook(
  deps: Omit<WebhookDeps, "limits">,
  input: { forwarderId: string; id: number; now: string },
): Promise<Webhook> {
  const current = await getWebhook(deps, input.forwarderId, input.id);
  const updated = await verified(deps.verifier, current, input.now);
  await deps.subscriptions.putWebhook(updated);
  return updated;
}

export async function deleteWebhook(
  deps: Pick<WebhookDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<Webhook> {
  const current = await getWebhook(deps, forwarderId, id);
  if (!(await deps.subscriptions.deleteWebhook(forwarderId, id))) {
    throw new SubscriptionNotFoundError("webhook", String(id));
  }
  return current;
}
