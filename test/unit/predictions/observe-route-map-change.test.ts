import { describe, expect, it } from "vitest";
import type { LaneIncrements } from "../../../functions/core/predictions/lane-stats.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { observeRouteMapChange } from "../../../functions/core/use-cases/observe-route-map-change.ts";
import { memoryLaneStatsStore, memoryPredictionStore } from "../../support/memory/predictions.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";
import { booking, FRA_JFK, type Message, MUC_FRA, plus, SERIAL, status } from "./support.ts";

/** Ingests the messages with the predictions observer wired as the handler wires it. */
async function replay(messages: readonly Message[], learn = true) {
  const laneStats = memoryLaneStatsStore();
  const predictions = memoryPredictionStore();
  const writes: string[] = [];
  const observerDeps = {
    laneStats: {
      read: laneStats.read,
      add: async (increments: LaneIncrements) => {
        writes.push("laneStats");
        await laneStats.add(increments);
      },
    },
    predictions: {
      ...predictions,
      putHorizon: async (...args: Parameters<typeof predictions.putHorizon>) => {
        writes.push(`horizon ${args[1].horizon}`);
        await predictions.putHorizon(...args);
      },
    },
    learn,
  };
  const failures: unknown[] = [];
  const deps = {
    routeMaps: memoryRouteMapRepository(),
    carriers: { get: async () => null },
    backoff: async () => {},
    changeObserver: {
      observe: (change: Parameters<typeof observeRouteMapChange>[1]) =>
        observeRouteMapChange(observerDeps, change),
      failed: (error: unknown) => failures.push(error),
    },
  };
  for (const message of messages) {
    await ingestCarrierMessage(deps, {
      carrierPrefix: "020",
      contentType: "application/json",
      body: JSON.stringify(message.body),
      now: message.at,
    });
  }
  return { laneStats, predictions, writes, failures };
}

// Every milestone 30 minutes after its plan (the default offsets on MUC-FRA LH100 and FRA-JFK LH400).
const late = (utc: string) => plus(utc, 30);
const journey: Message[] = [
  booking(),
  status("RCS", "MUC", late("2026-11-23T04:00:00Z")),
  status("DEP", "MUC", late("2026-11-23T07:00:00Z"), MUC_FRA),
  status("ARR", "FRA", late("2026-11-23T08:00:00Z"), MUC_FRA),
  status("RCF", "FRA", late("2026-11-23T12:00:00Z"), MUC_FRA),
  status("DEP", "FRA", late("2026-11-23T11:00:00Z"), FRA_JFK),
  status("ARR", "JFK", late("2026-11-23T19:00:00Z"), FRA_JFK),
  status("RCF", "JFK", late("2026-11-23T23:00:00Z"), FRA_JFK),
  status("NFD", "JFK", late("2026-11-24T00:00:00Z")),
  status("AWD", "JFK", late("2026-11-24T02:00:00Z")),
  status("DLV", "JFK", late("2026-11-26T18:00:00Z")),
];

describe("observeRouteMapChange", () => {
  it("keeps predictions at the three horizons, learns and scores once on delivery, and writes nothing else", async () => {
    const { laneStats, predictions, writes, failures } = await replay(journey);
    expect(failures).toEqual([]);
    expect(writes).toEqual(["horizon Booking", "horizon FirstDeparture", "horizon LastArrival", "laneStats"]);
    expect(laneStats.items.get("LEG|LH|MUC|FRA")?.["DEP|all|n"]).toBe(1);
    const [scored] = predictions.all;
    expect(scored).toMatchObject({ awb: `020${SERIAL}`, lane: "020 MUC-JFK", ownerKey: null });
    const horizons = new Set(scored?.scores.map((s) => s.horizon));
    expect([...horizons].sort()).toEqual(["Booking", "FirstDeparture", "LastArrival"]);
    // Made at booking with nothing learnt: the plan itself, so both score alike.
    const nfdAtBooking = scored?.scores.find((s) => s.horizon === "Booking" && s.name === "NFD");
    expect(nfdAtBooking?.errorMinutes).toBe(nfdAtBooking?.planErrorMinutes);
    // Made at the last arrival, 30 late: the service moved NFD with it, the plan did not.
    const nfdAtLastArr = scored?.scores.find((s) => s.horizon === "LastArrival" && s.name === "NFD");
    expect(nfdAtLastArr).toMatchObject({
      errorMinutes: 0,
      planErrorMinutes: 30,
      covered: true,
      planCovered: false,
    });
  });

  it("learns nothing when told not to (a benchmark's test period), yet still scores", async () => {
    const { laneStats, predictions } = await replay(journey, false);
    expect(laneStats.items.size).toBe(0);
    expect(predictions.all).toHaveLength(1);
  });

  it("writes nothing for a change that reaches no horizon", async () => {
    const { writes } = await replay(journey.slice(0, 2));
    expect(writes).toEqual(["horizon Booking"]);
  });
});
