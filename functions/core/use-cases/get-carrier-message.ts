/**
 * GET /support/carriers/{prefix}/messages/{id}: the raw message a receipt kept (the ReceiptId a route
 * map's history names for a change or a status message), as it came: for support, when a forwarder
 * asks where an actual came from. 404 when none is kept (another carrier's, or past its 30 days).
 */
import { RawMessageNotFoundError } from "../errors.ts";
import type { RawMessage, RawMessageStore } from "../ports/raw-messages.ts";

export interface GetCarrierMessageDeps {
  rawMessages: RawMessageStore;
}

export async function getCarrierMessage(
  deps: GetCarrierMessageDeps,
  input: { carrierPrefix: string; receiptId: string },
): Promise<RawMessage> {
  const message = await deps.rawMessages.get(input.carrierPrefix, input.receiptId);
  if (!message) throw new RawMessageNotFoundError(input.carrierPrefix, input.receiptId);
  return message;
}
