/**
 * The ProActive sweep of a rule saved after milestones already went Missing, off the request path:
 * the rule routes queue a request, the due-checks handler runs one page at a time and queues the next
 * with a cursor (no cap), re-reading the rule on every page, with bounded parallel reads.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { NotificationRule } from "../../../functions/core/notifications/index.ts";
import type { ProActiveSweepRequest } from "../../../functions/core/ports/checks.ts";
import { missingCheckAt, proActiveCheckAt } from "../../../functions/core/route-map/due-checks.ts";
import { addMinutes } from "../../../functions/core/time/station-time.ts";
import { runDueCheck } from "../../../functions/core/use-cases/run-due-check.ts";
import { requestProActiveSweep } from "../../../functions/core/use-cases/shared/proactive-sweeps.ts";
import {
  SWEEP_PAGE_SIZE,
  SWEEP_READ_CONCURRENCY,
  type SweepPageResult,
  type SweepProActivePageDeps,
  sweepProActivePage,
} from "../../../functions/core/use-cases/sweep-proactive-page.ts";
import { AWB, BKD_TWO_LEGS, FWB, type Harness, harness, OTHER, T0 } from "../use-cases/support.ts";
import { RecordingScheduler, RecordingSweepQueue, RuleStore, rule } from "./support.ts";

const DEP = "FRA:DEP";

let h: Harness;
let rules: RuleStore;
let scheduler: RecordingScheduler;
let sweeps: RecordingSweepQueue;
let deps: SweepProActivePageDeps;
let plannedDep: string;

/** A valid AWB serial (8th digit = first seven mod 7) for the n-th extra route map. */
const serialFor = (n: number) => {
  const seven = 2000000 + n;
  return `${seven}${seven % 7}`;
};
const ofSerial = (text: string, serial: string) => text.replaceAll("12345675", serial);

/** Runs the queued pages until the sweep is complete; returns every page's result. */
async function drain(now: string): Promise<SweepPageResult[]> {
  const results: SweepPageResult[] = [];
  for (let taken = 0; taken < sweeps.requests.length; taken++) {
    const sweep = sweeps.requests[taken] as ProActiveSweepRequest;
    results.push(await sweepProActivePage(deps, { sweep, now }));
    if (taken > 1000) throw new Error("the sweep does not end");
  }
  return results;
}

async function missDep(serial = AWB.serial) {
  const awb = `020${serial}`;
  await runDueCheck(
    { routeMaps: h.routeMaps, subscriptions: rules, checks: new RecordingScheduler(), backoff: h.backoff },
    {
      check: { awb, milestoneKey: DEP, plannedUtc: plannedDep, check: "missing" },
      now: missingCheckAt(plannedDep),
    },
  );
}

beforeEach(async () => {
  h = harness();
  rules = new RuleStore();
  scheduler = new RecordingScheduler();
  sweeps = new RecordingSweepQueue();
  deps = { routeMaps: h.routeMaps, subscriptions: rules, checks: scheduler, sweeps };
  await h.imp(BKD_TWO_LEGS, T0);
  await h.imp(FWB, T0);
  plannedDep = (await h.routeMaps.get(AWB))?.state.planned[DEP]?.plannedUtc ?? "";
  await missDep();
});

describe("requesting a sweep (what the rule routes do)", () => {
  it("queues one first page for an enabled ProActive rule, nothing for other or disabled rules", async () => {
    const r = rule({ kind: "ProActive", minutes: 240 });
    expect(await requestProActiveSweep(sweeps, r)).toBe(true);
    expect(
      await requestProActiveSweep(sweeps, rule({ kind: "ProActive", minutes: 240 }, { enabled: false })),
    ).toBe(false);
    expect(await requestProActiveSweep(sweeps, rule({ kind: "Missed" }))).toBe(false);
    expect(sweeps.requests).toEqual([
      {
        kind: "proactive-sweep",
        ruleId: r.id,
        forwarderId: r.owner.forwarderId,
        ruleUpdatedAt: r.updatedAt,
        cursor: null,
      },
    ]);
  });
});

describe("one page", () => {
  it("schedules proactive checks for overdue unreported milestones whose planned + N is ahead", async () => {
    const now = addMinutes(plannedDep, 30);
    const r = rules.add(
      rule({ kind: "ProActive", minutes: 240 }, { events: ["DEP", "ARR"], createdAt: now }),
    );
    await requestProActiveSweep(sweeps, r);
    const [first, ...rest] = await drain(now);
    expect(first).toMatchObject({ outcome: "swept", routeMaps: 1, scheduled: 1, queued: 0 });
    // The FWD# reader key (XTD grants) is swept too, as its own page: it holds nothing here.
    expect(rest).toEqual([{ outcome: "swept", routeMaps: 0, scheduled: 0, queued: 0, next: null }]);
    // FRA:DEP is overdue with planned + 240 ahead. HAJ:DEP (the truck) is overdue too, but its
    // planned + 240 has passed (not retroactive); ARRs are not due yet (their own checks do that).
    expect(scheduler.upserts.map((c) => c.input.milestoneKey)).toEqual([DEP]);
    expect(scheduler.get(DEP, "proactive", 240)?.at).toBe(proActiveCheckAt(plannedDep, 240));
  });

  it("a check due within the window goes straight to the queue", async () => {
    const r = rules.add(rule({ kind: "ProActive", minutes: 60 }));
    await requestProActiveSweep(sweeps, r);
    await drain(addMinutes(plannedDep, 59.5));
    expect(scheduler.upserts).toHaveLength(0);
    expect(scheduler.queued.map((q) => [q.input.milestoneKey, q.input.minutes, q.delaySeconds])).toEqual([
      [DEP, 60, 30],
    ]);
  });

  it("another forwarder's rule, a passed interval or an unlistened milestone schedule nothing", async () => {
    const now = addMinutes(plannedDep, 30);
    for (const r of [
      rule({ kind: "ProActive", minutes: 240 }, { owner: { ...OTHER, agentStation: OTHER.agentStation } }),
      rule({ kind: "ProActive", minutes: 10 }),
      rule({ kind: "ProActive", minutes: 240 }, { events: ["RCS"] }),
      rule({ kind: "ProActive", minutes: 240 }, { destination: "CDG" }),
    ]) {
      await requestProActiveSweep(sweeps, rules.add(r));
    }
    const results = await drain(now);
    expect(results.length).toBeGreaterThanOrEqual(4);
    expect(results.every((r) => r.outcome === "swept")).toBe(true);
    expect(scheduler.upserts.length + scheduler.queued.length).toBe(0);
  });

  it("re-reads the rule: deleted, disabled or no longer ProActive sweeps nothing; changed is superseded", async () => {
    const now = addMinutes(plannedDep, 30);
    const make = () => rules.add(rule({ kind: "ProActive", minutes: 240 }));
    const deleted = make();
    const disabled = make();
    const missedNow = make();
    const changed = make();
    for (const r of [deleted, disabled, missedNow, changed]) await requestProActiveSweep(sweeps, r);
    rules.replace(deleted.id, null);
    rules.replace(disabled.id, { ...disabled, enabled: false });
    rules.replace(missedNow.id, { ...missedNow, alert: { kind: "Missed" } });
    rules.replace(changed.id, { ...changed, updatedAt: now } satisfies NotificationRule);
    const results = await drain(now);
    expect(results.map((r) => r.outcome)).toEqual(["rule-gone", "rule-gone", "rule-gone", "superseded"]);
    expect(scheduler.upserts.length + scheduler.queued.length).toBe(0);
    expect(h.routeMaps.operations.queryReaders ?? 0).toBe(0);
  });

  it("a page is safe to run twice (a redelivered message): same schedule, nothing new", async () => {
    const now = addMinutes(plannedDep, 30);
    await requestProActiveSweep(sweeps, rules.add(rule({ kind: "ProActive", minutes: 240 })));
    const first = sweeps.requests[0] as ProActiveSweepRequest;
    await sweepProActivePage(deps, { sweep: first, now });
    await sweepProActivePage(deps, { sweep: first, now });
    expect(scheduler.scheduled.size).toBe(1);
    expect(new Set(scheduler.upserts.map((c) => c.at))).toEqual(new Set([proActiveCheckAt(plannedDep, 240)]));
  });

  it("a continuation that cannot be queued fails the page (the message is retried, not lost)", async () => {
    const now = addMinutes(plannedDep, 30);
    await requestProActiveSweep(sweeps, rules.add(rule({ kind: "ProActive", minutes: 240 })));
    sweeps.failNext = 1;
    await expect(
      sweepProActivePage(deps, { sweep: sweeps.requests[0] as ProActiveSweepRequest, now }),
    ).rejects.toThrow("queue unavailable");
  });
});

describe("paging (no cap: a forwarder with many open route maps)", () => {
  const EXTRA = 2 * SWEEP_PAGE_SIZE + 37;

  beforeEach(async () => {
    // All created in the same second (one creation time for every route map): the cursor must
    // still move on, which it can only do by remembering what it swept at that instant.
    for (let n = 0; n < EXTRA; n++) {
      await h.imp(ofSerial(BKD_TWO_LEGS, serialFor(n)), T0);
      await h.imp(ofSerial(FWB, serialFor(n)), T0);
      await missDep(serialFor(n));
    }
  });

  it("pages through every route map once, each page at most SWEEP_PAGE_SIZE, then stops", async () => {
    const now = addMinutes(plannedDep, 30);
    await requestProActiveSweep(sweeps, rules.add(rule({ kind: "ProActive", minutes: 240 })));
    const results = await drain(now);
    const total = EXTRA + 1;
    expect(results.every((r) => r.routeMaps <= SWEEP_PAGE_SIZE)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.routeMaps, 0)).toBe(total);
    expect(results.reduce((sum, r) => sum + r.scheduled, 0)).toBe(total);
    // One upsert per route map: no page read a route map another page had already swept.
    const awbs = scheduler.upserts.map((c) => c.input.awb);
    expect(awbs).toHaveLength(total);
    expect(new Set(awbs).size).toBe(total);
    expect(results.at(-1)?.next).toBeNull();
    expect(results.filter((r) => r.next !== null)).toHaveLength(results.length - 1);
  });

  it("reads a page's route maps in parallel, at most SWEEP_READ_CONCURRENCY at once", async () => {
    let inFlight = 0;
    let most = 0;
    const get: typeof h.routeMaps.get = async (awb) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return h.routeMaps.get(awb);
    };
    deps = { ...deps, routeMaps: { get, queryReaders: h.routeMaps.queryReaders } };
    await requestProActiveSweep(sweeps, rules.add(rule({ kind: "ProActive", minutes: 240 })));
    await sweepProActivePage(deps, {
      sweep: sweeps.requests[0] as ProActiveSweepRequest,
      now: addMinutes(plannedDep, 30),
    });
    expect(most).toBe(SWEEP_READ_CONCURRENCY);
  });
});
