/** POST /ffw/service/routemap/eventconfignotifier: create a notification rule owned by the caller. */
import { nowIso } from "../../adapters/clock.ts";
import { NotificationRuleRequestSchema } from "../../core/notifications/index.ts";
import { createNotificationRule } from "../../core/use-cases/create-notification-rule.ts";
import { httpHandler } from "./kit.ts";
import { limits, proActiveSweeps, subscriptions } from "./notification-deps.ts";
import { mappedNotification, subscriber } from "./notification-problems.ts";
import { ruleBody } from "./notification-schemas.ts";

export const handler = httpHandler(
  "create-notification-rule",
  { body: NotificationRuleRequestSchema },
  async ({ identity, body }) => {
    const owner = subscriber(identity);
    const rule = await mappedNotification(() =>
      createNotificationRule(
        { subscriptions: subscriptions(), limits: limits(), proActiveSweeps: proActiveSweeps() },
        { owner, request: body, now: nowIso() },
      ),
    );
    return { status: 200, body: ruleBody(rule) };
  },
);
