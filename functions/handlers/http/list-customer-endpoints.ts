/** GET /support/customer-endpoints?CurrentPage=&PageSize=: registered endpoints, header values masked. */
import { listCustomerEndpoints } from "../../core/use-cases/list-customer-endpoints.ts";
import { httpHandler } from "./kit.ts";
import { subscriptions } from "./notification-deps.ts";
import { pageFromQuery } from "./notification-problems.ts";
import { customerEndpointBody, pagedBody } from "./notification-schemas.ts";

export const handler = httpHandler("list-customer-endpoints", {}, async ({ query }) => {
  const page = pageFromQuery(query);
  const endpoints = await listCustomerEndpoints({ subscriptions: subscriptions() }, page);
  return { status: 200, body: pagedBody(endpoints, page, (endpoint) => customerEndpointBody(endpoint)) };
});
