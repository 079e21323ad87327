/** GET /ffw/service/routemap/eventconfignotifier?CurrentPage=&PageSize=: the caller's rules, paged. */
import { listNotificationRules } from "../../core/use-cases/list-notification-rules.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { NOTIFICATION_ROUTES } from "../../http/routes/notifications.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import { pagedBody } from "../../http/schemas/paging.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = NOTIFICATION_ROUTES["list-notification-rules"];

export const make = (deps: () => DepsOf<typeof listNotificationRules>, pipeline?: Pipeline) =>
  httpRoute("list-notification-rules", { query: api.query }, pipeline).handle(
    async ({ identity, query }) => ({
      status: 200,
      body: pagedBody(await listNotificationRules(deps(), identity.forwarderId, query), query, ruleBody),
    }),
  );

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
