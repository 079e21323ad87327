/** GET /ffw/service/routemap/eventconfignotifier?CurrentPage=&PageSize=: the caller's rules, paged. */
import { listNotificationRules } from "../../core/use-cases/list-notification-rules.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import { PageRequestSchema, pagedBody } from "../../http/schemas/paging.ts";
import { httpPipeline, subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof listNotificationRules>, pipeline?: Pipeline) =>
  httpRoute("list-notification-rules", { query: PageRequestSchema }, pipeline).handle(
    async ({ identity, query }) => ({
      status: 200,
      body: pagedBody(await listNotificationRules(deps(), identity.forwarderId, query), query, ruleBody),
    }),
  );

export const handler = make(() => ({ subscriptions: subscriptions() }), httpPipeline);
