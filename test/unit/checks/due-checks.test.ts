/**
 * Scheduled checks, core and use cases: planning due checks, the "missing" check (Missing status + Missed
 * event, once), proactive checks (scheduled per distinct ProActiveTime of the rules that may hear,
 * fired once, silenced by a late report), stale checks after a replan. The sweep of rules created
 * later: proactive-sweep.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { checkScheduleName } from "../../../functions/adapters/check-scheduler.ts";
import type { DomainEvent } from "../../../functions/core/events.ts";
import {
  type MatchableEvent,
  matchEvent,
  renderEmail,
  renderEventPayload,
} from "../../../functions/core/notifications/index.ts";
import {
  checkDueAt,
  type DueCheckInput,
  markMissing,
  markProActive,
  missingCheckAt,
  proActiveCheckAt,
} from "../../../functions/core/route-map/due-checks.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import { addMinutes } from "../../../functions/core/time/station-time.ts";
import { planDueChecks } from "../../../functions/core/use-cases/plan-due-checks.ts";
import { type RunDueCheckDeps, runDueCheck } from "../../../functions/core/use-cases/run-due-check.ts";
import {
  AWB,
  BKD_TWO_LEGS,
  EPOCH,
  FWB,
  fsu,
  type Harness,
  harness,
  OTHER,
  T0,
} from "../use-cases/support.ts";
import { RecordingScheduler, RuleStore, rule } from "./support.ts";

const AWB11 = "02012345675";
const DEP = "FRA:DEP";

let h: Harness;
let rules: RuleStore;
let scheduler: RecordingScheduler;
let deps: RunDueCheckDeps;

async function planned(key = DEP): Promise<string> {
  const record = await h.routeMaps.get(AWB);
  const at = record?.state.planned[key]?.plannedUtc;
  if (!at) throw new Error(`no planned ${key}`);
  return at;
}
const missing = (plannedUtc: string, key = DEP): DueCheckInput => ({
  awb: AWB11,
  milestoneKey: key,
  plannedUtc,
  check: "missing",
});
const proactive = (plannedUtc: string, minutes: number, key = DEP): DueCheckInput => ({
  awb: AWB11,
  milestoneKey: key,
  plannedUtc,
  check: "proactive",
  minutes,
});
const eventsOf = (type: DomainEvent["type"]) => h.routeMaps.events.filter((e) => e.type === type);

beforeEach(async () => {
  h = harness();
  rules = new RuleStore();
  scheduler = new RecordingScheduler();
  deps = { routeMaps: h.routeMaps, subscriptions: rules, checks: scheduler, backoff: h.backoff };
  await h.imp(BKD_TWO_LEGS, T0);
  await h.imp(FWB, T0);
});

describe("planning", () => {
  it("schedules one missing check per unreported milestone at planned + 1 s", async () => {
    const result = await planDueChecks({ routeMaps: h.routeMaps, checks: scheduler }, { awb: AWB, now: T0 });
    const record = await h.routeMaps.get(AWB);
    const unreported = Object.keys(record?.state.planned ?? {}).filter((k) => k !== "HAJ:FWB");
    expect(result.scheduled).toBe(unreported.length);
    const dep = scheduler.get(DEP, "missing");
    expect(dep?.at).toBe(missingCheckAt(await planned()));
    expect(dep?.input).toEqual(missing(await planned()));
    expect(scheduler.get("HAJ:FWB", "missing")).toBeUndefined(); // reported (FWB received)
  });

  it("a replan that moves the flight moves the check (same identity, new time)", async () => {
    const plan = { routeMaps: h.routeMaps, checks: scheduler };
    await planDueChecks(plan, { awb: AWB, now: T0 });
    const before = await planned();
    await h.imp(fsu("BKD/LH400/14MAR/FRAJFK/T10K250.0/S1525/S1755"), "2026-03-13T11:00:00Z");
    await planDueChecks(plan, { awb: AWB, now: "2026-03-13T11:00:00Z" });
    const after = await planned();
    expect(after).toBe(addMinutes(before, 120));
    expect(scheduler.get(DEP, "missing")?.at).toBe(missingCheckAt(after));
    // Every upsert of DEP's check, in order: one per plan, both under the one schedule name the
    // adapter derives, so the second moves the first instead of adding a check.
    const depUpserts = scheduler.upserts.filter((c) => c.input.milestoneKey === DEP);
    expect(depUpserts.map((c) => c.at)).toEqual([missingCheckAt(before), missingCheckAt(after)]);
    expect(new Set(depUpserts.map((c) => checkScheduleName(c.input))).size).toBe(1);
  });

  it("checks already due (milestones overdue at planning time) go straight to the queue", async () => {
    const late = "2026-03-14T14:00:00Z"; // after the FRA DEP planned time
    await planDueChecks({ routeMaps: h.routeMaps, checks: scheduler }, { awb: AWB, now: late });
    expect(scheduler.queued.map((q) => q.input.milestoneKey)).toContain(DEP);
    expect(scheduler.queued.every((q) => q.delaySeconds === 0)).toBe(true);
    expect(scheduler.get(DEP, "missing")).toBeUndefined();
  });

  it("a cancelled shipment has nothing to check", async () => {
    const record = await h.routeMaps.get(AWB);
    if (!record) throw new Error("no record");
    const cancelled = { ...record, state: { ...record.state, cancelled: { atUtc: T0, station: "HAJ" } } };
    const result = await planDueChecks(
      { routeMaps: { get: async () => cancelled }, checks: scheduler },
      { awb: AWB, now: T0 },
    );
    expect(result).toEqual({ scheduled: 0, queued: 0 });
  });
});

describe("missing check", () => {
  it("turns the milestone Missing with a snapshot and one Missed event (Type Missed, planned filled)", async () => {
    const plannedUtc = await planned();
    const now = missingCheckAt(plannedUtc);
    const snapshotsBefore = (await h.routeMaps.snapshots(AWB, EPOCH)).length;
    const result = await runDueCheck(deps, { check: missing(plannedUtc), now });
    expect(result.outcome).toBe("recorded");
    const missed = eventsOf("Missed");
    expect(missed).toHaveLength(1);
    expect(missed[0]).toMatchObject({
      name: "DEP",
      eventStatus: "Update",
      reported: null,
      milestoneKey: DEP,
    });
    expect(missed[0]?.planned?.Utc).toBe(plannedUtc);
    expect((await h.routeMaps.snapshots(AWB, EPOCH)).length).toBe(snapshotsBefore + 1);
    const record = await h.routeMaps.get(AWB);
    const map = renderRouteMap(record?.state ?? (undefined as never), now);
    const dep = map.MilestonePlan.RoutingCycle.Flight[1]?.Milestone.find((m) => m.Name === "DEP");
    expect(dep?.Status).toBe("Missing");
  });

  it("delivered twice records once (the second is a no-op)", async () => {
    const plannedUtc = await planned();
    const now = missingCheckAt(plannedUtc);
    expect((await runDueCheck(deps, { check: missing(plannedUtc), now })).outcome).toBe("recorded");
    expect((await runDueCheck(deps, { check: missing(plannedUtc), now })).outcome).toBe("already-recorded");
    expect(eventsOf("Missed")).toHaveLength(1);
  });

  it("is early before planned + 1 s and stale once DEP was reported", async () => {
    const plannedUtc = await planned();
    expect((await runDueCheck(deps, { check: missing(plannedUtc), now: plannedUtc })).outcome).toBe("early");
    await h.imp(fsu("DEP/LH400/14MAR/FRAJFK/T10K250.0/A1330"), "2026-03-14T12:40:00Z");
    const result = await runDueCheck(deps, { check: missing(plannedUtc), now: missingCheckAt(plannedUtc) });
    expect(result.outcome).toBe("stale");
    expect(eventsOf("Missed")).toHaveLength(0);
  });

  it("the old check after a replan does nothing; the moved one records", async () => {
    const old = await planned();
    await h.imp(fsu("BKD/LH400/14MAR/FRAJFK/T10K250.0/S1525/S1755"), "2026-03-13T11:00:00Z");
    const moved = await planned();
    expect((await runDueCheck(deps, { check: missing(old), now: missingCheckAt(old) })).outcome).toBe(
      "stale",
    );
    expect(eventsOf("Missed")).toHaveLength(0);
    expect((await runDueCheck(deps, { check: missing(moved), now: missingCheckAt(moved) })).outcome).toBe(
      "recorded",
    );
  });

  it("retries on a write conflict", async () => {
    const plannedUtc = await planned();
    h.routeMaps.failNextWrites(2);
    const result = await runDueCheck(deps, { check: missing(plannedUtc), now: missingCheckAt(plannedUtc) });
    expect(result.outcome).toBe("recorded");
    expect(h.backoffs).toEqual([1, 2]);
  });

  it("schedules one proactive check per distinct ProActiveTime of enabled rules that may hear", async () => {
    rules.add(rule({ kind: "ProActive", minutes: 240 }));
    rules.add(rule({ kind: "ProActive", minutes: 240 }, { notifyTo: "other@forwarder.example" }));
    rules.add(rule({ kind: "ProActive", minutes: 60 }));
    rules.add(rule({ kind: "ProActive", minutes: 30 }, { enabled: false }));
    rules.add(rule({ kind: "ProActive", minutes: 90 }, { events: ["ARR"] }));
    rules.add(rule({ kind: "ProActive", minutes: 120 }, { destination: "CDG" }));
    rules.add(rule({ kind: "Missed" }));
    rules.add(
      rule(
        { kind: "ProActive", minutes: 15 },
        { owner: { ...OTHER, agentStation: OTHER.agentStation } }, // not the AWB owner
      ),
    );
    const plannedUtc = await planned();
    const result = await runDueCheck(deps, { check: missing(plannedUtc), now: missingCheckAt(plannedUtc) });
    expect(result.proActiveMinutes).toEqual([60, 240]);
    expect(scheduler.get(DEP, "proactive", 240)?.at).toBe(proActiveCheckAt(plannedUtc, 240));
    expect(scheduler.get(DEP, "proactive", 60)?.input).toEqual(proactive(plannedUtc, 60));
    expect(scheduler.scheduled.size).toBe(2);
  });

  it("schedules no proactive check when no ProActive rule exists, or the interval has passed", async () => {
    rules.add(rule({ kind: "Missed" }));
    const plannedUtc = await planned();
    await runDueCheck(deps, { check: missing(plannedUtc), now: missingCheckAt(plannedUtc) });
    expect(scheduler.scheduled.size).toBe(0);
    rules.add(rule({ kind: "ProActive", minutes: 10 }));
    await runDueCheck(deps, { check: missing(plannedUtc), now: addMinutes(plannedUtc, 11) });
    expect(scheduler.scheduled.size + scheduler.queued.length).toBe(0);
  });
});

describe("proactive check", () => {
  let plannedUtc: string;
  beforeEach(async () => {
    plannedUtc = await planned();
    await runDueCheck(deps, { check: missing(plannedUtc), now: missingCheckAt(plannedUtc) });
  });

  it("fires once at planned + N with the interval on the event; only rules with that N match", async () => {
    const now = proActiveCheckAt(plannedUtc, 240);
    expect(
      (await runDueCheck(deps, { check: proactive(plannedUtc, 240), now: addMinutes(now, -1) })).outcome,
    ).toBe("early");
    expect((await runDueCheck(deps, { check: proactive(plannedUtc, 240), now })).outcome).toBe("recorded");
    expect((await runDueCheck(deps, { check: proactive(plannedUtc, 240), now })).outcome).toBe(
      "already-recorded",
    );
    const events = eventsOf("ProActive") as MatchableEvent[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      name: "DEP",
      eventStatus: "Update",
      reported: null,
      proActiveMinutes: 240,
    });
    const r240 = rule({ kind: "ProActive", minutes: 240 });
    const r60 = rule({ kind: "ProActive", minutes: 60 });
    const missedRule = rule({ kind: "Missed" });
    const targets = matchEvent(events[0] as MatchableEvent, [
      { kind: "rule", rule: r240 },
      { kind: "rule", rule: r60 },
      { kind: "rule", rule: missedRule },
    ]);
    expect(targets.map((t) => t.subscriptionId)).toEqual([r240.id]);
  });

  it("a late DEP (Ko) reported before planned + N silences it", async () => {
    await h.imp(fsu("DEP/LH400/14MAR/FRAJFK/T10K250.0/A1530"), "2026-03-14T14:35:00Z");
    const result = await runDueCheck(deps, {
      check: proactive(plannedUtc, 240),
      now: proActiveCheckAt(plannedUtc, 240),
    });
    expect(result.outcome).toBe("stale");
    expect(eventsOf("ProActive")).toHaveLength(0);
  });

  it("writes no snapshot (the route map did not change)", async () => {
    const before = (await h.routeMaps.snapshots(AWB, EPOCH)).length;
    await runDueCheck(deps, { check: proactive(plannedUtc, 240), now: proActiveCheckAt(plannedUtc, 240) });
    expect((await h.routeMaps.snapshots(AWB, EPOCH)).length).toBe(before);
  });
});

describe("core", () => {
  it("markProActive: not before planned + N, once per (milestone, planned, N), stale after a replan", async () => {
    const record = await h.routeMaps.get(AWB);
    if (!record) throw new Error("no record");
    const plannedUtc = await planned();
    const state = record.state;
    expect(markProActive(state, DEP, plannedUtc, 240, addMinutes(plannedUtc, 239)).changed).toBe(false);
    const first = markProActive(state, DEP, plannedUtc, 240, addMinutes(plannedUtc, 240));
    expect(first.changed).toBe(true);
    expect(markProActive(first.state, DEP, plannedUtc, 240, addMinutes(plannedUtc, 300)).changed).toBe(false);
    expect(markProActive(first.state, DEP, plannedUtc, 60, addMinutes(plannedUtc, 300)).changed).toBe(true);
    expect(
      markProActive(state, DEP, addMinutes(plannedUtc, 5), 240, addMinutes(plannedUtc, 300)).changed,
    ).toBe(false);
    expect(markMissing(state, DEP, plannedUtc, missingCheckAt(plannedUtc)).changed).toBe(true);
    expect(checkDueAt(proactive(plannedUtc, 240))).toBe(addMinutes(plannedUtc, 240));
  });
});

describe("payload and e-mail of Missed and ProActive alerts", () => {
  it("Type Missed/ProActive, EventStatus Update, planned filled, reported null; subject says NTF", async () => {
    const plannedUtc = await planned();
    await runDueCheck(deps, { check: missing(plannedUtc), now: missingCheckAt(plannedUtc) });
    await runDueCheck(deps, { check: proactive(plannedUtc, 240), now: proActiveCheckAt(plannedUtc, 240) });
    const recipient = {
      forwarderId: "ACMECARGO",
      agentCode: "1234567",
      agentCass: "0001",
      agentStation: "FRA",
    };
    for (const type of ["Missed", "ProActive"] as const) {
      const [event] = eventsOf(type);
      if (!event) throw new Error(`no ${type} event`);
      const payload = renderEventPayload(event, recipient);
      // Nothing was reported: the event itself says so, not only its rendering.
      expect(event).toMatchObject({
        piecesReported: 0,
        weightReported: null,
        weightCode: null,
        reported: null,
      });
      expect(event.totalPieces).toBe(10);
      expect(payload).toMatchObject({
        Type: type,
        Event: "DEP",
        EventStatus: "Update",
        PiecesReported: 0,
        TotalShipmentPieces: 10,
        WeightReported: null,
        WeightCode: null,
        MilestoneReportedLocalTimeStamp: null,
        MilestoneReportedUtcTimeStamp: null,
        PlannedUtcTimeStamp: `${plannedUtc.slice(0, -1)}+00:00`,
        CarrierCode: "LH",
        FlightNumber: "400",
        AirportOfEvent: "FRA",
      });
      expect(payload.PlannedLocalTimeStamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(Object.keys(payload)).not.toContain("proActiveMinutes");
      expect(renderEmail(payload, ["AWB", "MIL", "NTF"]).subject).toBe(
        `AWB 020-12345675 | MIL DEP | NTF ${type}`,
      );
    }
  });
});
