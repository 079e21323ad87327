/** The sweep request a saved ProActive rule queues (see sweep-proactive-page.ts for the sweep). */
import type { NotificationRule } from "../../notifications/index.ts";
import type { ProActiveSweepQueue } from "../../ports/checks.ts";

/** A saved rule that needs a sweep: an enabled ProActive rule (others never hear ProActive events). */
export function needsProActiveSweep(rule: NotificationRule): boolean {
  return rule.enabled && rule.alert.kind === "ProActive";
}

/** Queues the first page of a sweep for a just-saved rule; nothing for rules that need none. */
export async function requestProActiveSweep(
  queue: ProActiveSweepQueue,
  rule: NotificationRule,
): Promise<boolean> {
  if (!needsProActiveSweep(rule)) return false;
  await queue.request({
    kind: "proactive-sweep",
    ruleId: rule.id,
    forwarderId: rule.owner.forwarderId,
    ruleUpdatedAt: rule.updatedAt,
    cursor: null,
  });
  return true;
}
