/** POST /ffw/service/routemap/eventconfignotifier/{id}/enable: switch one of the caller's rules on. */
import { nowIso } from "../../adapters/clock.ts";
import { enableNotificationRule } from "../../core/use-cases/enable-notification-rule.ts";
import { httpHandler } from "./kit.ts";
import { proActiveSweeps, subscriptions } from "./notification-deps.ts";
import { idFromPath, mappedNotification, subscriber } from "./notification-problems.ts";
import { ruleBody } from "./notification-schemas.ts";

export const handler = httpHandler("enable-notification-rule", {}, async ({ identity, params }) => {
  const { forwarderId } = subscriber(identity);
  const id = idFromPath(params.id);
  const rule = await mappedNotification(() =>
    enableNotificationRule(
      { subscriptions: subscriptions(), proActiveSweeps: proActiveSweeps() },
      { forwarderId, id, now: nowIso() },
    ),
  );
  return { status: 200, body: ruleBody(rule) };
});
