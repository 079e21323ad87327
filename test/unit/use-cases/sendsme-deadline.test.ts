/**
 * sendsme under contention and a short deadline, over memory adapters: a forwarder that already reads
 * the AWB records its XTD trigger without a new version of the route map; no step starts without time
 * for it and the answer (DeadlineReachedError: 409 with Retry-After); the ledger entry is the last
 * step, retried after a lost race, so the ledger counts exactly the requests that were answered.
 */
import { describe, expect, it } from "vitest";
import { DeadlineReachedError, WriteConflictError } from "../../../functions/core/errors.ts";
import { ANSWER_RESERVE_MS } from "../../../functions/core/use-cases/shared/deadline.ts";
import { triggerRouteMap } from "../../../functions/core/use-cases/trigger-route-map.ts";
import { ProblemError, toProblem } from "../../../functions/http/problems.ts";
import { AWB, BKD_TWO_LEGS, carrier020, FWB, harness, OTHER, T0 } from "./support.ts";

const xtd = (h: ReturnType<typeof harness>, timeLeftMs?: () => number) =>
  triggerRouteMap(h, {
    reader: OTHER,
    awb: AWB,
    agentCode: OTHER.agentCode,
    agentCass: OTHER.agentCass,
    isXtd: true,
    now: T0,
    ...(timeLeftMs ? { timeLeftMs } : {}),
  });

async function bookedAwb() {
  const h = harness();
  carrier020(h);
  await h.imp(BKD_TWO_LEGS, T0);
  await h.imp(FWB, T0);
  return h;
}

const ledgerCount = async (h: ReturnType<typeof harness>) =>
  (await h.statusRequests.usage.forForwarder(OTHER.forwarderId, T0.slice(0, 7), { page: 1, pageSize: 100 }))
    .count;

describe("XTD sendsme of a forwarder that already reads the AWB", () => {
  it("records the trigger without writing a new version of the route map", async () => {
    const h = await bookedAwb();
    await xtd(h);
    const version = (await h.routeMaps.get(AWB))?.version;
    await xtd(h);
    await xtd(h);
    expect((await h.routeMaps.get(AWB))?.version).toBe(version);
    expect(await ledgerCount(h)).toBe(3);
  });
});

describe("the sendsme deadline", () => {
  it("starts nothing with less than the reserve left: 409 with Retry-After, nothing counted", async () => {
    const h = await bookedAwb();
    const error = await xtd(h, () => ANSWER_RESERVE_MS - 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineReachedError);
    expect((error as Error).message).toMatch(/sendsme for AWB 020-12345675.*nothing was counted/);
    const problem = toProblem(error) as ProblemError;
    expect(problem).toBeInstanceOf(ProblemError);
    expect([problem.status, problem.headers["retry-after"]]).toEqual([409, "1"]);
    expect(await ledgerCount(h)).toBe(0);
    expect(h.published).toEqual([]);
  });

  it("stops before the ledger entry once the slowest step might not fit: not counted", async () => {
    const h = await bookedAwb();
    let left = ANSWER_RESERVE_MS + 700;
    // Every route-map read costs 300 ms: after a few, reserve + twice the slowest step no longer fits.
    const slow = {
      ...h,
      routeMaps: {
        ...h.routeMaps,
        get: async (awb: typeof AWB) => {
          left -= 300;
          return h.routeMaps.get(awb);
        },
      },
    };
    await expect(xtd(slow, () => left)).rejects.toBeInstanceOf(DeadlineReachedError);
    expect(await ledgerCount(h)).toBe(0);
  });

  it("records the ledger entry again after it lost a race for the month's count", async () => {
    const h = await bookedAwb();
    const usage = h.statusRequests.usage;
    let lost = 2;
    const racing = {
      ...h,
      statusRequests: {
        ...h.statusRequests,
        usage: {
          ...usage,
          record: async (entry: Parameters<typeof usage.record>[0]) => {
            if (lost-- > 0) throw new WriteConflictError(entry.awb);
            return usage.record(entry);
          },
        },
      },
    };
    await xtd(racing, () => 10_000);
    expect(await ledgerCount(h)).toBe(1);
    expect(h.backoffs).toEqual([1, 2]);
  });
});
