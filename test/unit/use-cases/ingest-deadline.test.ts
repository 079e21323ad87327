/**
 * Issue 11 point 10: ingest answers before its deadline. No attempt starts unless the reserve and
 * twice the slowest attempt still fit; what was stored is answered, the rest is a 409 with Applied and
 * Retry-After; a message is never stored without being answered "changed".
 */
import { describe, expect, it } from "vitest";
import { DeadlineReachedError, IngestInterruptedError } from "../../../functions/core/errors.ts";
import {
  DEADLINE_RESERVE_MS,
  ingestCarrierMessage,
} from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { ProblemError, toProblem } from "../../../functions/http/problems.ts";
import { AWB, BKD_TWO_LEGS, FWB, fsu, harness, T0 } from "./support.ts";

/** A budget that loses `perCall` ms each time it is read (each read is about one step of work). */
function clock(startMs: number, perCall = 0) {
  let left = startMs;
  return {
    timeLeftMs: () => {
      const now = left;
      left -= perCall;
      return now;
    },
    spend(ms: number) {
      left -= ms;
    },
  };
}

const ingest = (h: ReturnType<typeof harness>, body: string, timeLeftMs?: () => number) =>
  ingestCarrierMessage(h, { carrierPrefix: "020", contentType: "text/plain", body, now: T0, timeLeftMs });

describe("ingest deadline", () => {
  it("stores everything when time is ample, retrying lost races", async () => {
    const h = harness();
    h.routeMaps.failNextWrites(3);
    const applied = await ingest(h, `${BKD_TWO_LEGS}${FWB}`, clock(10_000).timeLeftMs);
    expect(applied.map((a) => a.changed)).toEqual([true, true]);
    expect(h.backoffs).toEqual([1, 2, 3]);
  });

  it("starts nothing with less than the reserve left: 409-able, nothing stored", async () => {
    const h = harness();
    const error = await ingest(h, BKD_TWO_LEGS, clock(DEADLINE_RESERVE_MS - 1).timeLeftMs).catch((e) => e);
    expect(error).toBeInstanceOf(IngestInterruptedError);
    expect((error as IngestInterruptedError).cause).toBeInstanceOf(DeadlineReachedError);
    expect((error as IngestInterruptedError).applied).toEqual([]);
    expect(h.routeMaps.operations.write ?? 0).toBe(0);
    expect(await h.routeMaps.get(AWB)).toBeNull();
  });

  it("stops between messages once the slowest attempt might not fit, answering what was stored", async () => {
    const h = harness();
    const budget = clock(DEADLINE_RESERVE_MS + 2_500);
    // Each attempt costs 1,000 ms: after the first, 2 x 1,000 + reserve no longer fits in what is left.
    const slow = { ...h, routeMaps: { ...h.routeMaps } };
    slow.routeMaps.write = async (change) => {
      budget.spend(1_000);
      return h.routeMaps.write(change);
    };
    const error = await ingest(
      slow,
      `${BKD_TWO_LEGS}${FWB}${fsu("RCS/13MAR0900/HAJ/T10")}`,
      budget.timeLeftMs,
    ).catch((e) => e);
    expect(error).toBeInstanceOf(IngestInterruptedError);
    const interrupted = error as IngestInterruptedError;
    expect(interrupted.cause).toBeInstanceOf(DeadlineReachedError);
    expect(interrupted.applied.map((a) => a.changed)).toEqual([true]);
    expect(interrupted.failedMessage).toBe(2);
    // Stored = answered: exactly the one change.
    expect(h.routeMaps.operations.write).toBe(1);
    expect((await h.routeMaps.get(AWB))?.version).toBe(1);

    const problem = toProblem(error) as ProblemError;
    expect(problem).toBeInstanceOf(ProblemError);
    expect(problem.status).toBe(409);
    expect(problem.headers["retry-after"]).toBe("1");
    expect(problem.toBody()).toMatchObject({
      Applied: [{ AwbNumber: "020-12345675", Changed: true, Events: ["RMP"] }],
      errors: [{ field: "message 2" }],
    });
  });

  it("answers lost races past the attempt limit with 409 and Retry-After too", async () => {
    const h = harness();
    h.routeMaps.failNextWrites(1_000);
    const error = await ingest(h, BKD_TWO_LEGS).catch((e) => e);
    const problem = toProblem(error) as ProblemError;
    expect(problem.status).toBe(409);
    expect(problem.headers["retry-after"]).toBe("1");
    expect(problem.toBody()).toMatchObject({ Applied: [] });
  });
});
