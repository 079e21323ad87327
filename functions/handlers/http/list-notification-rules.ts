/** GET /ffw/service/routemap/eventconfignotifier?CurrentPage=&PageSize=: the caller's rules, paged. */
import { listNotificationRules } from "../../core/use-cases/list-notification-rules.ts";
import { type DepsOf, httpRoute } from "../../http/pipeline.ts";
import { ruleBody } from "../../http/schemas/notifications.ts";
import { PageRequestSchema, pagedBody } from "../../http/schemas/paging.ts";
import { subscriptions } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof listNotificationRules>) =>
  httpRoute("list-notification-rules", { query: PageRequestSchema }).handle(async ({ identity, query }) => ({
    status: 200,
    body: pagedBody(await listNotificationRules(deps(), identity.forwarderId, query), query, ruleBody),
  }));

export const handler = make(() => ({ subscriptions: subscriptions() }));
