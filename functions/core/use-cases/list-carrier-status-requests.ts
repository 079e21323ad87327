/**
 * GET /support/carriers/{prefix}/requests: the carrier's status requests (newest first, kept 30 days
 * like every delivery) with their delivery state and attempt log.
 */
import { CarrierNotFoundError } from "../errors.ts";
import type { CarrierDirectory } from "../ports/carriers.ts";
import type { DeliveryRecord, DeliveryRepository, Page, PageRequest } from "../ports/notifications.ts";
import { carrierLogId, STATUS_REQUEST_KIND } from "../status-requests.ts";

export interface ListCarrierStatusRequestsDeps {
  carriers: CarrierDirectory;
  deliveries: DeliveryRepository;
}

export async function listCarrierStatusRequests(
  deps: ListCarrierStatusRequestsDeps,
  input: { prefix: string; page: PageRequest },
): Promise<Page<DeliveryRecord>> {
  if (!(await deps.carriers.get(input.prefix))) throw new CarrierNotFoundError(input.prefix);
  return deps.deliveries.listForSubscription(STATUS_REQUEST_KIND, carrierLogId(input.prefix), input.page);
}
