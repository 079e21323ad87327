/**
 * Stations as carriers use them: an IATA city code (STO) and the airports serving it (ARN, BMA, NYO,
 * VST) are one place for planning and placement. An AWB may name the city as its destination while
 * every event comes from an airport; a booking may name either. The table is generated from
 * OpenTravelData (station-cities.generated.ts, bin/generate-station-cities.ts).
 *
 * The relation joins a city with its airports only, never two airports of one city with each other
 * (LHR and LGW stay two places: a flight to one does not land at the other).
 */
import { STATION_CITIES } from "./station-cities.generated.ts";

let citiesByAirport: Map<string, string[]> | null = null;
let airportsByCity: Map<string, string[]> | null = null;

function indexes(): { byAirport: Map<string, string[]>; byCity: Map<string, string[]> } {
  if (citiesByAirport && airportsByCity) return { byAirport: citiesByAirport, byCity: airportsByCity };
  const byAirport = new Map<string, string[]>();
  const byCity = new Map<string, string[]>();
  for (const [city, codes] of Object.entries(STATION_CITIES)) {
    const airports = codes.split(" ");
    byCity.set(city, airports);
    for (const airport of airports) {
      if (airport !== city) byAirport.set(airport, [...(byAirport.get(airport) ?? []), city]);
    }
  }
  citiesByAirport = byAirport;
  airportsByCity = byCity;
  return { byAirport, byCity };
}

/** The airports serving a city code, the main one first; empty for a code that is no such city. */
export function airportsOf(city: string): readonly string[] {
  return indexes().byCity.get(city) ?? [];
}

/** The city's main airport when the code is a city served by other airports, else the code itself. */
export function mainAirportOf(code: string): string {
  return airportsOf(code)[0] ?? code;
}

/** Whether two station codes are one place: the same code, or a city and one of its airports. */
export function samePlace(a: string, b: string): boolean {
  if (a === b) return true;
  const { byAirport } = indexes();
  return (byAirport.get(a)?.includes(b) ?? false) || (byAirport.get(b)?.includes(a) ?? false);
}
