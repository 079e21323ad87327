/** POST /ffw/service/routemap/eventconfignotifier/{id}/disable: switch one of the caller's rules off. */
import { nowIso } from "../../adapters/clock.ts";
import { disableNotificationRule } from "../../core/use-cases/disable-notification-rule.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import { bestEffortProActiveSweeps, httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof disableNotificationRule>, pipeline?: Pipeline) =>
  httpRoute("disable-notification-rule", { params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params }) => {
      const { forwarderId } = identity;
      const rule = await disableNotificationRule(deps(), { forwarderId, id: params.id, now: nowIso() });
      return { status: 200, body: ruleBody(rule) };
    },
  );

export const handler = make(
  () => ({
    subscriptions: subscriptions(),
    proActiveSweeps: bestEffortProActiveSweeps(),
  }),
  httpPipeline,
);
