/**
 * Connections of a route map: at each transfer station, the slack the inbound flight's reported (else
 * predicted P50) arrival leaves beyond the station's minimum connection time before the onward
 * flight's scheduled departure, and the risk of missing it.
 *
 * The risk weighs both flights as predicted: the shipment misses when the inbound arrival plus the
 * minimum connection time comes after the onward flight's actual departure (a late onward flight
 * waits, in effect). Each side is taken as normal around its P50 with the spread its P90 states (a
 * reported time: none), so the chance of a miss is Phi(-margin / spread).
 *
 * - Ok: a miss is less likely than AT_RISK_PROBABILITY, or the onward flight was reported departed.
 * - AtRisk: a miss is at least that likely and the onward departure is not reported.
 * - Missed: the inbound arrival was reported after the onward flight's scheduled departure and the
 *   onward departure is not reported (the shipment cannot have been on board as scheduled).
 */
import type { ShipmentState } from "../route-map/shipment-state.ts";
import { minutesBetween } from "./journey.ts";
import type { MilestonePrediction } from "./predict.ts";

/** Minimum connection time where support set none (minutes): a common airline figure for cargo transfers. */
export const DEFAULT_MINIMUM_CONNECTION_MINUTES = 120;

/** Chance of a miss from which a connection is AtRisk: a miss is more likely than not. */
export const AT_RISK_PROBABILITY = 0.5;

/** z of the 90th percentile of a normal distribution: P90 - P50 = 1.2816 standard deviations. */
const Z90 = 1.2816;

/** Standard normal cumulative distribution (Abramowitz-Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * The chance (0..1) that the shipment misses the onward flight: that the inbound arrival plus the
 * minimum connection time comes after the onward departure, each normal around its P50 with a
 * spread of (P90 - P50) / 1.2816 (0 when reported).
 */
export function missProbability(
  arrival: { p50Utc: string; p90Utc: string | null },
  departure: { p50Utc: string; p90Utc: string | null },
  minimumConnectionMinutes: number,
): number {
  const margin = minutesBetween(arrival.p50Utc, departure.p50Utc) - minimumConnectionMinutes;
  const spread = (p: { p50Utc: string; p90Utc: string | null }) =>
    p.p90Utc === null ? 0 : Math.max(0, minutesBetween(p.p50Utc, p.p90Utc)) / Z90;
  const sd = Math.hypot(spread(arrival), spread(departure));
  if (sd === 0) return margin < 0 ? 1 : 0;
  return normalCdf(-margin / sd);
}

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
  /** The onward departure as predicted (P50; the scheduled one without a prediction), null without either. */
  predictedDepartureUtc: string | null;
  /** Chance of a miss (0..1, two decimals); null without an arrival or a departure to compare. */
  missProbability: number | null;
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
    const arrival = arr?.actualUtc
      ? { p50Utc: arr.actualUtc, p90Utc: null }
      : arr?.p50Utc
        ? { p50Utc: arr.p50Utc, p90Utc: arr.p90Utc }
        : null;
    const departure = dep?.p50Utc
      ? { p50Utc: dep.p50Utc, p90Utc: dep.p90Utc }
      : std !== null
        ? { p50Utc: std, p90Utc: null }
        : null;
    const chance =
      arrival && departure ? Math.round(missProbability(arrival, departure, minimum) * 100) / 100 : null;
    let risk: ConnectionRisk = "Ok";
    if (!departed && arrivalReported && std !== null && arrivalUtc !== null && arrivalUtc > std)
      risk = "Missed";
    else if (!departed && chance !== null && chance >= AT_RISK_PROBABILITY) risk = "AtRisk";
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
      predictedDepartureUtc: departure?.p50Utc ?? null,
      missProbability: chance,
      risk,
    });
  }
  return connections;
}
