/**
 * Per-caller rate limit of this container (API Gateway's stage throttle caps the total): 429 with
 * Retry-After once the caller's bucket is empty. Approximate across containers by design: exact limits
 * would cost a table write on every request.
 */
import { nowMs } from "../../adapters/clock.ts";
import type { Identity } from "../../core/identity.ts";
import { RateLimiter, rateLimitConfigFrom } from "../../core/rate-limit.ts";
import { ProblemError } from "../problems.ts";
import { type GatewayMiddleware, stateOf } from "../request.ts";

/** One limiter per container, shared by every route of the bundle. */
const rateLimiter = new RateLimiter(rateLimitConfigFrom(process.env));

function callerKey(identity: Identity): string {
  if (identity.role === "forwarder") return `forwarder:${identity.forwarderId}`;
  if (identity.role === "carrier") return `carrier:${identity.carrierPrefix}`;
  return `support:${identity.subject}`;
}

export function rateLimit(): GatewayMiddleware {
  return {
    before: (request) => {
      const { identity } = stateOf(request.event);
      if (!identity) return;
      const decision = rateLimiter.take(callerKey(identity), nowMs());
      if (!decision.allowed) {
        throw new ProblemError(
          429,
          "rate-limited",
          "Too many requests; retry after the given number of seconds.",
          [],
          { "retry-after": String(decision.retryAfterSeconds) },
        );
      }
    },
  };
}
