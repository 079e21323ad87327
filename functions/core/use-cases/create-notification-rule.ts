/** Creates a rule for the caller: within its limit, NotifyTo usable, then the sweep request. */
import {
  type NotificationRule,
  type NotificationRuleRequest,
  ruleFromRequest,
  type SubscriberIdentity,
} from "../notifications/index.ts";
import {
  ensureUsableNotifyTo,
  type NotificationRuleDeps,
  requestSweep,
} from "./shared/notification-rules.ts";
import { ensureBelowLimit } from "./shared/subscription-limits.ts";

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
