/** PUT /ffw/service/routemap/eventconfignotifier/{id}: replace one of the caller's rules. */
import { nowIso } from "../../adapters/clock.ts";
import { randomToken } from "../../adapters/random-token.ts";
import { NotificationRuleUpdateSchema } from "../../core/notifications/index.ts";
import { updateNotificationRule } from "../../core/use-cases/update-notification-rule.ts";
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

export const make = (deps: () => DepsOf<typeof updateNotificationRule>, pipeline?: Pipeline) =>
  httpRoute(
    "update-notification-rule",
    {
      body: NotificationRuleUpdateSchema,
      params: { id: idFromPath },
    },
    pipeline,
  ).handle(async ({ identity, params, body, baseUrl }) => {
    const { forwarderId } = identity;
    const rule = await updateNotificationRule(deps(), {
      forwarderId,
      id: params.id,
      request: body,
      now: nowIso(),
      confirmationLink: { token: randomToken(), baseUrl },
    });
    return { status: 200, body: ruleBody(rule) };
  });

export const handler = make(
  () => ({
    subscriptions: subscriptions(),
    proActiveSweeps: bestEffortProActiveSweeps(),
    addressConfirmation: { confirmations: emailConfirmations(), email: emailSender() },
  }),
  httpPipeline,
);
