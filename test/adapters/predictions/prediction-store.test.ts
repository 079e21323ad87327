/**
 * The predictions' DynamoDB adapters against DynamoDB Local: lane counters add up item by item, kept
 * predictions come back per horizon with their 30-day TTL, scored route maps are found by owner and
 * completion time, stations' minimum connection times are set and read; and ingest, wired with the
 * observer, keeps the booking's and first departure's predictions while a failing observer leaves the
 * message stored; a journey through to DLV costs at most 2 extra write units per status message.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricPoint } from "../../../functions/adapters/metrics.ts";
import type { predictionObserver as Observer } from "../../../functions/adapters/prediction-observer.ts";
import type * as Stores from "../../../functions/adapters/prediction-store.ts";
import type { RouteMapRepository } from "../../../functions/core/ports/route-maps.ts";
import type { ScoredRouteMap } from "../../../functions/core/predictions/scoring.ts";
import { toPair } from "../../../functions/core/time/station-time.ts";
import type { ingestCarrierMessage as Ingest } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { local as localTime } from "../../e2e/route-map-helpers.ts";
import { scaled } from "../../support/time.ts";
import { type LocalTables, startLocalTables } from "../subscriptions/dynamo-local.ts";

let local: LocalTables;
let stores: typeof Stores;
let observer: typeof Observer;
let routeMaps: RouteMapRepository;
let ingest: typeof Ingest;

beforeAll(async () => {
  local = await startLocalTables();
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  stores = await import("../../../functions/adapters/prediction-store.ts");
  observer = (await import("../../../functions/adapters/prediction-observer.ts")).predictionObserver;
  routeMaps = (
    await import("../../../functions/adapters/route-map-repository.ts")
  ).dynamoRouteMapRepository();
  ingest = (await import("../../../functions/core/use-cases/ingest-carrier-message.ts")).ingestCarrierMessage;
}, scaled(60_000));

afterAll(async () => {
  await local?.stop();
});

const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

describe("lane statistics", () => {
  it("add up per item and attribute, and absent items are left out", async () => {
    const store = stores.dynamoLaneStatsStore();
    const increments = new Map([
      [
        "LEG|LH|FRA|JFK",
        new Map([
          ["ARR|b|3", 1],
          ["ARR|all|n", 1],
          ["ARR|all|s", 25],
        ]),
      ],
      ["CAR|LH", new Map([["ARR|b|3", 1]])],
    ]);
    await store.add(increments);
    await store.add(
      new Map([
        [
          "LEG|LH|FRA|JFK",
          new Map([
            ["ARR|all|n", 1],
            ["ARR|all|s", -10],
          ]),
        ],
      ]),
    );
    const read = await store.read(["LEG|LH|FRA|JFK", "CAR|LH", "CAR|AF"]);
    expect([...read.keys()].sort()).toEqual(["CAR|LH", "LEG|LH|FRA|JFK"]);
    expect(read.get("LEG|LH|FRA|JFK")).toEqual({ "ARR|b|3": 1, "ARR|all|n": 2, "ARR|all|s": 15 });
    expect(read.get("CAR|LH")).toEqual({ "ARR|b|3": 1 });
  });
});

describe("kept and scored predictions", () => {
  it("keep one item per AWB and horizon, compressed, for 30 days after they were made", async () => {
    const store = stores.dynamoPredictionStore();
    const awb = { prefix: "020", serial: "11111114" };
    const madeAt = iso(Date.now());
    const milestones = {
      "JFK:ARR": {
        name: "ARR" as const,
        p50: iso(Date.now() + 9 * HOUR),
        p90: iso(Date.now() + 11 * HOUR),
        planned: iso(Date.now() + 8 * HOUR),
      },
    };
    await store.putHorizon(awb, { horizon: "Booking", madeAt, milestones: {} });
    await store.putHorizon(awb, { horizon: "Booking", madeAt, milestones });
    await store.putHorizon(awb, { horizon: "FirstDeparture", madeAt, milestones });
    const kept = await store.horizons(awb);
    expect(kept.map((h) => h.horizon).sort()).toEqual(["Booking", "FirstDeparture"]);
    expect(kept.find((h) => h.horizon === "Booking")).toEqual({ horizon: "Booking", madeAt, milestones });
    expect(await store.horizons({ prefix: "020", serial: "22222224" })).toEqual([]);
    const item = (
      await local.doc.send(
        new GetCommand({
          TableName: local.tables.DELIVERIES_TABLE,
          Key: { pk: "ETA#02011111114", sk: "H#Booking" },
        }),
      )
    ).Item;
    expect(item?.expiresAt).toBe(Math.floor(Date.parse(madeAt) / 1000) + 30 * 24 * 3600);
  });

  it("find scored route maps by owner (or all) completed since a time, over days", async () => {
    const store = stores.dynamoPredictionStore();
    const scored = (awb: string, ownerKey: string | null, completedAt: string): ScoredRouteMap => ({
      awb,
      ownerKey,
      lane: "020 FRA-JFK",
      completedAt,
      scores: [
        {
          horizon: "Booking",
          name: "DLV",
          errorMinutes: 40,
          covered: true,
          planErrorMinutes: 300,
          planCovered: false,
        },
      ],
    });
    const today = iso(Date.now() - 60_000);
    const twoDaysAgo = iso(Date.now() - 50 * HOUR);
    await store.putScored(scored("02033333335", "AGT#1234567#0001", today));
    await store.putScored(scored("02044444442", "AGT#7654321#0002", twoDaysAgo));
    await store.putScored(scored("02055555556", null, today));
    const since = iso(Date.now() - 3 * 24 * HOUR);
    const all = await store.scored({ ownerKey: null, since });
    expect(all.map((s) => s.awb).sort()).toEqual(["02033333335", "02044444442", "02055555556"]);
    const mine = await store.scored({ ownerKey: "AGT#1234567#0001", since });
    expect(mine).toEqual([scored("02033333335", "AGT#1234567#0001", today)]);
    const recent = await store.scored({ ownerKey: null, since: iso(Date.now() - 24 * HOUR) });
    expect(recent.map((s) => s.awb).sort()).toEqual(["02033333335", "02055555556"]);
  });
});

describe("stations' minimum connection times", () => {
  it("are read back for the stations support set, others left out", async () => {
    const settings = stores.dynamoStationSettings();
    await settings.setMinimumConnectionTime("AMS", 90, iso(Date.now()));
    await settings.setMinimumConnectionTime("AMS", 75, iso(Date.now()));
    await settings.setMinimumConnectionTime("LHR", 180, iso(Date.now()));
    expect(await settings.minimumConnectionTimes(["AMS", "LHR", "CDG"])).toEqual(
      new Map([
        ["AMS", 75],
        ["LHR", 180],
      ]),
    );
  });
});

describe("ingest wired with the predictions observer", () => {
  const local16 = (station: string, ms: number) => toPair(station, iso(ms)).Local.slice(0, 16);
  const booking = (serial: string, std: number) =>
    JSON.stringify({
      AirlinePrefix: "020",
      AwbNumber: serial,
      Origin: "FRA",
      Destination: "JFK",
      Pieces: 10,
      WeightCode: "K",
      Weight: 250,
      Type: "BKD",
      Legs: [
        {
          CarrierCode: "LH",
          FlightNumber: "400",
          Date: local16("FRA", std).slice(0, 10),
          Origin: "FRA",
          Destination: "JFK",
          ScheduledDeparture: local16("FRA", std),
          ScheduledArrival: local16("JFK", std + 8 * HOUR),
          IsRoadFeederService: false,
        },
      ],
    });
  const deps = (changeObserver: ReturnType<typeof Observer>) => ({
    routeMaps,
    carriers: { get: async () => null },
    backoff: async () => undefined,
    changeObserver,
  });

  it("keeps the booking's predictions when the route map is first stored", async () => {
    const predictions = stores.dynamoPredictionStore();
    const wired = observer({ laneStats: stores.dynamoLaneStatsStore(), predictions });
    const now = iso(Date.now());
    const applied = await ingest(deps(wired), {
      carrierPrefix: "020",
      contentType: "application/json",
      body: booking("66666666", Date.now() + 6 * HOUR),
      now,
    });
    expect(applied.map((a) => a.changed)).toEqual([true]);
    const kept = await predictions.horizons({ prefix: "020", serial: "66666666" });
    expect(kept.map((h) => h.horizon)).toEqual(["Booking"]);
    expect(kept[0]?.madeAt).toBe(now);
    expect(Object.values(kept[0]?.milestones ?? {}).map((m) => m.name)).toContain("DLV");
  });

  it("stores the message and counts the failure when the observer's store fails", async () => {
    const points: MetricPoint[] = [];
    const failing = observer(
      {
        laneStats: stores.dynamoLaneStatsStore("NoSuchTable"),
        predictions: stores.dynamoPredictionStore("NoSuchTable"),
      },
      (p) => points.push(...p),
    );
    const applied = await ingest(deps(failing), {
      carrierPrefix: "020",
      contentType: "application/json",
      body: booking("77777770", Date.now() + 6 * HOUR),
      now: iso(Date.now()),
    });
    expect(applied.map((a) => a.changed)).toEqual([true]);
    expect(await routeMaps.get({ prefix: "020", serial: "77777770" })).not.toBeNull();
    expect(points).toEqual([{ name: "PredictionErrors", value: 1 }]);
  });
});

describe("the write cost of predictions", () => {
  const MINUTE = 60_000;
  const fsu = (serial: string, line: string) => `FSU/13\n020-${serial}FRAJFK/T10K250.0\n${line}\n`;
  const d = (station: string, ms: number) => `${localTime(station, ms).ddmmm}${localTime(station, ms).hhmm}`;
  /** A 2-leg journey flown yesterday, booked and reported message by message through to DLV. */
  function journey(serial: string, t0: number, late: number) {
    const sta1 = t0 + HOUR;
    const std2 = t0 + 3 * HOUR;
    const arr2 = std2 + 8 * HOUR + late * MINUTE;
    return {
      bookings: [
        fsu(
          serial,
          `BKD/LH992/${localTime("FRA", t0).ddmmm}/FRAAMS/T10K250.0/S${localTime("FRA", t0).hhmm}/S${localTime("AMS", sta1).hhmm}`,
        ),
        fsu(
          serial,
          `BKD/KL601/${localTime("AMS", std2).ddmmm}/AMSJFK/T10K250.0/S${localTime("AMS", std2).hhmm}/S${localTime("JFK", std2 + 8 * HOUR).hhmm}`,
        ),
      ],
      statuses: [
        `RCS/${d("FRA", t0 - 3 * HOUR)}/FRA/T10K250.0`,
        `DEP/LH992/${localTime("FRA", t0).ddmmm}/FRAAMS/T10K250.0/A${localTime("FRA", t0 + 10 * MINUTE).hhmm}`,
        `ARR/LH992/${d("AMS", sta1 + late * MINUTE)}/AMS/T10`,
        `RCF/LH992/${d("AMS", sta1 + 60 * MINUTE)}/AMS/T10`,
        `DEP/KL601/${localTime("AMS", std2).ddmmm}/AMSJFK/T10K250.0/A${localTime("AMS", std2 + 5 * MINUTE).hhmm}`,
        `ARR/KL601/${d("JFK", arr2)}/JFK/T10`,
        `RCF/KL601/${d("JFK", arr2 + HOUR)}/JFK/T10`,
        `NFD/${d("JFK", arr2 + 2 * HOUR)}/JFK/T10`,
        `AWD/${d("JFK", arr2 + 3 * HOUR)}/JFK/T10`,
        `DLV/${d("JFK", arr2 + 4 * HOUR)}/JFK/T10`,
      ].map((line) => fsu(serial, line)),
    };
  }

  it("is at most 2 write units per status message over journeys through to DLV", async () => {
    const { onConsumedCapacity } = await import("../../../functions/adapters/consumed-capacity.ts");
    const predictions = stores.dynamoPredictionStore();
    const wired = observer({ laneStats: stores.dynamoLaneStatsStore(), predictions });
    let units = 0;
    const stop = onConsumedCapacity((use) => {
      // Deliveries holds only the predictions' items in this test (no raw messages are kept).
      if (use.operation.startsWith("Deliveries.")) units += use.writeUnits;
    });
    let statuses = 0;
    try {
      const t0 = Math.floor(Date.now() / MINUTE) * MINUTE - 30 * HOUR;
      for (const [i, serial] of ["80000001", "80000012", "80000023", "80000034"].entries()) {
        const { bookings, statuses: lines } = journey(serial, t0 + i * 10 * MINUTE, 20 + 15 * i);
        for (const body of [...bookings, ...lines]) {
          const applied = await ingest(
            {
              routeMaps,
              carriers: { get: async () => null },
              backoff: async () => undefined,
              changeObserver: wired,
            },
            { carrierPrefix: "020", contentType: "text/plain", body, now: iso(Date.now()) },
          );
          expect(applied.map((a) => a.changed)).toEqual([true]);
        }
        statuses += lines.length;
        expect((await predictions.horizons({ prefix: "020", serial })).length).toBe(3);
      }
    } finally {
      stop();
    }
    const scored = await predictions.scored({ ownerKey: null, since: iso(Date.now() - HOUR) });
    expect(scored.filter((s) => s.awb.startsWith("0208000")).length).toBe(4);
    expect(units).toBeGreaterThan(0);
    expect(units / statuses).toBeLessThanOrEqual(2);
    process.stdout.write(
      `prediction write units per status message (4 journeys to DLV): ${(units / statuses).toFixed(2)}\n`,
    );
  });
});
