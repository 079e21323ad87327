/** Switches one of the caller's rules off (idempotent). */
import type { NotificationRule } from "../notifications/index.ts";
import { type NotificationRuleDeps, switchRule } from "./shared/notification-rules.ts";

export function disableNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps">,
  input: { forwarderId: string; id: number; now: string },
): Promise<NotificationRule> {
  return switchRule(deps, { ...input, enabled: false });
}
