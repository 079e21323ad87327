/**
 * Predictions: a route map's predicted times and connections, the accuracy of scored predictions,
 * and a station's minimum connection time (support's PUT body).
 */
import * as v from "valibot";
import { DEFAULT_MINIMUM_CONNECTION_MINUTES } from "../../core/predictions/connections.ts";
import { MAX_MINIMUM_CONNECTION_MINUTES, SHIPMENT_LANE_PATTERN } from "../../core/predictions/eta-view.ts";
import { HORIZONS } from "../../core/predictions/scoring.ts";
import { plainObject } from "./plain-object.ts";

const Pair = v.nullable(
  v.pipe(
    v.object({ Utc: v.string(), Local: v.string() }),
    v.description("UTC (trailing Z, no milliseconds) and the station's local time (no offset)"),
  ),
);
const UtcStamp = v.pipe(v.string(), v.description("UTC, e.g. 2026-11-22T10:05:00Z"));
const MILESTONES = ["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"] as const;

export const EtaSchema = v.object({
  AirlinePrefix: v.string(),
  AwbNumber: v.string(),
  PredictedAt: UtcStamp,
  Milestones: v.array(
    v.object({
      Name: v.picklist(MILESTONES),
      Station: v.string(),
      Flight: v.pipe(
        v.nullable(v.string()),
        v.description("The leg's flight (LH400); null at origin and destination"),
      ),
      PlannedDateTime: Pair,
      ActualDateTime: Pair,
      PredictedDateTime: v.pipe(Pair, v.description("The median (P50) prediction; null once reported")),
      PredictedP90DateTime: v.pipe(
        Pair,
        v.description("Nine in ten happen by this time; null once reported"),
      ),
      Basis: v.object({
        Method: v.pipe(
          v.picklist(["actual", "lane", "plan"]),
          v.description("actual: reported; lane: learnt from completed route maps; plan: too few samples"),
        ),
        Lane: v.pipe(
          v.nullable(v.string()),
          v.description("The finest lane with samples (LH FRA-JFK LH400)"),
        ),
        Samples: v.number(),
      }),
    }),
  ),
  Connections: v.array(
    v.object({
      Station: v.string(),
      InboundFlight: v.string(),
      OutboundFlight: v.string(),
      PredictedArrival: v.pipe(
        Pair,
        v.description("The inbound flight's reported, else predicted (P50) arrival"),
      ),
      ArrivalReported: v.boolean(),
      ScheduledDeparture: Pair,
      MinimumConnectionMinutes: v.number(),
      SlackMinutes: v.pipe(
        v.nullable(v.number()),
        v.description("Minutes to spare beyond the minimum connection time (negative: short by that much)"),
      ),
      Risk: v.picklist(["Ok", "AtRisk", "Missed"]),
    }),
  ),
});

const Figures = v.object({
  Count: v.number(),
  MedianAbsoluteErrorMinutes: v.nullable(v.number()),
  P90AbsoluteErrorMinutes: v.nullable(v.number()),
  Coverage: v.pipe(
    v.nullable(v.number()),
    v.description("Share of actuals at or before the P90 time (the plan's: at or before the plan)"),
  ),
});

export const EtaAccuracySchema = v.object({
  Lane: v.nullable(v.string()),
  From: UtcStamp,
  RouteMaps: v.pipe(v.number(), v.description("Completed route maps scored since From")),
  Items: v.array(
    v.object({
      Milestone: v.picklist(MILESTONES),
      Horizon: v.pipe(
        v.picklist(HORIZONS),
        v.description("When the prediction was made: at booking, at the first DEP, at the last ARR"),
      ),
      Service: Figures,
      Plan: v.pipe(Figures, v.description("The plan alone, as if it were the prediction")),
    }),
  ),
});

/** `?lane=020 FRA-JFK`, optional. */
export const EtaAccuracyQuerySchema = v.pipe(
  v.object({
    lane: v.optional(
      v.pipe(
        v.string(),
        v.regex(SHIPMENT_LANE_PATTERN, "must be a lane as <prefix> <origin>-<destination>, e.g. 020 FRA-JFK"),
        v.description("One shipment lane: airline prefix, origin and destination (020 FRA-JFK)"),
      ),
    ),
  }),
  v.transform((query) => ({ lane: query.lane ?? null })),
);

export const StationSettingsSchema = plainObject(
  v.object({
    MinimumConnectionMinutes: v.pipe(
      v.number("must be a whole number of minutes"),
      v.integer("must be a whole number of minutes"),
      v.minValue(0, "must be at least 0"),
      v.maxValue(MAX_MINIMUM_CONNECTION_MINUTES, `must be at most ${MAX_MINIMUM_CONNECTION_MINUTES} (a day)`),
      v.description(
        `Minutes a transfer needs at this station; ${DEFAULT_MINIMUM_CONNECTION_MINUTES} where support set none`,
      ),
    ),
  }),
);

export const StationSchema = v.object({
  Station: v.string(),
  MinimumConnectionMinutes: v.number(),
  UpdatedAt: UtcStamp,
});
