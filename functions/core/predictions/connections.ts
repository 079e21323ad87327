/**
 * Connections of a route map: at each transfer station, whether the inbound flight's reported (else
 * predicted P50) arrival leaves the station's minimum connection time before the onward flight's
 * scheduled departure.
 *
 * - Ok: it does, or the onward flight was reported departed with the shipment.
 * - AtRisk: it does not (SlackMinutes < 0) and the onward departure is not reported.
 * - Missed: the inbound arrival was reported after the onward flight's scheduled departure and the
 *   onward departure is not reported (the shipment cannot have been on board as scheduled).
 */
import type { ShipmentState } from "../route-map/shipment-state.ts";
import { minutesBetween } from "./journey.ts";
import type { MilestonePrediction } from "./predict.ts";

/** Minimum connection time where support set none (minutes): a common airline figure for cargo transfers. */
export const DEFAULT_MINIMUM_CONNECTION_MINUTES = 120;

export type ConnectionRisk = "Ok" | "AtRisk" | "Missed";

export interface Connection {
  station: string;
  legIndex: number;
  inboundFlight: string;
  outboundFlight: string;
  /** Reported arrival of the inbound flight, else its predicted P50; null without either. */
  arrivalUtc: string | null;
  arrivalReported: boolean;
  scheduledDepartureUtc: string | null;
  minimumConnectionMinutes: number;
  /** Minutes to spare beyond the minimum connection time (negative: short by that much). */
  slackMinutes: number | null;
  risk: ConnectionRisk;
}

/** Minimum connection minutes by station code, as support set them. */
export type MinimumConnectionTimes = ReadonlyMap<string, number>;

export function connectionsOf(
  state: Pick<ShipmentState, "legs">,
  predictions: readonly MilestonePrediction[],
  minimums: MinimumConnectionTimes,
): Connection[] {
  const connections: Connection[] = [];
  for (let i = 1; i < state.legs.length; i++) {
    const inbound = state.legs[i - 1];
    const onward = state.legs[i];
    if (!inbound || !onward) continue;
    const arr = predictions.find((p) => p.name === "ARR" && p.legIndex === i - 1);
    const dep = predictions.find((p) => p.name === "DEP" && p.legIndex === i);
    const arrivalUtc = arr?.actualUtc ?? arr?.p50Utc ?? null;
    const arrivalReported = (arr?.actualUtc ?? null) !== null;
    const std = onward.stdUtc;
    const minimum = minimums.get(onward.origin) ?? DEFAULT_MINIMUM_CONNECTION_MINUTES;
    const slack =
      arrivalUtc !== null && std !== null ? Math.round(minutesBetween(arrivalUtc, std)) - minimum : null;
    const departed = (dep?.actualUtc ?? null) !== null;
    let risk: ConnectionRisk = "Ok";
    if (!departed && slack !== null && slack < 0) {
      risk = arrivalReported && std !== null && arrivalUtc !== null && arrivalUtc > std ? "Missed" : "AtRisk";
    }
    connections.push({
      station: onward.origin,
      legIndex: i,
      inboundFlight: `${inbound.carrierCode}${inbound.flightNumber}`,
      outboundFlight: `${onward.carrierCode}${onward.flightNumber}`,
      arrivalUtc,
      arrivalReported,
      scheduledDepartureUtc: std,
      minimumConnectionMinutes: minimum,
      slackMinutes: slack,
      risk,
    });
  }
  return connections;
}
