/**
 * POST /ffw/service/routemap/eventconfignotifier: create a notification rule owned by the caller; a new
 * NotifyTo address of an Email rule is mailed its confirmation link (with a fresh random token).
 */
import { nowIso } from "../../adapters/clock.ts";
import { randomToken } from "../../adapters/random-token.ts";
import { createNotificationRule } from "../../core/use-cases/create-notification-rule.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { subscriber } from "../../http/request-mapping.ts";
import { NOTIFICATION_ROUTES } from "../../http/routes/notifications.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import {
  bestEffortProActiveSweeps,
  emailConfirmations,
  emailSender,
  httpPipeline,
  subscriptionLimits,
  subscriptions,
} from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = NOTIFICATION_ROUTES["create-notification-rule"];

export const make = (deps: () => DepsOf<typeof createNotificationRule>, pipeline?: Pipeline) =>
  httpRoute("create-notification-rule", { body: api.body.schema }, pipeline).handle(
    async ({ identity, body, baseUrl }) => {
      const owner = subscriber(identity);
      const confirmationLink = { token: randomToken(), baseUrl };
      const rule = await createNotificationRule(deps(), {
        owner,
        request: body,
        now: nowIso(),
        confirmationLink,
      });
      return { status: 200, body: ruleBody(rule) };
    },
  );

export const handler = make(
  () => ({
    subscriptions: subscriptions(),
    limits: subscriptionLimits(),
    proActiveSweeps: bestEffortProActiveSweeps(),
    addressConfirmation: { confirmations: emailConfirmations(), email: emailSender() },
  }),
  httpPipeline,
);
