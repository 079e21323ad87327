/**
 * valibot schemas of the route-map API (route maps, history, trigger, search, carrier messages):
 * request bodies are parsed with them and the OpenAPI document is generated from them, so
 * documentation and validation cannot disagree. The other areas: carriers.ts, notifications.ts,
 * paging.ts beside this file.
 */
import * as v from "valibot";
import { awbCheckDigit } from "../../core/awb.ts";
import { PrefixSchema } from "./carriers.ts";
import { plainObject } from "./plain-object.ts";

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

// ---- route maps: history, trigger, search, carrier ingest -----------------------------------------

/** Our extension of the history: where a change or a status message came from. */
export const ProvenanceSchema = v.pipe(
  v.object({
    Channel: v.pipe(
      v.picklist(["Api", "Email", "OneRecord"]),
      v.description(
        "How the message arrived: posted to the API, by e-mail, fetched after a ONE Record notification.",
      ),
    ),
    Message: v.pipe(
      v.string(),
      v.description(
        'The message as the carrier named it: "FSU/15", "XFSU/3", "LogisticsEvent/3.0" (else format and code, "FSU/DEP").',
      ),
    ),
    MessageId: v.pipe(
      v.nullable(v.string()),
      v.description("The carrier's own reference of the message, null when it gave none."),
    ),
    Carrier: v.pipe(v.string(), v.description("The reporting carrier's airline prefix.")),
    ReceivedAt: v.pipe(
      DateTimePairSchema,
      v.description("When the service received it (local at the station the history shows it for)."),
    ),
    TimeGiven: v.pipe(
      v.nullable(v.boolean()),
      v.description(
        "false: the message gave no time, the actual is the receipt time; null: it reports no actual (a booking).",
      ),
    ),
    StatusRequestReply: v.pipe(
      v.boolean(),
      v.description("The message is an FSA: the carrier's answer to a status request."),
    ),
    ReceiptId: v.pipe(
      v.string(),
      v.description(
        "Support reads the raw message under it for 30 days: GET /support/carriers/{prefix}/messages/{ReceiptId}.",
      ),
    ),
    SkippedLines: v.pipe(
      v.array(v.string()),
      v.description(
        'Lines of the message the service skipped although the format does not allow them as written (free text without its leading "/", an actual time in a booking, ...), each as "line N: why"; empty when none. What the route map needs was read in full.',
      ),
    ),
  }),
  v.description("Extension: where a change or a status message came from."),
);

export const RouteMapHistorySchema = v.object({
  RouteMap: RouteMapSchema,
  Snapshots: v.pipe(
    v.array(
      v.object({
        SnapshotDate: DateTimePairSchema,
        RouteMap: RouteMapSchema,
        Provenance: v.pipe(
          v.nullable(ProvenanceSchema),
          v.description(
            "Extension: the message that made this change (ReceivedAt at the AWB origin, like SnapshotDate); null for a change no message made (a scheduled check) or a snapshot stored before provenance was kept.",
          ),
        ),
      }),
    ),
    v.description("One per change, newest first; kept 30 days from the route map's creation."),
  ),
  StatusMessages: v.pipe(
    v.array(
      v.object({
        Code: v.pipe(v.string(), v.description("Status code beyond the milestones, e.g. FOH, MAN, TFD.")),
        Station: v.string(),
        DateTime: DateTimePairSchema,
        FlightNumber: v.optional(v.string()),
        CarrierCode: v.optional(v.string()),
        Pieces: v.optional(v.number()),
        Provenance: v.optional(ProvenanceSchema),
      }),
    ),
    v.description(
      "Extension: status messages beyond the route-map milestones (FOH, MAN, TFD, ...), kept as history " +
        "without changing the route map (no snapshot, no event); newest first, at most 100, the same on every page.",
    ),
  ),
});

const AwbSerialSchema = v.pipe(
  v.string(),
  v.regex(/^\d{8}$/, "must be 8 digits"),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || !/^\d{8}$/.test(dataset.value)) return;
    const expected = awbCheckDigit(dataset.value.slice(0, 7));
    if (Number(dataset.value[7]) !== expected)
      addIssue({
        message: `check digit must be ${expected} (the first seven digits mod 7), not ${dataset.value[7]}`,
      });
  }),
);

export const SendsmeRequestSchema = v.object({
  AirlinePrefix: PrefixSchema,
  AwbNumber: AwbSerialSchema,
  AgentCode: v.pipe(v.string(), v.regex(/^\d{7}$/, "must be 7 digits")),
  AgentCass: v.pipe(v.string(), v.regex(/^\d{4}$/, "must be 4 digits")),
  IsXTD: v.optional(v.pipe(v.boolean(), v.description("true selects the XTD variant"))),
});

export const RouteMapRequestedSchema = v.pipe(
  v.object({ AwbNumber: v.string(), Status: v.literal("Requested") }),
  v.description("Answer while the caller may not read a route map yet (none exists, or QP before the FWB)."),
);

export const SendsmeResponseSchema = v.union([RouteMapSchema, RouteMapRequestedSchema]);

const ISO_DATE_OR_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/** Every part in range: Date.parse would roll 2026-02-30 over to 2 March instead of refusing it. */
function isRealDate(text: string): boolean {
  const [, year, month, day, hour, minute, second, offsetHours, offsetMinutes] =
    ISO_DATE_OR_INSTANT.exec(text) ?? [];
  if (!year || !month || !day) return false;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  const within = (part: string | undefined, max: number) => part === undefined || Number(part) <= max;
  return (
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    within(hour, 23) &&
    within(minute, 59) &&
    within(second, 59) &&
    within(offsetHours, 14) &&
    within(offsetMinutes, 59)
  );
}
const SearchInstant = v.pipe(
  v.string(),
  v.regex(
    ISO_DATE_OR_INSTANT,
    "must be a date (2026-03-14) or an instant with offset (2026-03-14T10:00:00Z)",
  ),
  v.check(isRealDate, "must be a real date"),
);
const SearchRangeSchema = plainObject(
  v.pipe(
    v.object({ From: v.optional(SearchInstant), To: v.optional(SearchInstant) }),
    v.description("Inclusive; a date alone means the whole UTC day."),
  ),
);

export const RouteMapSearchSchema = plainObject(
  v.object({
    CreationDate: v.optional(SearchRangeSchema),
    DeliveryDate: v.optional(SearchRangeSchema),
    ReceiptDate: v.optional(SearchRangeSchema),
    AirlinePrefix: v.optional(PrefixSchema),
    AwbNumber: v.optional(v.pipe(v.string(), v.regex(/^\d{8}$/, "must be 8 digits"))),
    Origin: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, "must be a 3-letter station code"))),
    Destination: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, "must be a 3-letter station code"))),
    Status: v.optional(
      v.pipe(
        v.array(v.picklist(["Booked", "Accepted", "OnAir", "AtDestination", "Cancelled"])),
        v.minLength(1, "must name at least one status"),
      ),
    ),
    Sort: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200, "at most 200 characters"),
        v.description(
          'e.g. "-CreationDate +Origin"; fields: CreationDate, DeliveryDate, ReceiptDate, AirlinePrefix, AwbNumber, Origin, Destination, Status. Default -CreationDate. ' +
            "Sorted by CreationDate alone, pages come straight from the index (no limit, Cursor paging); any other sort holds the matches in memory: at most 10000, else a 400 naming Sort and CreationDate with the CreationDate.From that fits.",
        ),
      ),
    ),
    Cursor: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200, "at most 200 characters"),
        v.description(
          "Extension: a previous answer's NextCursor, sent with the same filters, Sort and PageSize: answers the page after that one (CurrentPage is then the cursor's), reading only that page, however deep. CreationDate sorts only.",
        ),
      ),
    ),
  }),
);
export type RouteMapSearch = v.InferOutput<typeof RouteMapSearchSchema>;

export const RouteMapSearchResultSchema = v.object({
  TotalItems: v.pipe(
    v.number(),
    v.description(
      "Matches in all. Sorted by CreationDate, counted up to the end of the next page: when more match, a lower bound (TotalItemsExact false).",
    ),
  ),
  TotalPages: v.pipe(
    v.number(),
    v.description("From TotalItems: a lower bound when TotalItemsExact is false."),
  ),
  PageSize: v.number(),
  CurrentPage: v.number(),
  TotalItemsExact: v.pipe(
    v.boolean(),
    v.description("Extension: false when TotalItems and TotalPages are lower bounds (more match)."),
  ),
  NextCursor: v.pipe(
    v.nullable(v.string()),
    v.description(
      "Extension: send it back as Cursor for the next page (CreationDate sorts); null on the last page and for other sorts.",
    ),
  ),
  Items: v.array(RouteMapSchema),
});

export const IngestResultSchema = v.object({
  Applied: v.pipe(
    v.array(
      v.object({
        AwbNumber: v.pipe(v.string(), v.description("ppp-nnnnnnnn")),
        Changed: v.pipe(v.boolean(), v.description("false: a repeat or nothing new; nothing stored")),
        Events: v.pipe(
          v.array(v.string()),
          v.description(
            "Events the message caused, e.g. RMP, DEP (Missed events raised at the same time are not listed)",
          ),
        ),
      }),
    ),
    v.description("One entry per message, in body order."),
  ),
});
