/**
 * Port of the rate-limit windows (functions/core/rate-limit.ts): a counter of requests per caller and
 * fixed window, shared by every container in AWS (functions/adapters/rate-limit-counter.ts, DynamoDB).
 */

export type RateWindow = "minute" | "hour" | "day";

/** One fixed window a request counts in: [startMs, endMs) of UTC time. */
export interface WindowSlot {
  window: RateWindow;
  limit: number;
  startMs: number;
  endMs: number;
}

export interface WindowTake {
  /** The slots that were already full; empty when the request was counted in every slot. */
  refused: WindowSlot[];
}

export interface RateLimitCounter {
  /**
   * Counts one request of `caller` in every slot, unless a slot is full: then the request counts in
   * none of them (a refused request uses no quota) and the full slots are returned. Never lets more
   * than `limit` requests into a slot, whatever the concurrency.
   */
  take(caller: string, slots: readonly WindowSlot[]): Promise<WindowTake>;
}
