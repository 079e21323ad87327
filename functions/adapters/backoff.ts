/** Jittered exponential backoff between optimistic-concurrency retries ("full jitter"). */
import type { ConflictBackoff } from "../core/use-cases/ports.ts";

export const jitteredBackoff: ConflictBackoff = (attempt) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(400, 10 * 2 ** attempt)));
