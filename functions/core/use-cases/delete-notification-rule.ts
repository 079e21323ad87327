/** Deletes one of the caller's rules. */
import { SubscriptionNotFoundError } from "../errors.ts";
import type { NotificationRule } from "../notifications/index.ts";
import { findOwnedRule, type NotificationRuleDeps } from "./shared/notification-rules.ts";

/** Returns the deleted rule (the response shows what was removed). */
export async function deleteNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions">,
  forwarderId: string,
  id: number,
): Promise<NotificationRule> {
  const current = await findOwnedRule(deps.subscriptions, forwarderId, id);
  if (!(await deps.subscriptions.deleteRule(forwarderId, id))) {
    throw new SubscriptionNotFoundError("rule", String(id));
  }
  return current;
}
