/**
 * DELETE /ffw/service/routemap/eventconfignotifier/{id}: removes the rule and its match-index items.
 * Answers 200 with the deleted rule (the spec's success status is 200 throughout).
 */
import { deleteNotificationRule } from "../../core/use-cases/delete-notification-rule.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof deleteNotificationRule>, pipeline?: Pipeline) =>
  httpRoute("delete-notification-rule", { params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params }) => ({
      status: 200,
      body: ruleBody(await deleteNotificationRule(deps(), identity.forwarderId, params.id)),
    }),
  );

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
