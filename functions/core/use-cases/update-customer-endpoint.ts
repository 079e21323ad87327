/**
 * Support replaces a customer endpoint's Url and header: the usual reason is
 * rotating the header value. The endpoint keeps its GUID and forwarder, so the Url rules naming it
 * carry on; the next delivery reads the new values from the store.
 */
import { InvalidFieldsError, SubscriptionNotFoundError } from "../errors.ts";
import {
  type CustomerEndpoint,
  type CustomerEndpointUpdate,
  updatedCustomerEndpoint,
} from "../notifications/index.ts";
import type { SubscriptionRepository, TargetChecker } from "../ports/notifications.ts";
import { ensureTargetAllowed } from "./shared/webhooks.ts";

export interface UpdateCustomerEndpointDeps {
  subscriptions: SubscriptionRepository;
  targets: TargetChecker;
}

export async function updateCustomerEndpoint(
  deps: UpdateCustomerEndpointDeps,
  input: { id: string; update: CustomerEndpointUpdate; now: string },
): Promise<CustomerEndpoint> {
  const stored = await deps.subscriptions.getCustomerEndpoint(input.id);
  if (!stored) throw new SubscriptionNotFoundError("customer endpoint", input.id);
  const updated = updatedCustomerEndpoint(stored, input.update, input.now);
  if (!updated.ok) throw new InvalidFieldsError(updated.errors);
  await ensureTargetAllowed(deps.targets, updated.endpoint.url);
  if (!(await deps.subscriptions.updateCustomerEndpoint(updated.endpoint)))
    throw new SubscriptionNotFoundError("customer endpoint", input.id);
  return updated.endpoint;
}
