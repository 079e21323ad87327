/** Replaces one of the caller's rules. */
import {
  applyRuleUpdate,
  type NotificationRule,
  type NotificationRuleRequest,
} from "../notifications/index.ts";
import {
  ensureUsableNotifyTo,
  findOwnedRule,
  type NotificationRuleDeps,
  requestSweep,
} from "./shared/notification-rules.ts";

/** PUT: a full replacement under the same id, owner and creation time. */
export async function updateNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps">,
  input: { forwarderId: string; id: number; request: NotificationRuleRequest; now: string },
): Promise<NotificationRule> {
  const current = await findOwnedRule(deps.subscriptions, input.forwarderId, input.id);
  await ensureUsableNotifyTo(deps.subscriptions, input.request, input.forwarderId);
  const updated = applyRuleUpdate(current, input.request, input.now);
  await deps.subscriptions.putRule(updated);
  await requestSweep(deps, updated);
  return updated;
}
