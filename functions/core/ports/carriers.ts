/** Ports of carrier settings and the carrier gateway. */

import type { AwbId } from "../carrier-messages/types.ts";
import type { CarrierSettings } from "../carriers.ts";
import type { StatusRequest, StatusRequestFormat } from "../status-requests.ts";
import type { Page, PageRequest } from "./notifications.ts";

/** Participating-carrier settings (carrier repository). */
export interface CarrierDirectory {
  get(prefix: string): Promise<CarrierSettings | null>;
}

/** The carrier settings store: read, and the support API's whole-record write. */
export interface CarrierRepository extends CarrierDirectory {
  put(carrier: CarrierSettings): Promise<void>;
}

/**
 * The collapse window of status requests: one claim per (carrier, AWB), a conditional write
 * that succeeds only when no earlier claim is still running at `now`.
 */
export interface StatusRequestWindow {
  /** `claimed`: this request is the window's; otherwise the id of the request it collapses into. */
  claim(input: {
    carrierPrefix: string;
    awb: AwbId;
    requestId: string;
    now: string;
    until: string;
  }): Promise<{ claimed: true } | { claimed: false; requestId: string }>;
}

/** A status request waiting in a carrier's pull queue (channel "Pull"), as rendered for it. */
export interface PulledStatusRequest {
  request: StatusRequest;
  format: StatusRequestFormat;
  contentType: string;
  body: string;
  /** When the delivery put it in the queue. */
  availableAt: string;
}

/** The per-carrier pull queue of status requests: oldest first, removed by the carrier's ack. */
export interface CarrierRequestInbox {
  /** Idempotent on the request id (a redelivered job puts the same item). */
  put(item: PulledStatusRequest): Promise<void>;
  list(carrierPrefix: string, page: PageRequest): Promise<Page<PulledStatusRequest>>;
  /** Removes the request; false when the carrier has no such request (another carrier's included). */
  ack(carrierPrefix: string, requestId: string): Promise<boolean>;
}

/** One XTD request in a forwarder's usage ledger. */
export interface UsageEntry {
  forwarderId: string;
  /** `YYYY-MM` (UTC) */
  month: string;
  at: string;
  awb: AwbId;
  /** The status request it created, or the one it collapsed into. */
  requestId: string;
  /** It collapsed into an earlier request for the AWB (the carrier was not asked again). */
  collapsed: boolean;
}

/** The XTD usage ledger: an atomic counter per forwarder and month, plus the entries. */
export interface UsageLedger {
  /**
   * Adds the entry and counts it, in one transaction. Throws WriteConflictError when that lost to a
   * concurrent record of the same count (nothing was written): record it again.
   */
  record(entry: UsageEntry): Promise<void>;
  /** The forwarder's count of the month and its entries (oldest first). */
  forForwarder(
    forwarderId: string,
    month: string,
    page: PageRequest,
  ): Promise<{ count: number; entries: Page<UsageEntry> }>;
  /** Every forwarder's count of the month (by forwarder id). */
  forMonth(month: string): Promise<Array<{ forwarderId: string; count: number }>>;
}
