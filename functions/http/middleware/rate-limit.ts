/**
 * Per-caller rate limits of every authenticated route (functions/core/rate-limit.ts): first the
 * container's token bucket (per second, with a burst; API Gateway's stage throttle caps the total),
 * then the minute, hour and day windows, counted in the RateLimits table shared by every container
 * (exact across the fleet). Over a limit: 429 problem+json whose detail names the window, with
 * Retry-After, `x-ratelimit-window` / `x-ratelimit-limit`, and the IETF draft's `RateLimit-Policy`
 * (every limit) and `RateLimit` (the one that refused). When the counter cannot be reached the
 * request is let through and the error logged: the limits protect the service, and an outage of the
 * counter must not take every route down with it. Each caller is held to its tier's limits
 * (RATE_LIMIT_TIERS / RATE_LIMIT_CALLER_TIERS; callers named nowhere: the tier "default", i.e.
 * RATE_LIMIT_PER_*), and the 429 names the tier. The tiers, the buckets and the counter come through
 * the route's `make(deps)` (the pipeline's deps, functions/wiring.ts); they are resolved on the first
 * request, so a malformed RATE_LIMIT_* answers 500 with the variable's name in the log until it is fixed.
 */
import { nowMs } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import type { Identity } from "../../core/identity.ts";
import type { RateLimitCounter } from "../../core/ports/rate-limits.ts";
import {
  type RateDecision,
  type RateLimitConfig,
  type RateLimiter,
  type RateLimitTier,
  type RateLimitTiers,
  tierFor,
  WINDOW_MS,
  type WindowSlot,
  windowRefusal,
  windowSlots,
} from "../../core/rate-limit.ts";
import { ProblemError } from "../problems.ts";
import { type GatewayMiddleware, stateOf } from "../request.ts";

/** What the middleware holds every caller to, and where it counts (functions/wiring.ts: httpPipeline). */
export interface RateLimitDeps {
  /** The deployment's limits and tiers (RATE_LIMIT_*, validated in functions/adapters/config.ts). */
  tiers: RateLimitTiers;
  /** The per-second buckets of this container, shared by every route of the bundle. */
  limiter: RateLimiter;
  /** The minute, hour and day windows, counted across containers (the RateLimits table). */
  counter: RateLimitCounter;
}

function callerKey(identity: Identity): string {
  if (identity.role === "forwarder") return `forwarder:${identity.forwarderId}`;
  if (identity.role === "carrier") return `carrier:${identity.carrierPrefix}`;
  return `support:${identity.subject}`;
}

/** `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers): every limit a caller is held to. */
export function rateLimitPolicy(limits: RateLimitConfig): string {
  const second = `"second";q=${limits.burst};w=${Math.max(1, Math.ceil(limits.burst / limits.ratePerSecond))}`;
  const windows = (["minute", "hour", "day"] as const).map((window) => {
    const limit = window === "minute" ? limits.perMinute : window === "hour" ? limits.perHour : limits.perDay;
    return `"${window}";q=${limit};w=${WINDOW_MS[window] / 1000}`;
  });
  return [second, ...windows].join(", ");
}

const WINDOW_NAMES = { second: "per-second (burst)", minute: "per-minute", hour: "per-hour", day: "per-day" };

function tooManyRequests(
  decision: Exclude<RateDecision, { allowed: true }>,
  tier: RateLimitTier,
): ProblemError {
  const retry = String(decision.retryAfterSeconds);
  return new ProblemError(
    429,
    "rate-limited",
    `Too many requests: the ${WINDOW_NAMES[decision.window]} limit of ${decision.limit} requests of tier ${tier.name} is used up; retry after ${retry} seconds.`,
    [],
    {
      "retry-after": retry,
      "x-ratelimit-window": decision.window,
      "x-ratelimit-limit": String(decision.limit),
      "ratelimit-policy": rateLimitPolicy(tier.config),
      ratelimit: `"${decision.window}";r=0;t=${retry}`,
    },
  );
}

export function rateLimit(deps: () => RateLimitDeps): GatewayMiddleware {
  return {
    before: async (request) => {
      const { identity } = stateOf(request.event);
      if (!identity) return;
      const { tiers, limiter, counter } = deps();
      const caller = callerKey(identity);
      const tier = tierFor(tiers, caller);
      const now = nowMs();
      const burst = limiter.take(caller, now, tier.config);
      if (!burst.allowed) throw tooManyRequests(burst, tier);
      let refused: WindowSlot[];
      try {
        ({ refused } = await counter.take(caller, windowSlots(tier.config, now)));
      } catch (error) {
        logger.error("rate-limit counter unavailable: request let through", {
          caller,
          error: error instanceof Error ? error : String(error),
        });
        return;
      }
      const refusal = windowRefusal(refused, now);
      if (refusal && !refusal.allowed) throw tooManyRequests(refusal, tier);
    },
  };
}
