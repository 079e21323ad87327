/**
 * Per-caller rate limits (forwarder id, carrier prefix or support subject). Pure: the caller passes the
 * time.
 *
 * - A token bucket per caller, in the container: refills `ratePerSecond` tokens per second up to
 *   `burst` (the per-second limit; API Gateway's stage throttle caps the total).
 * - Fixed UTC windows per caller (minute, hour, day), as carriers' and tracking platforms' published
 *   tiers count them: the windows a request falls in are `windowSlots`, counted by a RateLimitCounter
 *   (functions/core/ports/rate-limits.ts) shared by every container; `InProcessWindowCounter` is the
 *   one-process counter used where no shared table is configured.
 */
import { DEFAULT_TIER, type RateLimitTierTable } from "../contracts/rate-limit-tiers.ts";
import { RATE_LIMIT_DEFAULTS } from "../contracts/settings.ts";
import type { RateLimitCounter, RateWindow, WindowSlot, WindowTake } from "./ports/rate-limits.ts";

// The port defines the windows it counts in; the limiter's users import them from here too.
export type { RateWindow, WindowSlot } from "./ports/rate-limits.ts";

export const WINDOW_MS: Readonly<Record<RateWindow, number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

export interface RateLimitConfig {
  ratePerSecond: number;
  burst: number;
  perMinute: number;
  perHour: number;
  perDay: number;
}

export type RateDecision =
  | { allowed: true }
  | {
      allowed: false;
      /** The limit that refused: the per-second bucket or the window whose reset comes last. */
      window: "second" | RateWindow;
      limit: number;
      /** Seconds of the window ("second": the bucket's refill period for the whole burst). */
      windowSeconds: number;
      retryAfterSeconds: number;
    };

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly config: Pick<RateLimitConfig, "ratePerSecond" | "burst">,
    /** Buckets kept at most; the least recently used are dropped (memory stays bounded). */
    private readonly maxCallers = 10_000,
  ) {}

  /** `config` overrides the limiter's own (the caller's tier). */
  take(
    caller: string,
    nowMs: number,
    config: Pick<RateLimitConfig, "ratePerSecond" | "burst"> = this.config,
  ): RateDecision {
    const { ratePerSecond, burst } = config;
    const bucket = this.buckets.get(caller) ?? { tokens: burst, updatedMs: nowMs };
    const elapsedSeconds = Math.max(0, nowMs - bucket.updatedMs) / 1000;
    bucket.tokens = Math.min(burst, bucket.tokens + elapsedSeconds * ratePerSecond);
    bucket.updatedMs = nowMs;
    // Re-insert so Map order is least-recently-used first.
    this.buckets.delete(caller);
    this.buckets.set(caller, bucket);
    if (this.buckets.size > this.maxCallers) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return {
      allowed: false,
      window: "second",
      limit: burst,
      windowSeconds: Math.max(1, Math.ceil(burst / ratePerSecond)),
      retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)),
    };
  }
}

/** The minute, hour and day windows (UTC) a request at `nowMs` counts in, with their limits. */
export function windowSlots(config: RateLimitConfig, nowMs: number): WindowSlot[] {
  const limits: Array<[RateWindow, number]> = [
    ["minute", config.perMinute],
    ["hour", config.perHour],
    ["day", config.perDay],
  ];
  return limits.map(([window, limit]) => {
    const startMs = Math.floor(nowMs / WINDOW_MS[window]) * WINDOW_MS[window];
    return { window, limit, startMs, endMs: startMs + WINDOW_MS[window] };
  });
}

/**
 * The answer for refused windows: the caller may retry once every refused window has reset, so the
 * window named is the one that resets last (null when nothing was refused).
 */
export function windowRefusal(refused: readonly WindowSlot[], nowMs: number): RateDecision | null {
  // On a tie (10:59:30: the minute and the hour both reset at 11:00) the longer window is named.
  const last = [...refused].sort((a, b) => b.endMs - a.endMs || WINDOW_MS[b.window] - WINDOW_MS[a.window])[0];
  if (!last) return null;
  return {
    allowed: false,
    window: last.window,
    limit: last.limit,
    windowSeconds: WINDOW_MS[last.window] / 1000,
    retryAfterSeconds: Math.max(1, Math.ceil((last.endMs - nowMs) / 1000)),
  };
}

/** A per-window counter key: caller, window and the window's start. */
export const windowKey = (caller: string, slot: WindowSlot) => `${caller}#${slot.window}#${slot.startMs}`;

/**
 * Counts in this process (exact where one process serves every request, e.g. without a shared table).
 * All or nothing, like the shared counter: a refused request counts in no window. Counters of windows
 * that have ended are dropped as time passes, so memory stays bounded by the active callers.
 */
export class InProcessWindowCounter implements RateLimitCounter {
  private readonly counts = new Map<string, { count: number; endMs: number }>();

  constructor(private readonly maxKeys = 30_000) {}

  async take(caller: string, slots: readonly WindowSlot[]): Promise<WindowTake> {
    const current = slots.map((slot) => ({ slot, key: windowKey(caller, slot) }));
    const refused = current
      .filter(({ slot, key }) => (this.counts.get(key)?.count ?? 0) >= slot.limit)
      .map(({ slot }) => slot);
    if (refused.length > 0) return { refused };
    for (const { slot, key } of current) {
      const entry = this.counts.get(key) ?? { count: 0, endMs: slot.endMs };
      entry.count += 1;
      this.counts.set(key, entry);
    }
    this.prune(Math.min(...slots.map((slot) => slot.startMs)));
    return { refused: [] };
  }

  private prune(nowMs: number): void {
    if (this.counts.size <= this.maxKeys) return;
    for (const [key, entry] of this.counts) if (entry.endMs <= nowMs) this.counts.delete(key);
    // Still too many live callers: drop the oldest counters (their callers get a fresh window).
    for (const key of this.counts.keys()) {
      if (this.counts.size <= this.maxKeys) break;
      this.counts.delete(key);
    }
  }
}

/**
 * Defaults (documented in docs/decisions.md); RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST /
 * RATE_LIMIT_PER_MINUTE / RATE_LIMIT_PER_HOUR / RATE_LIMIT_PER_DAY override them
 * (functions/adapters/config.ts reads them). Names and defaults are shared with the stack
 * (functions/contracts/settings.ts).
 */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { ...RATE_LIMIT_DEFAULTS };

/** A caller's tier: its name and limits (functions/contracts/rate-limit-tiers.ts). */
export interface RateLimitTier {
  name: string;
  config: RateLimitConfig;
}

/** The deployment's tiers: the default limits, the named tiers, and which caller is in which. */
export interface RateLimitTiers {
  defaults: RateLimitConfig;
  named: ReadonlyMap<string, RateLimitConfig>;
  callers: ReadonlyMap<string, string>;
}

/**
 * The deployment's tiers from its default limits (RATE_LIMIT_PER_*) and its validated tier table
 * (RATE_LIMIT_TIERS with RATE_LIMIT_CALLER_TIERS, functions/contracts/rate-limit-tiers.ts).
 */
export function rateLimitTiersOf(defaults: RateLimitConfig, table: RateLimitTierTable): RateLimitTiers {
  const named = new Map<string, RateLimitConfig>(
    Object.entries(table.tiers).map(([name, { perSecond, burst, perMinute, perHour, perDay }]) => [
      name,
      { ratePerSecond: perSecond, burst, perMinute, perHour, perDay },
    ]),
  );
  return { defaults, named, callers: new Map(Object.entries(table.callerTiers)) };
}

/** The tier a caller (forwarder:<id>, carrier:<prefix>, support:<subject>) is held to. */
export function tierFor(tiers: RateLimitTiers, caller: string): RateLimitTier {
  const name = tiers.callers.get(caller) ?? DEFAULT_TIER;
  return { name, config: tiers.named.get(name) ?? tiers.defaults };
}
