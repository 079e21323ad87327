/**
 * Support deletes a customer endpoint. While enabled Url rules of its forwarder
 * still send to it the delete is refused (409 naming them), unless `force`: then those rules are
 * switched off first (visible to the forwarder as Enabled false), and the endpoint goes.
 */
import { EndpointInUseError, SubscriptionNotFoundError } from "../errors.ts";
import { type CustomerEndpoint, rulesUsingEndpoint } from "../notifications/index.ts";
import { type NotificationRuleDeps, switchRule } from "./shared/notification-rules.ts";
import { allRulesOf } from "./shared/rule-duplicates.ts";

/** Switching a rule off never requests a ProActive sweep: the subscriptions are all it needs. */
export type DeleteCustomerEndpointDeps = Pick<NotificationRuleDeps, "subscriptions">;

export interface DeletedCustomerEndpoint {
  endpoint: CustomerEndpoint;
  /** Rules switched off by `force` (ids, ascending). */
  disabledRules: number[];
}

export async function deleteCustomerEndpoint(
  deps: DeleteCustomerEndpointDeps,
  input: { id: string; force: boolean; now: string },
): Promise<DeletedCustomerEndpoint> {
  const endpoint = await deps.subscriptions.getCustomerEndpoint(input.id);
  if (!endpoint) throw new SubscriptionNotFoundError("customer endpoint", input.id);
  const users = rulesUsingEndpoint(await allRulesOf(deps.subscriptions, endpoint.forwarderId), endpoint.id)
    .map((rule) => rule.id)
    .sort((a, b) => a - b);
  if (users.length > 0 && !input.force) throw new EndpointInUseError(endpoint.id, users);
  for (const id of users)
    await switchRule(deps, { forwarderId: endpoint.forwarderId, id, enabled: false, now: input.now });
  if (!(await deps.subscriptions.deleteCustomerEndpoint(endpoint)))
    throw new SubscriptionNotFoundError("customer endpoint", input.id);
  return { endpoint, disabledRules: users };
}
