/** GET /ffw/service/routemap/eventconfignotifier?CurrentPage=&PageSize=: the caller's rules, paged. */
import { listNotificationRules } from "../../core/use-cases/list-notification-rules.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { pageFromQuery, subscriber } from "./notification-problems.ts";
import { pagedBody, ruleBody } from "./notification-schemas.ts";

export const handler = httpHandler("list-notification-rules", {}, async ({ identity, query }) => {
  const { forwarderId } = subscriber(identity);
  const page = pageFromQuery(query);
  const rules = await listNotificationRules({ subscriptions: subscriptions() }, forwarderId, page);
  return { status: 200, body: pagedBody(rules, page, ruleBody) };
});
