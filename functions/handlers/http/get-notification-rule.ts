/** GET /ffw/service/routemap/eventconfignotifier/{id}: one of the caller's rules (else 404). */
import { getNotificationRule } from "../../core/use-cases/get-notification-rule.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof getNotificationRule>, pipeline?: Pipeline) =>
  httpRoute("get-notification-rule", { params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params }) => ({
      status: 200,
      body: ruleBody(await getNotificationRule(deps(), identity.forwarderId, params.id)),
    }),
  );

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
