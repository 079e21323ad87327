/** Switches one of the caller's rules on (idempotent); an enabled ProActive rule requests its sweep. */
import type { NotificationRule } from "../notifications/index.ts";
import { type NotificationRuleDeps, switchRule } from "./shared/notification-rules.ts";

export function enableNotificationRule(
  deps: Pick<NotificationRuleDeps, "subscriptions" | "proActiveSweeps">,
  input: { forwarderId: string; id: number; now: string },
): Promise<NotificationRule> {
  return switchRule(deps, { ...input, enabled: true });
}
