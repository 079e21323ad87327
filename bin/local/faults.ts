/**
 * Faults the local runner can inject into a handler, for tests that prove what a crash loses (nothing)
 * and what it repeats (nothing sent twice). Local only: the deployed handlers have no such switch.
 *
 * LOCAL_FAULT_CRASH_ONCE=<handler>[,<handler>...] (e.g. deliver-job): the first invocation of each named
 * handler processes only the first record of its batch and then throws, as a Lambda that crashed
 * mid-batch would; every later invocation runs normally.
 *
 * LOCAL_FAULT_TIME_LEFT_MS=<handler>=<ms>[,...] (e.g. trigger-route-map=3000): each invocation of the
 * named handler has only that many milliseconds left (its context's remaining time), as on a machine
 * so loaded that most of a function's time is gone: what does not answer by then times out as in
 * Lambda (middy's TimeoutError), and a handler that watches its deadline must answer before it.
 */
import type { Context } from "aws-lambda";
import type { LambdaHandler } from "./lambda.ts";

const CRASH_ONCE_ENV = "LOCAL_FAULT_CRASH_ONCE";
const TIME_LEFT_ENV = "LOCAL_FAULT_TIME_LEFT_MS";

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

/** The handler, each invocation with at most `ms` milliseconds left in its context. */
export function withTimeLeft(handler: LambdaHandler, ms: number): LambdaHandler {
  return async (event, context) => {
    const deadline = Date.now() + ms;
    const remaining = () => Math.max(0, Math.min(context.getRemainingTimeInMillis(), deadline - Date.now()));
    const shortened: Context = { ...context, getRemainingTimeInMillis: remaining };
    return handler(event, shortened);
  };
}

/** The handler with the faults the environment names for it, or unchanged. */
export function withLocalFaults(
  name: string,
  handler: LambdaHandler,
  env: NodeJS.ProcessEnv = process.env,
): LambdaHandler {
  const crashOnce = (env[CRASH_ONCE_ENV] ?? "").split(",").map((entry) => entry.trim());
  const timeLeft = (env[TIME_LEFT_ENV] ?? "")
    .split(",")
    .map((entry) => entry.trim().split("="))
    .find(([handlerName]) => handlerName === name)?.[1];
  let faulty = crashOnce.includes(name) ? crashOnceAfterFirstRecord(handler) : handler;
  if (timeLeft !== undefined) {
    const ms = Number(timeLeft);
    if (!Number.isInteger(ms) || ms <= 0)
      throw new Error(`${TIME_LEFT_ENV}: ${name} needs a whole number of milliseconds, got ${timeLeft}`);
    faulty = withTimeLeft(faulty, ms);
  }
  return faulty;
}
