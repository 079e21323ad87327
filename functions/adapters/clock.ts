/**
 * The one place adapters and handlers read the time; the core only ever receives it as a value.
 * The local runner can move this clock forward (a fake clock for end-to-end tests of timed checks);
 * in Lambda the offset is always zero.
 */
let offsetMs = 0;

export function nowMs(): number {
  return Date.now() + offsetMs;
}

/** Current time as an ISO UTC string (with milliseconds; the core truncates where the spec says so). */
export function nowIso(): string {
  return new Date(nowMs()).toISOString();
}

/** Local runner only: shifts the clock by `deltaMs` (tests advance time instead of sleeping). */
export function advanceClock(deltaMs: number): void {
  offsetMs += deltaMs;
}

export function resetClock(): void {
  offsetMs = 0;
}

/**
 * Real Unix seconds, which the fake clock never moves: for what another party checks against its own
 * clock (the Standard Webhooks `webhook-timestamp` of a transmission), never for domain decisions.
 */
export function wallClockSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
