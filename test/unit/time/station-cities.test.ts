/**
 * IATA city codes and their airports (STO: ARN BMA NYO VST): the rules that turn OpenTravelData's
 * points of reference into the generated table, the table itself, and the one-place relation.
 */
import { describe, expect, it } from "vitest";
import { buildCityIndex, readCaretRows } from "../../../functions/core/time/city-index.ts";
import { airportsOf, mainAirportOf, samePlace } from "../../../functions/core/time/places.ts";
import { STATION_CITIES } from "../../../functions/core/time/station-cities.generated.ts";
import { stationTimeZone } from "../../../functions/core/time/time-zones.ts";

/** Rows in the dataset's own form (optd_por_best_known_so_far.csv, ref_airport_pageranked.csv). */
const POR = `pk^iata_code^latitude^longitude^city_code^date_from
ARN-A-2725346^ARN^59.651944^17.918611^STO^
ARN-R-8335457^ARN^59.649^17.929^STO^
BMA-A-2719114^BMA^59.354372^17.94165^STO^
NYO-A-6296795^NYO^58.788636^16.912189^STO^
STO-C-2673730^STO^59.33258^18.0649^STO^
VST-A-6296807^VST^59.589444^16.633611^STO^
XEV-R-8335458^XEV^59.33^18.05^STO^
PVG-A-6301386^PVG^31.143378^121.805214^SHA^
SHA-A-6301388^SHA^31.197875^121.336319^SHA^
SHA-C-1796236^SHA^31.22222^121.45806^SHA^
AAL-A-2624887^AAL^57.092789^9.849164^AAL^
AAL-C-2624886^AAL^57.092789^9.849164^AAL^
ADJ-A-250437^ADJ^31.9727^35.99157^AMM,ADJ^
AMM-CA-250441^AMM^31.72^35.99^AMM^`;
const RANKS = `pk^por_code^pr_seats^pr_freq
SHA-C-1796236^SHA^0^0.30543365749064827
PVG-A-6301386^PVG^0^0.29017691905919235
ARN-A-2725346^ARN^0^0.21669747910387982
SHA-A-6301388^SHA^0^0.16749317532302482
BMA-A-2719114^BMA^0^0.04363230106381146
AMM-CA-250441^AMM^0^0.1
NYO-A-6296795^NYO^0^0.012927619890300102`;

const rows = () => ({
  points: readCaretRows(POR).map(([pk = "", code = "", , , cities = ""]) => ({ pk, code, cities })),
  ranks: readCaretRows(RANKS).map(([pk = "", , , freq = "0"]) => ({ pk, rank: Number(freq) })),
});

describe("the OpenTravelData rules", () => {
  it("make a city of every code with a city row and the airports that serve it, the busiest first", () => {
    const { points, ranks } = rows();
    const index = buildCityIndex(points, ranks);
    // Rail stations (ARN-R, XEV-R) are no airports; VST has no rank and sorts after the ranked ones.
    expect(index.get("STO")).toEqual(["ARN", "BMA", "NYO", "VST"]);
    // A city whose code is an airport too keeps it; the city row's own rank does not count.
    expect(index.get("SHA")).toEqual(["PVG", "SHA"]);
    // An airport serving two cities joins the other one; a city served by itself alone is left out.
    expect(index.get("AMM")).toEqual(["AMM", "ADJ"]);
    expect(index.has("AAL")).toBe(false);
    expect(index.has("ADJ")).toBe(false);
  });
});

describe("the generated table", () => {
  it("holds IATA's multi-airport cities with their airports", () => {
    const members = (city: string) => [...airportsOf(city)].sort();
    expect(members("STO")).toEqual(["ARN", "BMA", "NYO", "VST"]);
    for (const [city, airports] of Object.entries({
      LON: ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"],
      NYC: ["JFK", "LGA", "EWR"],
      TYO: ["NRT", "HND"],
      PAR: ["CDG", "ORY", "BVA"],
      MIL: ["MXP", "LIN", "BGY"],
      WAS: ["IAD", "DCA", "BWI"],
      CHI: ["ORD", "MDW"],
      ROM: ["FCO", "CIA"],
      OSA: ["KIX", "ITM"],
      SAO: ["GRU", "CGH", "VCP"],
      RIO: ["GIG", "SDU"],
      BUE: ["EZE", "AEP"],
      MOW: ["SVO", "DME", "VKO"],
      SEL: ["ICN", "GMP"],
      BJS: ["PEK", "PKX"],
      SHA: ["PVG", "SHA"],
    }))
      expect(members(city), city).toEqual(expect.arrayContaining(airports));
    expect(mainAirportOf("LON")).toBe("LHR");
    expect(mainAirportOf("NYC")).toBe("JFK");
    expect(mainAirportOf("FRA")).toBe("FRA");
  });

  it("places a city code that is no airport itself in its main airport's zone", () => {
    const unplaced: string[] = [];
    let cityOnly = 0;
    for (const [city, codes] of Object.entries(STATION_CITIES)) {
      const airports = codes.split(" ");
      const [main = ""] = airports;
      // A code that is an airport too (SHA, FRA) keeps its own zone.
      if (airports.includes(city)) continue;
      cityOnly += 1;
      if (stationTimeZone(main) === null) unplaced.push(`${city}:${main}`);
      else expect(stationTimeZone(city), city).toBe(stationTimeZone(main));
    }
    expect(cityOnly).toBeGreaterThan(30);
    expect(stationTimeZone("STO")).toBe("Europe/Stockholm");
    // OpenTravelData knows a few airports the zone dataset does not: they stay unplaceable, as before.
    expect(unplaced.length).toBeLessThan(10);
  });
});

describe("one place", () => {
  it("joins a city and each of its airports, both ways, and nothing else", () => {
    expect(samePlace("STO", "ARN")).toBe(true);
    expect(samePlace("ARN", "STO")).toBe(true);
    expect(samePlace("SHA", "PVG")).toBe(true);
    expect(samePlace("FRA", "FRA")).toBe(true);
    // Two airports of one city are two places: a flight to LHR does not land at LGW.
    expect(samePlace("LHR", "LGW")).toBe(false);
    expect(samePlace("ARN", "BMA")).toBe(false);
    expect(samePlace("STO", "LHR")).toBe(false);
    expect(samePlace("FRA", "JFK")).toBe(false);
  });
});
