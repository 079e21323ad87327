/**
 * Token buckets per caller (forwarder id, carrier prefix or support subject). Pure: the caller passes
 * the time. Each bucket refills `ratePerSecond` tokens per second up to `burst`.
 */
import { RATE_LIMIT_DEFAULTS, SETTINGS_ENV } from "../contracts/settings.ts";

export interface RateLimitConfig {
  ratePerSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly config: RateLimitConfig,
    /** Buckets kept at most; the least recently used are dropped (memory stays bounded). */
    private readonly maxCallers = 10_000,
  ) {}

  take(caller: string, nowMs: number): RateDecision {
    const { ratePerSecond, burst } = this.config;
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
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)) };
  }
}

/**
 * Defaults (documented in docs/decisions.md); env RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST override.
 * Names and defaults are shared with the stack (functions/contracts/settings.ts).
 */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { ...RATE_LIMIT_DEFAULTS };

export function rateLimitConfigFrom(env: Record<string, string | undefined>): RateLimitConfig {
  const number = (value: string | undefined, fallback: number) => {
    const parsed = Number(value);
    return value !== undefined && value !== "" && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
  };
  return {
    ratePerSecond: number(env[SETTINGS_ENV.rateLimitPerSecond], DEFAULT_RATE_LIMIT.ratePerSecond),
    burst: number(env[SETTINGS_ENV.rateLimitBurst], DEFAULT_RATE_LIMIT.burst),
  };
}
