/**
 * How long the local stack and its tests wait for something that should happen (an emulator answering,
 * a runner ready, a delivery made) before they call it failed. Every such wait polls and returns as
 * soon as the thing is there, so the budget never slows a start that works; it only decides when a
 * slow one counts as broken. TEST_TIME_FACTOR multiplies every budget: the default 3 lets a 2-core
 * machine shared with a second stack pass; CI or a slower machine sets a larger one, a fast one 1.
 */

const DEFAULT_FACTOR = 3;

/** The factor from TEST_TIME_FACTOR (a positive number), else the default; a bad value is refused. */
export function timeFactor(raw: string | undefined = process.env.TEST_TIME_FACTOR): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_FACTOR;
  const factor = Number(raw);
  if (!Number.isFinite(factor) || factor <= 0)
    throw new Error(`TEST_TIME_FACTOR must be a positive number, got ${JSON.stringify(raw)}`);
  return factor;
}

/** A budget of `ms` on a quiet machine, scaled by TEST_TIME_FACTOR. */
export const scaled = (ms: number): number => Math.round(ms * timeFactor());
