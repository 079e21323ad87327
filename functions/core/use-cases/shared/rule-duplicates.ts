/** Every rule of a forwarder, and the identical-rule refusal of create/update. */
import { DuplicateRuleError } from "../../errors.ts";
import { identicalRule, type NotificationRule } from "../../notifications/index.ts";
import type { SubscriptionRepository } from "../../ports/notifications.ts";

/** Every rule of one forwarder (bounded by the per-forwarder rule limit: one partition read). */
export async function allRulesOf(
  subscriptions: SubscriptionRepository,
  forwarderId: string,
): Promise<NotificationRule[]> {
  const rules: NotificationRule[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await subscriptions.listRules(forwarderId, { page, pageSize: 500 });
    rules.push(...items);
    if (items.length === 0 || rules.length >= total) return rules;
  }
}

/** 409 when the forwarder already has a rule identical to this one (itself excluded; a draft has no id). */
export async function ensureNotDuplicate(
  subscriptions: SubscriptionRepository,
  rule: Omit<NotificationRule, "id"> & { id?: number },
): Promise<void> {
  const twin = identicalRule(rule, await allRulesOf(subscriptions, rule.owner.forwarderId));
  if (twin) throw new DuplicateRuleError(twin.id);
}
