/**
 * GET /carrier/requests: the calling carrier's pull queue of status requests (channel "Pull"), oldest
 * first; each stays until the carrier acks it (or 30 days pass).
 */
import type { CarrierRequestInbox, PulledStatusRequest } from "../ports/carriers.ts";
import type { Page, PageRequest } from "../ports/notifications.ts";

export interface ListCarrierRequestsDeps {
  carrierInbox: CarrierRequestInbox;
}

export function listCarrierRequests(
  deps: ListCarrierRequestsDeps,
  input: { carrierPrefix: string; page: PageRequest },
): Promise<Page<PulledStatusRequest>> {
  return deps.carrierInbox.list(input.carrierPrefix, input.page);
}
