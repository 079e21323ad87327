/** POST /ffw/service/routemap/eventconfignotifier/{id}/disable: switch one of the caller's rules off. */
import { nowIso } from "../../adapters/clock.ts";
import { disableNotificationRule } from "../../core/use-cases/disable-notification-rule.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { ruleBody } from "./notification-schemas.ts";

export const handler = httpHandler("disable-notification-rule", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const rule = await mappedNotification(() =>
    disableNotificationRule({ subscriptions: subscriptions() }, { forwarderId, id, now: nowIso() }),
  );
  return { status: 200, body: ruleBody(rule) };
});
