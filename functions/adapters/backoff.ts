/**
 * Jittered exponential backoff between optimistic-concurrency retries ("full jitter"), capped at
 * 250 ms: MAX_WRITE_ATTEMPTS waits then sleep at most ~5 s, inside an HTTP Lambda's 10 s.
 */
import type { ConflictBackoff } from "../core/ports/route-maps.ts";

export const jitteredBackoff: ConflictBackoff = (attempt) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(250, 10 * 2 ** attempt)));
