/**
 * The answers of the ETA routes, as the API spells them: a route map's milestones with their plan,
 * actual and predicted (P50, P90) times as date-time pairs and the basis of each prediction, and its
 * connections with their slack and risk; the accuracy of scored predictions per milestone and horizon.
 */
import type { DateTimePair } from "../route-map/spec-types.ts";
import { toPair } from "../time/station-time.ts";
import type { Connection, ConnectionRisk } from "./connections.ts";
import type { PredictedMilestoneName } from "./journey.ts";
import type { MilestonePrediction, PredictionMethod } from "./predict.ts";

export interface EtaMilestoneBody {
  Name: PredictedMilestoneName;
  Station: string;
  Flight: string | null;
  PlannedDateTime: DateTimePair | null;
  ActualDateTime: DateTimePair | null;
  PredictedDateTime: DateTimePair | null;
  PredictedP90DateTime: DateTimePair | null;
  Basis: { Method: PredictionMethod; Lane: string | null; Samples: number };
}

export interface EtaConnectionBody {
  Station: string;
  InboundFlight: string;
  OutboundFlight: string;
  PredictedArrival: DateTimePair | null;
  /** The inbound arrival was reported (PredictedArrival is then the actual arrival). */
  ArrivalReported: boolean;
  ScheduledDeparture: DateTimePair | null;
  MinimumConnectionMinutes: number;
  SlackMinutes: number | null;
  Risk: ConnectionRisk;
}

export interface EtaBody {
  AirlinePrefix: string;
  AwbNumber: string;
  /** When these predictions were computed (UTC). */
  PredictedAt: string;
  Milestones: EtaMilestoneBody[];
  Connections: EtaConnectionBody[];
}

/** A UTC instant as the pair at its station; a station without a known zone shows UTC as local. */
export function pairAt(station: string, utc: string | null): DateTimePair | null {
  if (utc === null) return null;
  try {
    return toPair(station, utc);
  } catch {
    return { Utc: utc, Local: utc.replace(/Z$/, "") };
  }
}

export function etaBody(
  awb: { prefix: string; serial: string },
  predictions: readonly MilestonePrediction[],
  connections: readonly Connection[],
  now: string,
): EtaBody {
  return {
    AirlinePrefix: awb.prefix,
    AwbNumber: awb.serial,
    PredictedAt: now,
    Milestones: predictions.map((p) => ({
      Name: p.name,
      Station: p.station,
      Flight: p.flight,
      PlannedDateTime: pairAt(p.station, p.plannedUtc),
      ActualDateTime: pairAt(p.station, p.actualUtc),
      PredictedDateTime: pairAt(p.station, p.p50Utc),
      PredictedP90DateTime: pairAt(p.station, p.p90Utc),
      Basis: { Method: p.method, Lane: p.lane, Samples: p.samples },
    })),
    Connections: connections.map((c) => ({
      Station: c.station,
      InboundFlight: c.inboundFlight,
      OutboundFlight: c.outboundFlight,
      PredictedArrival: pairAt(c.station, c.arrivalUtc),
      ArrivalReported: c.arrivalReported,
      ScheduledDeparture: pairAt(c.station, c.scheduledDepartureUtc),
      MinimumConnectionMinutes: c.minimumConnectionMinutes,
      SlackMinutes: c.slackMinutes,
      Risk: c.risk,
    })),
  };
}

/** A shipment lane as scored route maps name it: "020 FRA-JFK" (prefix, origin, destination). */
export const SHIPMENT_LANE_PATTERN = /^\d{3} [A-Z]{3}-[A-Z]{3}$/;
/** Minimum connection minutes support may set: none to a day. */
export const MAX_MINIMUM_CONNECTION_MINUTES = 1440;
