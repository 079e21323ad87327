/**
 * A forwarder's own customer endpoints, header values masked: where it finds the
 * GUID to put in NotifyTo of a Url rule. Other forwarders' endpoints never appear.
 */
import type { CustomerEndpoint } from "../notifications/index.ts";
import type { Page, PageRequest, SubscriptionRepository } from "../ports/notifications.ts";

export function listOwnCustomerEndpoints(
  deps: { subscriptions: SubscriptionRepository },
  input: { forwarderId: string; page: PageRequest },
): Promise<Page<CustomerEndpoint>> {
  return deps.subscriptions.listCustomerEndpoints(input.page, input.forwarderId);
}
