/**
 * DELETE /ffw/service/routemap/eventconfignotifier/{id}: removes the rule and its match-index items.
 * Answers 200 with the deleted rule (the spec's success status is 200 throughout).
 */
import { deleteNotificationRule } from "../../core/use-cases/delete-notification-rule.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { ruleBody } from "./notification-schemas.ts";

export const handler = httpHandler("delete-notification-rule", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const rule = await mappedNotification(() =>
    deleteNotificationRule({ subscriptions: subscriptions() }, forwarderId, id),
  );
  return { status: 200, body: ruleBody(rule) };
});
