/** Port of the raw messages kept for support: the body of every receipt that changed a route map. */
import type { ReceiptChannel } from "../route-map/provenance.ts";

/** A received body (or ONE Record document) as it came, under its receipt id. */
export interface RawMessage {
  carrierPrefix: string;
  receiptId: string;
  channel: ReceiptChannel;
  /** ISO UTC. */
  receivedAt: string;
  contentType: string;
  body: string;
  /** Where it was fetched from (a ONE Record document's IRI); absent for a body sent to us. */
  fetchedFrom?: string;
}

/** Raw messages, each kept 30 days from its receipt (the store's retention). */
export interface RawMessageStore {
  /** Keeps the message; the same receipt again (a retried request) is the same item. */
  put(message: RawMessage): Promise<void>;
  /** The message of a carrier's receipt, null when unknown or expired. */
  get(carrierPrefix: string, receiptId: string): Promise<RawMessage | null>;
}
