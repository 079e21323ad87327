/**
 * The ETA use cases with memory stores: who may read an AWB's predictions (owner and support; another
 * forwarder gets the route map's 404), the connection judged against the station's minimum connection
 * time or the default, and the accuracy of scored route maps narrowed to the reader's own and a lane.
 */
import { describe, expect, it } from "vitest";
import { RouteMapNotFoundError } from "../../../functions/core/errors.ts";
import { DEFAULT_MINIMUM_CONNECTION_MINUTES } from "../../../functions/core/predictions/connections.ts";
import type { ScoredRouteMap } from "../../../functions/core/predictions/scoring.ts";
import {
  getEtaAccuracy,
  getRouteMapEta,
  setStationConnectionTime,
} from "../../../functions/core/use-cases/route-map-eta.ts";
import {
  memoryLaneStatsStore,
  memoryPredictionStore,
  memoryStationSettings,
} from "../../support/memory/predictions.ts";
import { AWB, BKD_TWO_LEGS, carrier020, FWB, harness, OTHER, OWNER, T0 } from "./support.ts";

const SUPPORT = { role: "support", subject: "ops" } as const;

async function booked() {
  const h = harness();
  carrier020(h);
  await h.imp(BKD_TWO_LEGS, T0);
  await h.imp(FWB, T0);
  const stations = memoryStationSettings();
  const deps = { routeMaps: h.routeMaps, laneStats: memoryLaneStatsStore(), stations };
  return { deps, stations };
}

describe("an AWB's predictions", () => {
  it("answer the owner and support with every milestone and the FRA connection", async () => {
    const { deps } = await booked();
    const mine = await getRouteMapEta(deps, { awb: AWB, reader: OWNER, now: T0 });
    expect(await getRouteMapEta(deps, { awb: AWB, reader: SUPPORT, now: T0 })).toEqual(mine);
    expect(mine.Milestones.map((m) => m.Name)).toEqual(
      expect.arrayContaining(["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]),
    );
    // Nothing learnt yet: the plan alone, no samples.
    expect(mine.Milestones.every((m) => m.Basis.Method === "plan" && m.Basis.Samples === 0)).toBe(true);
    expect(mine.Connections).toHaveLength(1);
    // HAJ-FRA arrives 09:30, FRA-JFK leaves 13:25: 235 minutes against the default minimum.
    expect(mine.Connections[0]).toMatchObject({
      Station: "FRA",
      InboundFlight: "LH9350",
      OutboundFlight: "LH400",
      MinimumConnectionMinutes: DEFAULT_MINIMUM_CONNECTION_MINUTES,
    });
  });

  it("judge the connection against the minimum support set for the station", async () => {
    const { deps, stations } = await booked();
    const before = (await getRouteMapEta(deps, { awb: AWB, reader: OWNER, now: T0 })).Connections[0];
    await setStationConnectionTime({ stations }, { station: "FRA", minutes: 400, now: T0 });
    const after = (await getRouteMapEta(deps, { awb: AWB, reader: OWNER, now: T0 })).Connections[0];
    expect(after?.MinimumConnectionMinutes).toBe(400);
    expect(after?.SlackMinutes).toBe(
      (before?.SlackMinutes ?? 0) - (400 - DEFAULT_MINIMUM_CONNECTION_MINUTES),
    );
    expect(after?.Risk).toBe("AtRisk");
  });

  it("are the route map's 404 for another forwarder and an unknown AWB", async () => {
    const { deps } = await booked();
    await expect(getRouteMapEta(deps, { awb: AWB, reader: OTHER, now: T0 })).rejects.toBeInstanceOf(
      RouteMapNotFoundError,
    );
    await expect(
      getRouteMapEta(deps, { awb: { prefix: "020", serial: "99999992" }, reader: SUPPORT, now: T0 }),
    ).rejects.toBeInstanceOf(RouteMapNotFoundError);
  });
});

describe("accuracy", () => {
  const scored = (awb: string, ownerKey: string | null, lane: string, error: number): ScoredRouteMap => ({
    awb,
    ownerKey,
    lane,
    completedAt: "2026-03-12T10:00:00Z",
    scores: [
      {
        horizon: "Booking",
        name: "DLV",
        errorMinutes: error,
        covered: true,
        planErrorMinutes: 600,
        planCovered: false,
      },
    ],
  });

  it("counts the reader's own route maps (support: all), narrowed by lane, beside the plan", async () => {
    const predictions = memoryPredictionStore();
    await predictions.putScored(scored("02012345675", "AGT#1234567#0001", "020 FRA-JFK", 30));
    await predictions.putScored(scored("02012345686", "AGT#1234567#0001", "020 HAJ-JFK", 90));
    await predictions.putScored(scored("02012345690", "AGT#7654321#0042", "020 FRA-JFK", 10));
    const mine = await getEtaAccuracy({ predictions }, { reader: OWNER, lane: null, now: T0 });
    expect(mine.RouteMaps).toBe(2);
    expect(mine.Items).toEqual([
      {
        Milestone: "DLV",
        Horizon: "Booking",
        Service: { Count: 2, MedianAbsoluteErrorMinutes: 30, P90AbsoluteErrorMinutes: 90, Coverage: 1 },
        Plan: { Count: 2, MedianAbsoluteErrorMinutes: 600, P90AbsoluteErrorMinutes: 600, Coverage: 0 },
      },
    ]);
    expect((await getEtaAccuracy({ predictions }, { reader: SUPPORT, lane: null, now: T0 })).RouteMaps).toBe(
      3,
    );
    const lane = await getEtaAccuracy({ predictions }, { reader: SUPPORT, lane: "020 FRA-JFK", now: T0 });
    expect(lane).toMatchObject({ Lane: "020 FRA-JFK", RouteMaps: 2 });
    expect(lane.From).toBe("2026-02-11T10:00:00Z");
  });
});
