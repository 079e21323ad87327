import { describe, expect, it } from "vitest";
import {
  AT_RISK_PROBABILITY,
  connectionsOf,
  DEFAULT_MINIMUM_CONNECTION_MINUTES,
  missProbability,
  normalCdf,
} from "../../../functions/core/predictions/connections.ts";
import { journeyOf } from "../../../functions/core/predictions/journey.ts";
import { predictRouteMap } from "../../../functions/core/predictions/predict.ts";
import { booking, FRA_JFK, MUC_FRA, plus, stateAfter, status } from "./support.ts";

const minutes = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;

async function connectionAfter(messages: Parameters<typeof stateAfter>[0], now: string, mct?: number) {
  const state = await stateAfter([booking(), ...messages]);
  const minimums = new Map(mct === undefined ? [] : [["FRA", mct]]);
  const [connection] = connectionsOf(state, predictRouteMap(state, new Map(), now), minimums);
  return { connection, state };
}

describe("connectionsOf", () => {
  it("states the slack the plan leaves at the transfer beyond the default minimum connection time", async () => {
    const { connection, state } = await connectionAfter([], "2026-11-22T00:00:00Z");
    const arrPlan = journeyOf(state).find((m) => m.key === "MUC:ARR")?.plannedUtc as string;
    expect(DEFAULT_MINIMUM_CONNECTION_MINUTES).toBe(120);
    expect(connection).toMatchObject({
      station: "FRA",
      legIndex: 1,
      inboundFlight: "LH100",
      outboundFlight: "LH400",
      arrivalUtc: arrPlan,
      arrivalReported: false,
      scheduledDepartureUtc: FRA_JFK.stdUtc,
      minimumConnectionMinutes: 120,
      slackMinutes: minutes(arrPlan, FRA_JFK.stdUtc) - 120,
      risk: "Ok",
    });
  });

  it("uses the station's minimum connection time where support set one", async () => {
    const { connection } = await connectionAfter([], "2026-11-22T00:00:00Z", 45);
    expect(connection?.minimumConnectionMinutes).toBe(45);
  });

  it("is AtRisk when the inbound arrival leaves less than the minimum before the onward departure", async () => {
    // Planned ARR 08:00 (STA + 60); reported departed 100 min late: arrival predicted 09:40, onward STD 10:00.
    const dep = plus(MUC_FRA.stdUtc, 60 + 100);
    const { connection } = await connectionAfter([status("DEP", "MUC", dep, MUC_FRA)], plus(dep, 10));
    expect(connection?.slackMinutes).toBe(20 - 120);
    expect(connection?.risk).toBe("AtRisk");
    expect(connection?.missProbability).toBeGreaterThanOrEqual(AT_RISK_PROBABILITY);
  });

  it("is Ok while the reported departure leaves enough time", async () => {
    const dep = plus(MUC_FRA.stdUtc, 60 - 60);
    const { connection } = await connectionAfter([status("DEP", "MUC", dep, MUC_FRA)], plus(dep, 10));
    expect(connection?.risk).toBe("Ok");
  });

  it("is Missed once the inbound arrived after the onward departure without it departing, Ok once it departed", async () => {
    const arr = plus(FRA_JFK.stdUtc, 30);
    const missed = await connectionAfter([status("ARR", "FRA", arr, MUC_FRA)], plus(arr, 10));
    expect(missed.connection).toMatchObject({ risk: "Missed", arrivalReported: true, arrivalUtc: arr });
    const flown = await connectionAfter(
      [status("ARR", "FRA", arr, MUC_FRA), status("DEP", "FRA", plus(arr, 60), FRA_JFK)],
      plus(arr, 70),
    );
    expect(flown.connection?.risk).toBe("Ok");
  });

  it("is AtRisk from even odds of a miss, weighing both flights' spread", async () => {
    const state = await stateAfter([booking()]);
    const predicted = predictRouteMap(state, new Map(), "2026-11-22T00:00:00Z");
    // Inbound predicted to arrive at 08:30 (P90 09:30), onward to leave at 10:20 (P90 11:00): with
    // 120 minutes to connect the margin is -10 minutes, a miss a little more likely than not.
    const adjusted = (arrivalP50: string) =>
      predicted.map((p) =>
        p.key === "MUC:ARR"
          ? { ...p, p50Utc: arrivalP50, p90Utc: plus(arrivalP50, 60) }
          : p.key === "FRA:DEP"
            ? { ...p, p50Utc: "2026-11-23T10:20:00Z", p90Utc: "2026-11-23T11:00:00Z" }
            : p,
      );
    const [tight] = connectionsOf(state, adjusted("2026-11-23T08:30:00Z"), new Map());
    expect(tight?.missProbability).toBeGreaterThan(0.5);
    expect(tight?.missProbability).toBeLessThan(0.7);
    expect(tight?.risk).toBe("AtRisk");
    // Spreads (P90 - P50) / 1.2816 of both flights add as independent: sqrt(46.8^2 + 31.2^2) = 56.3 min.
    const sd = Math.hypot(60 / 1.2816, 40 / 1.2816);
    expect(tight?.missProbability).toBe(Math.round(normalCdf(10 / sd) * 100) / 100);
    expect(tight?.predictedDepartureUtc).toBe("2026-11-23T10:20:00Z");
    // 30 minutes earlier: a miss is possible (about a third) but not likely.
    const [possible] = connectionsOf(state, adjusted("2026-11-23T08:00:00Z"), new Map());
    expect(possible?.missProbability).toBeGreaterThan(0.2);
    expect(possible?.missProbability).toBeLessThan(0.5);
    expect(possible?.risk).toBe("Ok");
  });

  it("has no connection on a direct flight", async () => {
    const state = await stateAfter([booking([FRA_JFK])]);
    expect(
      connectionsOf(state, predictRouteMap(state, new Map(), "2026-11-22T00:00:00Z"), new Map()),
    ).toEqual([]);
  });
});

describe("missProbability", () => {
  const at = (minute: number) => plus("2026-11-23T08:00:00Z", minute);
  it("is certain either way when both times are known", () => {
    expect(missProbability({ p50Utc: at(0), p90Utc: null }, { p50Utc: at(119), p90Utc: null }, 120)).toBe(1);
    expect(missProbability({ p50Utc: at(0), p90Utc: null }, { p50Utc: at(121), p90Utc: null }, 120)).toBe(0);
  });

  it("is even at no margin and grows with the spread of an inbound that may be late", () => {
    expect(
      missProbability({ p50Utc: at(0), p90Utc: at(60) }, { p50Utc: at(120), p90Utc: null }, 120),
    ).toBeCloseTo(0.5, 5);
    const narrow = missProbability({ p50Utc: at(0), p90Utc: at(10) }, { p50Utc: at(180), p90Utc: null }, 120);
    const wide = missProbability({ p50Utc: at(0), p90Utc: at(120) }, { p50Utc: at(180), p90Utc: null }, 120);
    expect(narrow).toBeLessThan(0.001);
    // Margin 60 = 0.64 standard deviations of 93.6 min: about 26%.
    expect(wide).toBeCloseTo(1 - normalCdf(60 / (120 / 1.2816)), 5);
    expect(wide).toBeGreaterThan(0.2);
  });

  it("normalCdf is the standard normal distribution", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.2816)).toBeCloseTo(0.9, 3);
    expect(normalCdf(-1.96)).toBeCloseTo(0.025, 3);
  });
});
