/**
 * Our own JSON carrier-message form (`POST /carrier/messages`, `application/json`), defined with
 * valibot so that the OpenAPI document is generated from the same schemas.
 *
 * Body: `{ "Messages": [ <message>, ... ] }` (1-100 messages) or a single `<message>`. Each message
 * has a `Type` (BKD | FWB | RCS | DEP | ARR | RCF | NFD | AWD | DLV | CAN), the AWB (`AirlinePrefix`,
 * `AwbNumber` with its mod-7 check digit), `Origin`/`Destination`, and optionally the consignment
 * total as `Pieces`, `WeightCode` (K|L), `Weight`, `VolumeCode` (CM, or MC which means the same),
 * `Volume`. Times are station-local with a year and no offset (`2026-03-14T13:41`, seconds
 * optional); flight dates are `YYYY-MM-DD` (departure date). BKD without `WholeItinerary` states the
 * whole itinerary when it has more than one leg, like a multi-line FSU/BKD.
 * Numbers are finite; weights 0 or 0.001 to 1,000,000 kg (2,204,623 lb), volumes 0 or 0.001 to
 * 100,000 m³ (common.ts); arrays and objects nest at most MAX_JSON_DEPTH levels, unknown members
 * included. Times must lie within a year of receipt (plausible-times.ts).
 */
import * as v from "valibot";
import {
  daysInMonth,
  EXPECT_AT_MOST_LEGS,
  MAX_ITINERARY_LEGS,
  MAX_VOLUME_CUBIC_METRES,
  MAX_WEIGHT,
  MIN_NON_ZERO_AMOUNT,
} from "../common.ts";

export const LOCAL_DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(month, year);
}

function validLocalDateTime(value: string): boolean {
  const m = LOCAL_DATE_TIME_RE.exec(value);
  if (m === null) return false;
  return (
    validDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6] ?? 0) <= 59
  );
}

const AirportSchema = v.pipe(
  v.string("a 3-letter airport code such as FRA"),
  v.regex(/^[A-Z]{3}$/, "a 3-letter airport code such as FRA"),
  v.description("IATA airport code, upper case."),
);

const LocalDateTimeSchema = v.pipe(
  v.string("a station-local date-time such as 2026-03-14T13:41"),
  v.check(validLocalDateTime, "a station-local date-time such as 2026-03-14T13:41"),
  v.description("Station-local date-time with year, no offset: YYYY-MM-DDThh:mm[:ss]."),
);

const FlightDateSchema = v.pipe(
  v.string("a flight date such as 2026-03-14"),
  v.check((value) => {
    const m = DATE_RE.exec(value);
    return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  }, "a flight date such as 2026-03-14"),
  v.description("Scheduled departure date of the flight at its origin: YYYY-MM-DD."),
);

const CarrierCodeSchema = v.pipe(
  v.string("a 2-character airline code such as LH"),
  v.regex(/^(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])$/, "a 2-character airline code such as LH"),
  v.description("IATA airline designator."),
);

const FlightNumberSchema = v.pipe(
  v.string("a flight number such as 400 or 8170A"),
  v.regex(/^\d{1,4}[A-Z]?$/, "a flight number such as 400 or 8170A"),
  v.description("1-4 digits and an optional letter suffix, without the airline code."),
);

const PiecesSchema = v.pipe(
  v.number("a number of pieces"),
  v.integer("a whole number of pieces"),
  v.minValue(0, "a number of pieces from 0"),
  v.maxValue(9999, "at most 9999 pieces"),
);

// Finite here; the plausible range per unit is checked after validation (weightProblem, volumeProblem).
const WeightSchema = v.pipe(
  v.number("a weight"),
  v.finite("a finite weight"),
  v.minValue(0, "a weight from 0"),
  v.description(`0, or ${MIN_NON_ZERO_AMOUNT} to ${MAX_WEIGHT.K} kg (${MAX_WEIGHT.L} lb).`),
);
const VolumeSchema = v.pipe(
  v.number("a volume"),
  v.finite("a finite volume"),
  v.minValue(0, "a volume from 0"),
  v.description(`0, or ${MIN_NON_ZERO_AMOUNT} to ${MAX_VOLUME_CUBIC_METRES} cubic metres.`),
);
const WeightCodeSchema = v.pipe(
  v.picklist(["K", "L"], "weight code K (kilograms) or L (pounds)"),
  v.description("K kilograms, L pounds."),
);
const VolumeCodeSchema = v.pipe(
  v.picklist(["CM", "MC"], "volume code CM (cubic metres)"),
  v.description("Cubic metres: CM (MC, the Cargo-IMP spelling, is accepted and means the same)."),
);

const CarrierJsonQuantitySchema = v.pipe(
  v.object({
    Pieces: PiecesSchema,
    WeightCode: v.nullish(WeightCodeSchema),
    Weight: v.nullish(WeightSchema),
    VolumeCode: v.nullish(VolumeCodeSchema),
    Volume: v.nullish(VolumeSchema),
  }),
  v.description("Pieces, weight and volume."),
);

const CarrierJsonFlightSchema = v.pipe(
  v.object({ CarrierCode: CarrierCodeSchema, FlightNumber: FlightNumberSchema, Date: FlightDateSchema }),
  v.description("The flight a status refers to."),
);

export const CarrierJsonLegSchema = v.pipe(
  v.object({
    CarrierCode: CarrierCodeSchema,
    FlightNumber: FlightNumberSchema,
    Date: FlightDateSchema,
    Origin: AirportSchema,
    Destination: AirportSchema,
    ScheduledDeparture: v.nullish(LocalDateTimeSchema),
    ScheduledArrival: v.nullish(LocalDateTimeSchema),
    IsRoadFeederService: v.nullish(
      v.pipe(
        v.boolean("true or false"),
        v.description("true when the leg is a truck (road feeder service)."),
      ),
    ),
    Quantity: v.nullish(CarrierJsonQuantitySchema),
  }),
  v.description("One flight or road-feeder leg of the itinerary."),
);

const awbFields = {
  AirlinePrefix: v.pipe(
    v.string("a 3-digit airline prefix such as 020"),
    v.regex(/^\d{3}$/, "a 3-digit airline prefix such as 020"),
    v.description("AWB airline prefix."),
  ),
  AwbNumber: v.pipe(
    v.string("an 8-digit AWB serial such as 12345675"),
    v.regex(/^\d{8}$/, "an 8-digit AWB serial such as 12345675"),
    v.description("AWB serial; the 8th digit is the first seven mod 7."),
  ),
  Origin: AirportSchema,
  Destination: AirportSchema,
  Pieces: v.nullish(PiecesSchema),
  WeightCode: v.nullish(WeightCodeSchema),
  Weight: v.nullish(WeightSchema),
  VolumeCode: v.nullish(VolumeCodeSchema),
  Volume: v.nullish(VolumeSchema),
};

const BookingMessageSchema = v.object({
  Type: v.literal("BKD"),
  ...awbFields,
  Legs: v.pipe(
    v.array(CarrierJsonLegSchema, "a list of legs"),
    v.minLength(1, "at least one leg"),
    v.maxLength(MAX_ITINERARY_LEGS, EXPECT_AT_MOST_LEGS),
  ),
  WholeItinerary: v.nullish(
    v.pipe(
      v.boolean("true or false"),
      v.description("true: Legs are the whole itinerary; false: upsert the leg. Default: more than one leg."),
    ),
  ),
});

const AwbDataMessageSchema = v.object({
  Type: v.literal("FWB"),
  ...awbFields,
  Agent: v.nullish(
    v.object({
      Code: v.pipe(v.string("a 7-digit agent code"), v.regex(/^\d{7}$/, "a 7-digit agent code")),
      Cass: v.pipe(v.string("a 4-digit CASS address"), v.regex(/^\d{4}$/, "a 4-digit CASS address")),
    }),
  ),
  ProductCode: v.nullish(
    v.pipe(
      v.string("a product code"),
      v.regex(/^[A-Z0-9]{1,10}$/, "a product code of 1-10 letters or digits"),
    ),
  ),
  Legs: v.nullish(
    v.pipe(
      v.array(CarrierJsonLegSchema, "a list of legs"),
      v.maxLength(MAX_ITINERARY_LEGS, EXPECT_AT_MOST_LEGS),
    ),
  ),
});

const StatusMessageSchema = v.object({
  Type: v.picklist(["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]),
  ...awbFields,
  Station: AirportSchema,
  Time: LocalDateTimeSchema,
  Flight: v.nullish(CarrierJsonFlightSchema),
  Quantity: v.nullish(CarrierJsonQuantitySchema),
  DeliveredTo: v.nullish(v.pipe(v.string("a name"), v.maxLength(70, "a name of at most 70 characters"))),
});

const CancellationMessageSchema = v.object({
  Type: v.literal("CAN"),
  ...awbFields,
  Station: v.nullish(AirportSchema),
  Time: v.nullish(LocalDateTimeSchema),
});

/** One carrier message in our JSON form. */
export const CarrierJsonEventSchema = v.pipe(
  v.variant(
    "Type",
    [BookingMessageSchema, AwbDataMessageSchema, StatusMessageSchema, CancellationMessageSchema],
    "a Type of BKD, FWB, RCS, DEP, ARR, RCF, NFD, AWD, DLV or CAN",
  ),
  v.description("One carrier message: a booking, air waybill data, a status or a cancellation."),
);

export const CarrierJsonEnvelopeSchema = v.object({
  Messages: v.pipe(
    v.array(CarrierJsonEventSchema, "a list of messages"),
    v.minLength(1, "at least one message"),
    v.maxLength(100, "at most 100 messages"),
  ),
});

/** The request body: `{ "Messages": [...] }` or a single message. */
export const CarrierJsonMessageSchema = v.pipe(
  v.union([CarrierJsonEnvelopeSchema, CarrierJsonEventSchema]),
  v.description('Carrier messages in JSON: { "Messages": [ ... ] } or one message object.'),
);

export type CarrierJsonEvent = v.InferOutput<typeof CarrierJsonEventSchema>;
export type CarrierJsonMessage = v.InferOutput<typeof CarrierJsonMessageSchema>;
