/**
 * What the notification-rule use cases share (spec endpoint eventconfignotifier, plus read/update/delete
 * and enable/disable): each verb only ever touches the caller's own rules; another forwarder's id is as
 * unknown as a missing one.
 */

import { SubscriptionNotFoundError, UnusableReferenceError } from "../../errors.ts";
import {
  isEndpointUsableBy,
  type NotificationRule,
  type NotificationRuleRequest,
} from "../../notifications/index.ts";
import type { ProActiveSweepQueue } from "../../ports/checks.ts";
import type { SubscriptionRepository } from "../../ports/notifications.ts";
import { requestProActiveSweep } from "./proactive-sweeps.ts";
import type { SubscriptionLimits } from "./subscription-limits.ts";

export interface NotificationRuleDeps {
  subscriptions: SubscriptionRepository;
  limits: SubscriptionLimits;
  /**
   * Where a saved, enabled ProActive rule requests the sweep that schedules proactive checks for
   * milestones already overdue (rules created after a route map was planned still get their checks).
   * Only a message is queued here: the sweep itself runs off the request path (run-due-check handler).
   * Absent in tests that do not care.
   */
  proActiveSweeps?: ProActiveSweepQueue;
}

/** After the rule is stored: a queued request, never the sweep itself (it may cover thousands). */
export async function requestSweep(
  deps: Pick<NotificationRuleDeps, "proActiveSweeps">,
  rule: NotificationRule,
) {
  if (deps.proActiveSweeps) await requestProActiveSweep(deps.proActiveSweeps, rule);
}

/** Url rules: NotifyTo must name a customer endpoint support registered for this very forwarder. */
export async function ensureUsableNotifyTo(
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

/** The caller's rule `id`; another forwarder's rule is as unknown as a missing one. */
export async function findOwnedRule(
  subscriptions: SubscriptionRepository,
  forwarderId: string,
  id: number,
): Promise<NotificationRule> {
  const rule = await subscriptions.getRule(forwarderId, id);
  if (!rule) throw new SubscriptionNotFoundError("rule", String(id));
  return rule;
}

/** Enable/disable: idempotent, switching to the state it is in writes nothing. */
export async function switchRule(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps">,
  input: { forwarderId: string; id: number; enabled: boolean; now: string },
): Promise<NotificationRule> {
  const current = await findOwnedRule(deps.subscriptions, input.forwarderId, input.id);
  if (current.enabled === input.enabled) return current;
  const updated: NotificationRule = { ...current, enabled: input.enabled, updatedAt: input.now };
  await deps.subscriptions.putRule(updated);
  await requestSweep(deps, updated);
  return updated;
}
