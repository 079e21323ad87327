/**
 * Notification rules of one forwarder (spec endpoint eventconfignotifier, plus read/update/delete and
 * enable/disable): each verb only ever touches the caller's own rules; another forwarder's id is as
 * unknown as a missing one.
 */

import { SubscriptionNotFoundError, UnusableReferenceError } from "../errors.ts";
import {
  applyRuleUpdate,
  isEndpointUsableBy,
  type NotificationRule,
  type NotificationRuleRequest,
  ruleFromRequest,
  type SubscriberIdentity,
} from "../notifications/index.ts";
import type { ProActiveSweepQueue } from "../ports/checks.ts";
import type { Page, PageRequest, SubscriptionRepository } from "../ports/notifications.ts";
import { requestProActiveSweep } from "./schedule-proactive-for-rule.ts";
import { ensureBelowLimit, type SubscriptionLimits } from "./subscription-limits.ts";

export interface NotificationRuleDeps {
  subscriptions: SubscriptionRepository;
  limits: SubscriptionLimits;
  /**
   * Where a saved, enabled ProActive rule requests the sweep that schedules proactive checks for
   * milestones already overdue (rules created after a route map was planned still get their checks).
   * Only a message is queued here: the sweep itself runs off the request path (check-due handler).
   * Absent in tests that do not care.
   */
  proActiveSweeps?: ProActiveSweepQueue;
}

/** After the rule is stored: a queued request, never the sweep itself (it may cover thousands). */
async function requestSweep(deps: Pick<NotificationRuleDeps, "proActiveSweeps">, rule: NotificationRule) {
  if (deps.proActiveSweeps) await requestProActiveSweep(deps.proActiveSweeps, rule);
}

/** Url rules: NotifyTo must name a customer endpoint support registered for this very forwarder. */
async function ensureUsableNotifyTo(
  subscriptions: SubscriptionRepository,
  request: NotificationRuleRequest,
  forwarderId: string,
): Promise<void> {
  if (request.ChannelType !== "Url") return;
  const endpoint = await subscriptions.getCustomerEndpoint(request.NotifyTo);
  if (!isEndpointUsableBy(endpoint, forwarderId)) {
    throw new UnusableReferenceError("NotifyTo", "is not a customer endpoint registered by support for you");
  }
}

export async function getNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<NotificationRule> {
  const rule = await deps.subscriptions.getRule(forwarderId, id);
  if (!rule) throw new SubscriptionNotFoundError("rule", String(id));
  return rule;
}

export async function createNotificationRule(
  deps: NotificationRuleDeps,
  input: { owner: SubscriberIdentity; request: NotificationRuleRequest; now: string },
): Promise<NotificationRule> {
  const { owner, request, now } = input;
  await ensureBelowLimit(deps.subscriptions, deps.limits, owner.forwarderId, "rule");
  await ensureUsableNotifyTo(deps.subscriptions, request, owner.forwarderId);
  const id = await deps.subscriptions.nextId("rule");
  const rule = ruleFromRequest(request, { id, owner, now });
  await deps.subscriptions.putRule(rule);
  await requestSweep(deps, rule);
  return rule;
}

export function listNotificationRules(
  deps: Pick<NotificationRuleDeps, "subscriptions">,
  forwarderId: string,
  page: PageRequest,
): Promise<Page<NotificationRule>> {
  return deps.subscriptions.listRules(forwarderId, page);
}

/** PUT: a full replacement under the same id, owner and creation time. */
export async function updateNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps">,
  input: { forwarderId: string; id: number; request: NotificationRuleRequest; now: string },
): Promise<NotificationRule> {
  const current = await getNotificationRule(deps, input.forwarderId, input.id);
  await ensureUsableNotifyTo(deps.subscriptions, input.request, input.forwarderId);
  const updated = applyRuleUpdate(current, input.request, input.now);
  await deps.subscriptions.putRule(updated);
  await requestSweep(deps, updated);
  return updated;
}

export async function setNotificationRuleEnabled(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps">,
  input: { forwarderId: string; id: number; enabled: boolean; now: string },
): Promise<NotificationRule> {
  const current = await getNotificationRule(deps, input.forwarderId, input.id);
  // Idempotent: switching to the state it is in writes nothing.
  if (current.enabled === input.enabled) return current;
  const updated: NotificationRule = { ...current, enabled: input.enabled, updatedAt: input.now };
  await deps.subscriptions.putRule(updated);
  await requestSweep(deps, updated);
  return updated;
}

/** Returns the deleted rule (the response shows what was removed). */
export async function deleteNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<NotificationRule> {
  const current = await getNotificationRule(deps, forwarderId, id);
  if (!(await deps.subscriptions.deleteRule(forwarderId, id))) {
    throw new SubscriptionNotFoundError("rule", String(id));
  }
  return current;
}
