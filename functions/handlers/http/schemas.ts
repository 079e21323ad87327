/**
 * valibot schemas of the HTTP API: request bodies are parsed with them and the OpenAPI document is
 * generated from them, so documentation and validation cannot disagree.
 */
import * as v from "valibot";

export const PrefixSchema = v.pipe(v.string(), v.regex(/^\d{3}$/, "must be 3 digits"));

// ---- support: participating carriers -------------------------------------------------------------

export const CarrierSettingsSchema = v.strictObject({
  Name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "must not be empty"),
    v.maxLength(100, "at most 100 characters"),
  ),
  QualityProgram: v.boolean(),
  Xtd: v.boolean(),
});
export type CarrierSettings = v.InferOutput<typeof CarrierSettingsSchema>;

export const CarrierSchema = v.object({
  AirlinePrefix: PrefixSchema,
  Name: v.string(),
  QualityProgram: v.boolean(),
  Xtd: v.boolean(),
});

// ---- route map (response) ------------------------------------------------------------------------

const DateTimePairSchema = v.pipe(
  v.object({ Utc: v.string(), Local: v.string() }),
  v.description("UTC (trailing Z, no milliseconds) and the station's local time (no offset)"),
);
const NullablePair = v.nullable(DateTimePairSchema);
const TotalsSchema = v.object({
  NoOfPieces: v.number(),
  WeightCode: v.nullable(v.string()),
  Weight: v.nullable(v.number()),
  VolumeCode: v.nullable(v.string()),
  Volume: v.nullable(v.number()),
});
const MilestoneStatusSchema = v.pipe(
  v.picklist(["Ok", "Ko", "Missing", "Planned"]),
  v.description(
    "Ok in time, Ko late, Missing due and unreported, Planned neither due nor reported (extension)",
  ),
);
const MilestoneSchema = v.object({
  Status: MilestoneStatusSchema,
  ArchivedStatus: MilestoneStatusSchema,
  Name: v.picklist(["FWB", "LAT", "RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]),
  Station: v.string(),
  PlannedDateTime: NullablePair,
  ActualDateTime: NullablePair,
  IsReplanned: v.boolean(),
  ActualNoOfPieces: v.number(),
});
const CycleStatusSchema = v.picklist(["Planned", "Partial", "Completed"]);
const FlightTimesSchema = v.object({ DepartureDateTime: NullablePair, ArrivalDateTime: NullablePair });
const FlightSchema = v.object({
  FlightInfo: v.object({
    CarrierCode: v.string(),
    Number: v.string(),
    Date: v.pipe(v.string(), v.description("DDMMM, e.g. 14MAR")),
    Scheduled: FlightTimesSchema,
    Actual: v.nullable(FlightTimesSchema),
    Routing: v.object({ Origin: v.string(), Destination: v.string() }),
    isRoadFeederService: v.boolean(),
  }),
  Total: TotalsSchema,
  PlannedTotal: v.nullable(TotalsSchema),
  Milestone: v.array(MilestoneSchema),
});

export const RouteMapSchema = v.object({
  MilestonePlan: v.object({
    OriginCycle: v.object({
      Milestone: v.array(MilestoneSchema),
      Status: CycleStatusSchema,
      isReplanned: v.boolean(),
    }),
    RoutingCycle: v.object({
      Flight: v.array(FlightSchema),
      Status: CycleStatusSchema,
      isReplanned: v.boolean(),
    }),
    DestinationCycle: v.object({
      Milestone: v.array(MilestoneSchema),
      Status: CycleStatusSchema,
      isReplanned: v.boolean(),
    }),
  }),
  LastUpdate: v.string(),
  Shipment: v.object({
    AirlinePrefix: v.string(),
    AwbNumber: v.string(),
    Routing: v.object({ Origin: v.string(), Destination: v.string() }),
    Total: TotalsSchema,
  }),
  DeliveryDate: NullablePair,
  ReceiptDate: NullablePair,
  ProductCode: v.nullable(v.string()),
  IsRoadFeederService: v.boolean(),
  Status: v.picklist(["Booked", "Accepted", "OnAir", "AtDestination", "Cancelled"]),
  IsReplanned: v.boolean(),
  RoutingIsReplanned: v.boolean(),
  OriginState: v.pipe(v.number(), v.description("0 all fine, 1 some milestone Ko, 2 some milestone Missing")),
  RoutingState: v.number(),
  DestinationState: v.number(),
  Origin: v.null(),
  Routing: v.null(),
  Destination: v.null(),
  CreationDate: DateTimePairSchema,
});
