/**
 * POST /carrier/requests/{id}/ack: the carrier took the status request; it leaves the pull queue. An
 * unknown id, an acked one and another carrier's answer alike: 404.
 */
import { StatusRequestNotFoundError } from "../errors.ts";
import type { CarrierRequestInbox } from "../ports/carriers.ts";

export interface AckCarrierRequestDeps {
  carrierInbox: CarrierRequestInbox;
}

export async function ackCarrierRequest(
  deps: AckCarrierRequestDeps,
  input: { carrierPrefix: string; requestId: string },
): Promise<void> {
  if (!(await deps.carrierInbox.ack(input.carrierPrefix, input.requestId)))
    throw new StatusRequestNotFoundError(input.requestId);
}
