/** GET /ffw/service/routemap/eventconfignotifier/{id}: one of the caller's rules (else 404). */
import { getNotificationRule } from "../../core/use-cases/get-notification-rule.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { ruleBody } from "./notification-schemas.ts";

export const handler = httpHandler("get-notification-rule", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const rule = await mappedNotification(() =>
    getNotificationRule({ subscriptions: subscriptions() }, forwarderId, id),
  );
  return { status: 200, body: ruleBody(rule) };
});
