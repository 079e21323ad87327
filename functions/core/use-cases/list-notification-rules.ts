/** The caller's rules, paged. */
import type { NotificationRule } from "../notifications/index.ts";
import type { Page, PageRequest } from "../ports/notifications.ts";
import type { NotificationRuleDeps } from "./shared/notification-rules.ts";

export function listNotificationRules(
  deps: Pick<NotificationRuleDeps, "subscriptions">,
  forwarderId: string,
  page: PageRequest,
): Promise<Page<NotificationRule>> {
  return deps.subscriptions.listRules(forwarderId, page);
}
