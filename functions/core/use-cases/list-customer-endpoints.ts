/** Every registered customer endpoint, paged (support only). */
import type { CustomerEndpoint } from "../notifications/index.ts";
import type { Page, PageRequest, SubscriptionRepository } from "../ports/notifications.ts";

export function listCustomerEndpoints(
  deps: { subscriptions: SubscriptionRepository },
  page: PageRequest,
): Promise<Page<CustomerEndpoint>> {
  return deps.subscriptions.listCustomerEndpoints(page);
}
