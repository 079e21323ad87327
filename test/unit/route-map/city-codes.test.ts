/**
 * Stations as carriers use them: an AWB to the city STO whose events come from its airport ARN (and
 * one from the city LON, leaving from LHR). Every milestone reaches the route map, shown at the
 * airport where it happened; the shipment is at its destination once it arrived at ARN.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { Milestone } from "../../../functions/core/route-map/spec-types.ts";
import { AWB, harness } from "../use-cases/support.ts";

const NOW = "2026-03-15T18:00:00Z";
const fsu = (route: string, line: string) => `FSU/15\n020-12345675${route}/T10K250.0\n${line}\n`;
const byName = (milestones: readonly Milestone[]) =>
  Object.fromEntries(milestones.map((m) => [m.Name, [m.Station, m.ActualDateTime?.Local ?? null]]));

async function routeMap(h: ReturnType<typeof harness>) {
  const record = await h.routeMaps.get(AWB);
  if (!record) throw new Error("no route map");
  return renderRouteMap(record.state, NOW);
}

describe("an AWB to a city code", () => {
  const ARRIVALS = [
    "ARR/LH800/14MAR/ARN/T10/A0840",
    "RCF/LH800/14MAR/ARN/T10/A0930",
    "NFD/14MAR1000/ARN/T10",
    "AWD/14MAR1100/ARN/T10",
    "DLV/14MAR1200/ARN/T10/ACME",
  ];

  for (const [booked, legTo] of [
    ["to the city", "FRASTO"],
    ["to the airport", "FRAARN"],
  ] as const) {
    it(`shows every event at ARN on a flight booked ${booked}`, async () => {
      const h = harness();
      await h.imp(fsu("FRASTO", `BKD/LH800/14MAR/${legTo}/T10K250.0/S0600/S0830`), "2026-03-13T10:00:00Z");
      await h.imp(
        fsu("FRASTO", `DEP/LH800/14MAR/FRA${legTo.slice(3)}/T10K250.0/A0610`),
        "2026-03-14T05:15:00Z",
      );
      for (const line of ARRIVALS) {
        const applied = await h.imp(fsu("FRASTO", line), "2026-03-14T11:30:00Z");
        expect(applied[0]?.events, line).toEqual([line.slice(0, 3)]);
      }
      const map = await routeMap(h);
      const flight = map.MilestonePlan.RoutingCycle.Flight;
      expect(flight).toHaveLength(1);
      expect(byName(flight[0]?.Milestone ?? [])).toEqual({
        DEP: ["FRA", "2026-03-14T06:10:00"],
        ARR: ["ARN", "2026-03-14T08:40:00"],
        RCF: ["ARN", "2026-03-14T09:30:00"],
      });
      expect(byName(map.MilestonePlan.DestinationCycle.Milestone)).toEqual({
        NFD: ["ARN", "2026-03-14T10:00:00"],
        AWD: ["ARN", "2026-03-14T11:00:00"],
        DLV: ["ARN", "2026-03-14T12:00:00"],
      });
      expect(map.MilestonePlan.DestinationCycle.Milestone.every((m) => m.Status === "Ok")).toBe(true);
      expect(map.Status).toBe("AtDestination");
      expect(map.Shipment.Routing).toEqual({ Origin: "FRA", Destination: "STO" });
    });
  }

  it("is at its destination once it arrived at an airport of the city, without a booking", async () => {
    const h = harness();
    await h.imp(fsu("FRASTO", "DEP/LH800/14MAR/FRAARN/T10K250.0/A0610"), "2026-03-14T05:15:00Z");
    await h.imp(fsu("FRASTO", "ARR/LH800/14MAR/ARN/T10/A0840"), "2026-03-14T07:45:00Z");
    expect((await routeMap(h)).Status).toBe("AtDestination");
  });

  it("places the Cargo-IMP manual's FSA/15 AWD at ARN for an AWB to STO", async () => {
    const h = harness();
    const body = readFileSync(
      new URL("../../fixtures/real/cimp-fsa-15-gumraq-18.txt", import.meta.url),
      "utf8",
    );
    await h.imp(body.replace("057-", "020-"), "2026-07-17T15:00:00Z");
    const map = await routeMap(h);
    expect(byName(map.MilestonePlan.DestinationCycle.Milestone).AWD).toEqual(["ARN", "2026-07-17T15:30:00"]);
  });

  it("leaves from an airport of its origin city: a single-leg booking from LHR completes the itinerary", async () => {
    const h = harness();
    const lon = (line: string) => `FSU/15\n020-12345675LONSTO/T10K250.0\n${line}\n`;
    await h.imp(lon("BKD/BA770/14MAR/LHRARN/T10K250.0/S0700/S1030"), "2026-03-13T10:00:00Z");
    await h.imp(lon("RCS/14MAR0400/LHR/T10"), "2026-03-14T04:10:00Z");
    const map = await routeMap(h);
    expect(byName(map.MilestonePlan.OriginCycle.Milestone).RCS).toEqual(["LHR", "2026-03-14T04:00:00"]);
    expect(map.MilestonePlan.OriginCycle.Milestone.find((m) => m.Name === "RCS")?.Status).toBe("Ok");
  });
});
