/** POST /ffw/service/routemap/eventconfignotifier/{id}/enable: switch one of the caller's rules on. */
import { nowIso } from "../../adapters/clock.ts";
import { randomToken } from "../../adapters/random-token.ts";
import { enableNotificationRule } from "../../core/use-cases/enable-notification-rule.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import {
  bestEffortProActiveSweeps,
  emailConfirmations,
  emailSender,
  httpPipeline,
  subscriptions,
} from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof enableNotificationRule>, pipeline?: Pipeline) =>
  httpRoute("enable-notification-rule", { params: { id: idFromPath } }, pipeline).handle(
    async ({ identity, params, baseUrl }) => {
      const { forwarderId } = identity;
      const rule = await enableNotificationRule(deps(), {
        forwarderId,
        id: params.id,
        now: nowIso(),
        confirmationLink: { token: randomToken(), baseUrl },
      });
      return { status: 200, body: ruleBody(rule) };
    },
  );

export const handler = make(
  () => ({
    subscriptions: subscriptions(),
    proActiveSweeps: bestEffortProActiveSweeps(),
    addressConfirmation: { confirmations: emailConfirmations(), email: emailSender() },
  }),
  httpPipeline,
);
