/** PUT /ffw/service/routemap/eventconfignotifier/{id}: replace one of the caller's rules. */
import { nowIso } from "../../adapters/clock.ts";
import { randomToken } from "../../adapters/random-token.ts";
import { updateNotificationRule } from "../../core/use-cases/update-notification-rule.ts";
import { idFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { NOTIFICATION_ROUTES } from "../../http/routes/notifications.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import {
  bestEffortProActiveSweeps,
  emailConfirmations,
  emailSender,
  httpPipeline,
  subscriptions,
} from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = NOTIFICATION_ROUTES["update-notification-rule"];

export const make = (deps: () => DepsOf<typeof updateNotificationRule>, pipeline?: Pipeline) =>
  httpRoute(
    "update-notification-rule",
    {
      body: api.body.schema,
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
