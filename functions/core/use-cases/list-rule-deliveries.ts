/** The deliveries and attempt log of one of the caller's rules, paged. */
import type { DeliveryRecord, Page, PageRequest } from "../ports/notifications.ts";
import { type DeliveryListDeps, listSubscriptionDeliveries } from "./shared/deliveries.ts";

export function listRuleDeliveries(
  deps: DeliveryListDeps,
  input: { forwarderId: string; id: number; page: PageRequest },
): Promise<Page<DeliveryRecord>> {
  const { forwarderId, id, page } = input;
  return listSubscriptionDeliveries(deps, { subscription: { forwarderId, kind: "rule", id }, page });
}
