/** PUT /ffw/service/routemap/eventconfignotifier/{id}: replace one of the caller's rules. */
import { nowIso } from "../../adapters/clock.ts";
import { NotificationRuleUpdateSchema } from "../../core/notifications/index.ts";
import { updateNotificationRule } from "../../core/use-cases/update-notification-rule.ts";
import { httpHandler } from "./kit.ts";
import { proActiveSweeps, subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { ruleBody } from "./notification-schemas.ts";

export const handler = httpHandler(
  "update-notification-rule",
  { body: NotificationRuleUpdateSchema },
  async ({ identity, params, body }) => {
    const { forwarderId } = subscriber(identity);
    const id = idFromPath(params.id);
    const rule = await mappedNotification(() =>
      updateNotificationRule(
        { subscriptions: subscriptions(), proActiveSweeps: proActiveSweeps() },
        { forwarderId, id, request: body, now: nowIso() },
      ),
    );
    return { status: 200, body: ruleBody(rule) };
  },
);
