/** One of the caller's notification rules (else SubscriptionNotFoundError). */
import type { NotificationRule } from "../notifications/index.ts";
import { findOwnedRule, type NotificationRuleDeps } from "./shared/notification-rules.ts";

export function getNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<NotificationRule> {
  return findOwnedRule(deps.subscriptions, forwarderId, id);
}
