/**
 * Faults the local runner can inject into a handler, for tests that prove what a crash loses (nothing)
 * and what it repeats (nothing sent twice). Local only: the deployed handlers have no such switch.
 *
 * LOCAL_FAULT_CRASH_ONCE=<handler>[,<handler>...] (e.g. deliver-job): the first invocation of each named
 * handler processes only the first record of its batch and then throws, as a Lambda that crashed
 * mid-batch would; every later invocation runs normally.
 */
import type { LambdaHandler } from "./lambda.ts";

const CRASH_ONCE_ENV = "LOCAL_FAULT_CRASH_ONCE";

/** The handler, crashing once after the first record of its first batch. */
export function crashOnceAfterFirstRecord(handler: LambdaHandler): LambdaHandler {
  let armed = true;
  return async (event, context) => {
    if (!armed) return handler(event, context);
    armed = false;
    await handler({ ...event, Records: event.Records.slice(0, 1) }, context);
    throw new Error(`simulated crash after the first record (${CRASH_ONCE_ENV})`);
  };
}

/** The handler with the faults the environment names for it, or unchanged. */
export function withLocalFaults(
  name: string,
  handler: LambdaHandler,
  env: NodeJS.ProcessEnv = process.env,
): LambdaHandler {
  const crashOnce = (env[CRASH_ONCE_ENV] ?? "").split(",").map((entry) => entry.trim());
  return crashOnce.includes(name) ? crashOnceAfterFirstRecord(handler) : handler;
}
