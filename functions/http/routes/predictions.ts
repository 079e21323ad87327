/** The prediction routes: one AWB's predicted times, their accuracy, stations' minimum connection times. */
import { DEFAULT_MINIMUM_CONNECTION_MINUTES } from "../../core/predictions/connections.ts";
import {
  EtaAccuracyQuerySchema,
  EtaAccuracySchema,
  EtaSchema,
  StationSchema,
  StationSettingsSchema,
} from "../schemas/predictions.ts";
import { component, type RouteApis } from "./route-api.ts";

const pair = (Utc: string, Local: string) => ({ Utc, Local });
const figures = (Count: number, median: number, p90: number, Coverage: number) => ({
  Count,
  MedianAbsoluteErrorMinutes: median,
  P90AbsoluteErrorMinutes: p90,
  Coverage,
});

export const PREDICTION_ROUTES = {
  "get-route-map-eta": {
    summary:
      "Predicted times of one AWB's milestones not reported yet (P50 and P90, from the lateness of completed " +
      "route maps on the same lanes, shrunk toward the plan when samples are few; a reported delay moves " +
      "everything after it) and its connections with their slack and risk. For whoever may read the route " +
      "map (its owner, an XTD reader; else 404) and support. Predictions are estimates: " +
      "GET .../eta/accuracy states how accurate they were.",
    tag: "route maps",
    response: component("RouteMapEta", EtaSchema, {
      AirlinePrefix: "020",
      AwbNumber: "12345675",
      PredictedAt: "2026-11-28T09:00:00Z",
      Milestones: [
        {
          Name: "ARR",
          Station: "AMS",
          Flight: "LH992",
          PlannedDateTime: pair("2026-11-28T10:05:00Z", "2026-11-28T11:05:00"),
          ActualDateTime: null,
          PredictedDateTime: pair("2026-11-28T10:40:00Z", "2026-11-28T11:40:00"),
          PredictedP90DateTime: pair("2026-11-28T11:35:00Z", "2026-11-28T12:35:00"),
          Basis: { Method: "lane", Lane: "LH FRA-AMS LH992", Samples: 42 },
        },
      ],
      Connections: [
        {
          Station: "AMS",
          InboundFlight: "LH992",
          OutboundFlight: "KL601",
          PredictedArrival: pair("2026-11-28T10:40:00Z", "2026-11-28T11:40:00"),
          ArrivalReported: false,
          ScheduledDeparture: pair("2026-11-28T12:10:00Z", "2026-11-28T13:10:00"),
          MinimumConnectionMinutes: DEFAULT_MINIMUM_CONNECTION_MINUTES,
          SlackMinutes: -30,
          Risk: "AtRisk",
        },
      ],
    }),
    errors: [400, 404],
  },
  "get-eta-accuracy": {
    summary:
      "How accurate the predictions were over the last 30 days, per milestone and horizon (made at booking, " +
      "at the first DEP, at the last ARR): count, median and P90 absolute error in minutes and the share of " +
      "actuals by the P90 time, beside the plan alone. A forwarder sees its own shipments, support all; " +
      "?lane= narrows to one shipment lane.",
    tag: "route maps",
    query: EtaAccuracyQuerySchema,
    response: component("EtaAccuracy", EtaAccuracySchema, {
      Lane: "020 FRA-JFK",
      From: "2026-10-29T09:00:00Z",
      RouteMaps: 120,
      Items: [
        {
          Milestone: "DLV",
          Horizon: "FirstDeparture",
          Service: figures(120, 95, 410, 0.9),
          Plan: figures(120, 1460, 3900, 0.31),
        },
      ],
    }),
    errors: [400],
  },
  "put-station": {
    summary:
      "Set a station's minimum connection time (minutes, 0 to 1440), against which connections there are " +
      `judged at risk; ${DEFAULT_MINIMUM_CONNECTION_MINUTES} minutes where none is set.`,
    tag: "support",
    body: component("StationSettings", StationSettingsSchema, { MinimumConnectionMinutes: 90 }),
    response: component("Station", StationSchema, {
      Station: "AMS",
      MinimumConnectionMinutes: 90,
      UpdatedAt: "2026-11-28T09:00:00Z",
    }),
    errors: [400],
  },
} satisfies RouteApis;
