/**
 * Customer endpoints of Url-channel rules (DESIGN.md section 7): support registers the address and
 * one header for a forwarder; the GUID it gets back is what that forwarder puts in NotifyTo.
 */

import {
  type CustomerEndpoint,
  type CustomerEndpointRequest,
  customerEndpointFromRequest,
} from "../notifications/index.ts";
import type { SubscriptionRepository, TargetChecker } from "../ports/notifications.ts";
import { ensureTargetAllowed } from "./shared/webhooks.ts";

export interface CustomerEndpointDeps {
  subscriptions: SubscriptionRepository;
  targets: TargetChecker;
}

/** `id` is a fresh random GUID from the caller (the core has no randomness). */
export async function registerCustomerEndpoint(
  deps: CustomerEndpointDeps,
  input: { request: CustomerEndpointRequest; id: string; now: string },
): Promise<CustomerEndpoint> {
  await ensureTargetAllowed(deps.targets, input.request.Url);
  const endpoint = customerEndpointFromRequest(input.request, { id: input.id, now: input.now });
  await deps.subscriptions.putCustomerEndpoint(endpoint);
  return endpoint;
}
