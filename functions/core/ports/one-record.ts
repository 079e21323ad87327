/** Reading a carrier's ONE Record server: GET of a LogisticsEvent or a LogisticsObject's events. */

import type { OneRecordSubscription } from "../one-record-server/subscriptions.ts";

export type PublisherFetchResult =
  /** A 2xx answer and its body (JSON-LD). */
  | { kind: "ok"; body: string }
  /** The SSRF guard refused the address: nothing was sent. */
  | { kind: "refused"; reason: string }
  /** Unreachable, too slow, an answer too large, or a non-2xx status (`status`, when it answered). */
  | { kind: "failed"; status: number | null; reason: string };

export interface OneRecordPublisher {
  /** GET `url` with `Accept: application/ld+json` and, when given, `Authorization: Bearer <token>`. */
  fetch(url: string, token: string | null): Promise<PublisherFetchResult>;
}

/** ONE Record subscriptions to our logistics objects (the Subscriptions table, their own items). */
export interface OneRecordSubscriptionStore {
  /** Stores a new subscription under the next id (increasing, never reused). */
  insert(draft: Omit<OneRecordSubscription, "id">): Promise<OneRecordSubscription>;
  get(id: number): Promise<OneRecordSubscription | null>;
  /** Marks it revoked at `at` and drops its match-index items; null when it does not exist. */
  revoke(id: number, at: string): Promise<OneRecordSubscription | null>;
  /** Every subscription stored under any of these index keys (one Query per key). */
  findCandidates(indexKeys: readonly string[]): Promise<OneRecordSubscription[]>;
}
