/**
 * Route maps for the predictions tests, built the way the service builds them: our JSON carrier form
 * through the real ingest use case into an in-memory repository. One AWB (020-12345675) flying
 * MUC-FRA on LH100 and FRA-JFK on LH400 on Monday 2026-11-23, times in UTC (given as station-local).
 */
import type { ShipmentState } from "../../../functions/core/route-map/shipment-state.ts";
import { toPair } from "../../../functions/core/time/station-time.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { memoryRouteMapRepository } from "../../support/memory/route-map-repository.ts";

export const SERIAL = "12345675";
const BASE = { AirlinePrefix: "020", AwbNumber: SERIAL, Origin: "MUC", Destination: "JFK", Pieces: 4 };

/** Station-local "YYYY-MM-DDTHH:MM" of a UTC instant. */
export const local = (station: string, utc: string) => toPair(station, utc).Local.slice(0, 16);

export interface LegPlan {
  flight: string;
  origin: string;
  destination: string;
  stdUtc: string;
  staUtc: string;
}

export const MUC_FRA: LegPlan = {
  flight: "LH100",
  origin: "MUC",
  destination: "FRA",
  stdUtc: "2026-11-23T06:00:00Z",
  staUtc: "2026-11-23T07:00:00Z",
};
export const FRA_JFK: LegPlan = {
  flight: "LH400",
  origin: "FRA",
  destination: "JFK",
  stdUtc: "2026-11-23T10:00:00Z",
  staUtc: "2026-11-23T18:00:00Z",
};

const legJson = (leg: LegPlan) => ({
  CarrierCode: leg.flight.slice(0, 2),
  FlightNumber: leg.flight.slice(2),
  Date: local(leg.origin, leg.stdUtc).slice(0, 10),
  Origin: leg.origin,
  Destination: leg.destination,
  ScheduledDeparture: local(leg.origin, leg.stdUtc),
  ScheduledArrival: local(leg.destination, leg.staUtc),
  IsRoadFeederService: false,
});

/** A message body and when the service receives it (UTC). */
export interface Message {
  body: Record<string, unknown>;
  at: string;
}

export const plus = (utc: string, minutes: number) =>
  new Date(Date.parse(utc) + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

export const booking = (
  legs: readonly LegPlan[] = [MUC_FRA, FRA_JFK],
  at = "2026-11-21T12:00:00Z",
): Message => ({
  body: {
    ...BASE,
    Type: "BKD",
    ...(legs !== undefined ? { WholeItinerary: true } : {}),
    Legs: legs.map(legJson),
  },
  at,
});

/** A status message at a UTC instant; `leg` names the flight of DEP/ARR/RCF. */
export const status = (type: string, station: string, utc: string, leg?: LegPlan): Message => ({
  body: {
    ...BASE,
    Type: type,
    Station: station,
    Time: local(station, utc),
    ...(leg
      ? {
          Flight: {
            CarrierCode: leg.flight.slice(0, 2),
            FlightNumber: leg.flight.slice(2),
            Date: local(leg.origin, leg.stdUtc).slice(0, 10),
          },
        }
      : {}),
  },
  at: plus(utc, 5),
});

/** The route map's state after the messages, each received when it says. */
export async function stateAfter(messages: readonly Message[]): Promise<ShipmentState> {
  const routeMaps = memoryRouteMapRepository();
  const deps = { routeMaps, carriers: { get: async () => null }, backoff: async () => {} };
  for (const message of messages) {
    const result = await ingestCarrierMessage(deps, {
      carrierPrefix: "020",
      contentType: "application/json",
      body: JSON.stringify(message.body),
      now: message.at,
    });
    if (result.length === 0) throw new Error(`not applied: ${JSON.stringify(message.body)}`);
  }
  const record = await routeMaps.get({ prefix: "020", serial: SERIAL });
  if (!record) throw new Error("no route map");
  return record.state;
}
