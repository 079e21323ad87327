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
import { JsonEventValidationError } from "../errors.ts";
import {
  awbCheckDigit,
  daysInMonth,
  EXPECT_AT_MOST_LEGS,
  MAX_ITINERARY_LEGS,
  MAX_VOLUME_CUBIC_METRES,
  MAX_WEIGHT,
  MIN_NON_ZERO_AMOUNT,
  truncateFound,
  volumeProblem,
  weightProblem,
} from "./common.ts";
import type { CarrierReport, FlightLeg, Quantity, SourceRef, StationTime } from "./types.ts";

const LOCAL_DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
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

const CarrierJsonLegSchema = v.pipe(
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
const CarrierJsonEventSchema = v.pipe(
  v.variant(
    "Type",
    [BookingMessageSchema, AwbDataMessageSchema, StatusMessageSchema, CancellationMessageSchema],
    "a Type of BKD, FWB, RCS, DEP, ARR, RCF, NFD, AWD, DLV or CAN",
  ),
  v.description("One carrier message: a booking, air waybill data, a status or a cancellation."),
);

const CarrierJsonEnvelopeSchema = v.object({
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

export type { FieldError } from "../types.ts";

export type PathKey = string | number;

export function fieldName(path: readonly PathKey[]): string {
  let name = "";
  for (const key of path) name += typeof key === "number" ? `[${key}]` : name === "" ? key : `.${key}`;
  return name === "" ? "(body)" : name;
}

/**
 * Validates a parsed JSON body and maps it to reports. `sourceText` (the raw body) only serves to
 * name the line of the first problem.
 */
export function parseJsonEvents(body: unknown, sourceText?: string): CarrierReport[] {
  const deep = tooDeep(body);
  if (deep !== null) {
    throw new JsonEventValidationError(
      [{ field: fieldName(deep), message: `at most ${MAX_JSON_DEPTH} levels of nested arrays and objects` }],
      sourceText === undefined ? 1 : lineOfJsonPath(sourceText, deep),
      "deeper nesting",
    );
  }
  const isEnvelope = typeof body === "object" && body !== null && !Array.isArray(body) && "Messages" in body;
  const problems: { path: PathKey[]; message: string; received: string }[] = [];
  let events: CarrierJsonEvent[] = [];
  let prefix: PathKey[] = [];
  if (isEnvelope) {
    const result = v.safeParse(CarrierJsonEnvelopeSchema, body);
    if (result.success) events = result.output.Messages;
    else for (const issue of result.issues) problems.push(toProblem(issue));
    prefix = ["Messages"];
  } else {
    const result = v.safeParse(CarrierJsonEventSchema, body);
    if (result.success) events = [result.output];
    else for (const issue of result.issues) problems.push(toProblem(issue));
  }
  events.forEach((event, i) => {
    const check = awbCheckDigit(event.AwbNumber);
    if (Number(event.AwbNumber[7]) !== check) {
      const path = isEnvelope ? [...prefix, i, "AwbNumber"] : ["AwbNumber"];
      problems.push({
        path,
        message: `AWB serial with check digit ${check}`,
        received: `"${event.AwbNumber}"`,
      });
    }
    const at = isEnvelope ? [...prefix, i] : [];
    quantityProblems(event, at, problems);
    if (event.Type !== "CAN" && event.Type !== "FWB" && event.Type !== "BKD")
      quantityProblems(event.Quantity, [...at, "Quantity"], problems);
    if (event.Type === "BKD" || event.Type === "FWB")
      (event.Legs ?? []).forEach((leg, j) => {
        quantityProblems(leg.Quantity, [...at, "Legs", j, "Quantity"], problems);
      });
  });
  if (problems.length > 0) {
    const first = problems[0] as (typeof problems)[number];
    const line = sourceText === undefined ? 1 : lineOfJsonPath(sourceText, first.path);
    throw new JsonEventValidationError(
      problems.map((p) => ({ field: fieldName(p.path), message: p.message })),
      line,
      truncateFound(first.received),
    );
  }
  const lines = sourceText === undefined ? null : jsonValueLines(sourceText);
  return events.map((event, i) => {
    const messagePath: PathKey[] = isEnvelope ? [...prefix, i] : [];
    const locate = (...rest: PathKey[]): SourceRef => {
      const path = [...messagePath, ...rest];
      const name = fieldName(path);
      return { line: lines?.get(name) ?? 1, path: name };
    };
    return toReport(event, locate);
  });
}

/** A weight or volume outside the plausible range of its unit (common.ts), as a problem at its path. */
function quantityProblems(
  quantity: QuantityInput | null | undefined,
  at: PathKey[],
  problems: { path: PathKey[]; message: string; received: string }[],
): void {
  if (quantity === null || quantity === undefined) return;
  const weight = quantity.Weight;
  const weightIssue =
    weight === null || weight === undefined ? null : weightProblem(weight, quantity.WeightCode ?? "K");
  if (weightIssue !== null)
    problems.push({ path: [...at, "Weight"], message: weightIssue, received: `${weight}` });
  const volume = quantity.Volume;
  const volumeIssue = volume === null || volume === undefined ? null : volumeProblem(volume);
  if (volumeIssue !== null)
    problems.push({ path: [...at, "Volume"], message: volumeIssue, received: `${volume}` });
}

function toProblem(issue: v.BaseIssue<unknown>): { path: PathKey[]; message: string; received: string } {
  const path: PathKey[] = [];
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === "string" || typeof key === "number") path.push(key);
  }
  // valibot's own type messages read "Invalid type: Expected ..."; ours name what is expected.
  return { path, message: issue.message, received: issue.received };
}

function toStationTime(value: string): StationTime {
  const m = LOCAL_DATE_TIME_RE.exec(value) as RegExpExecArray;
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    dayOffset: 0,
  };
}

function dayAndMonth(date: string): { flightDay: number; flightMonth: number } {
  return { flightMonth: Number(date.slice(5, 7)), flightDay: Number(date.slice(8, 10)) };
}

interface QuantityInput {
  Pieces?: number | null | undefined;
  WeightCode?: "K" | "L" | null | undefined;
  Weight?: number | null | undefined;
  Volume?: number | null | undefined;
}

function toQuantity(input: QuantityInput | null | undefined): Quantity | null {
  if (input === null || input === undefined || input.Pieces === null || input.Pieces === undefined)
    return null;
  const weight = input.Weight ?? null;
  const volume = input.Volume ?? null;
  return {
    pieces: input.Pieces,
    weightCode: weight === null ? null : (input.WeightCode ?? "K"),
    weight,
    volumeCode: volume === null ? null : "CM",
    volume,
  };
}

function toLeg(leg: v.InferOutput<typeof CarrierJsonLegSchema>, at: SourceRef): FlightLeg {
  return {
    carrierCode: leg.CarrierCode,
    flightNumber: leg.FlightNumber,
    ...dayAndMonth(leg.Date),
    origin: leg.Origin,
    destination: leg.Destination,
    scheduledDeparture: leg.ScheduledDeparture ? toStationTime(leg.ScheduledDeparture) : null,
    scheduledArrival: leg.ScheduledArrival ? toStationTime(leg.ScheduledArrival) : null,
    roadFeeder: leg.IsRoadFeederService ?? null,
    quantity: toQuantity(leg.Quantity),
    at,
  };
}

function toReport(event: CarrierJsonEvent, locate: (...path: PathKey[]) => SourceRef): CarrierReport {
  const base = {
    awb: { prefix: event.AirlinePrefix, serial: event.AwbNumber },
    origin: event.Origin,
    destination: event.Destination,
    total: toQuantity(event),
    source: `JSON/${event.Type}`,
    sourceAt: { report: locate(), origin: locate("Origin"), destination: locate("Destination") },
  };
  switch (event.Type) {
    case "BKD": {
      const legs = event.Legs.map((leg, j) => toLeg(leg, locate("Legs", j)));
      return { ...base, kind: "booking", legs, wholeItinerary: event.WholeItinerary ?? legs.length > 1 };
    }
    case "FWB":
      return {
        ...base,
        kind: "awb-data",
        agent: event.Agent ? { code: event.Agent.Code, cass: event.Agent.Cass } : null,
        productCode: event.ProductCode ?? null,
        legs: (event.Legs ?? []).map((leg, j) => toLeg(leg, locate("Legs", j))),
      };
    case "CAN":
      return {
        ...base,
        sourceAt: {
          ...base.sourceAt,
          ...(event.Station ? { station: locate("Station") } : {}),
          ...(event.Time ? { time: locate("Time") } : {}),
        },
        kind: "cancellation",
        station: event.Station ?? null,
        time: event.Time ? toStationTime(event.Time) : null,
      };
    default:
      return {
        ...base,
        sourceAt: { ...base.sourceAt, station: locate("Station"), time: locate("Time") },
        kind: "status",
        status: event.Type,
        station: event.Station,
        time: toStationTime(event.Time),
        flight: event.Flight
          ? {
              carrierCode: event.Flight.CarrierCode,
              flightNumber: event.Flight.FlightNumber,
              ...dayAndMonth(event.Flight.Date),
            }
          : null,
        quantity: toQuantity(event.Quantity),
        deliveredTo: event.Type === "DLV" ? (event.DeliveredTo ?? null) : null,
      };
  }
}

/**
 * Deepest nesting of arrays and objects a carrier body may have. Our own form
 * needs 6 (body, Messages, message, Legs, leg, Quantity); members we do not read are tolerated, but
 * not a 20,000-deep array in one of them, which only serves to exhaust a stack.
 */
export const MAX_JSON_DEPTH = 16;

/**
 * Path of the first value nested deeper than MAX_JSON_DEPTH, cut after its last member name (the
 * member that holds it: `Messages[0].X`), or null. Iterative, so any depth is walked in constant stack.
 */
function tooDeep(body: unknown): PathKey[] | null {
  const stack: { value: unknown; path: PathKey[] }[] = [{ value: body, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= MAX_JSON_DEPTH) {
      let end = path.length;
      while (end > 0 && typeof path[end - 1] === "number") end--;
      return path.slice(0, end === 0 ? 1 : end);
    }
    const entries: [PathKey, unknown][] = Array.isArray(value)
      ? value.map((child, i) => [i, child])
      : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [PathKey, unknown];
      if (typeof child === "object" && child !== null) stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/** Skips whitespace from `pos`, counting lines; returns the new position and line. */
function skipSpaceAt(text: string, pos: number, line: number): [number, number] {
  let p = pos;
  let l = line;
  for (; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (c === 10) l++;
    else if (c !== 32 && c !== 9 && c !== 13) break;
  }
  return [p, l];
}

/** Position just after the JSON string starting at `pos` (a `"`). */
function stringEnd(text: string, pos: number): number {
  for (let p = pos + 1; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (c === 92) p++;
    else if (c === 34) return p + 1;
  }
  return text.length;
}

/**
 * Line (1-based) where each value starts in a JSON text known to be valid, keyed by its field path
 * (`Messages[0].Legs[1]`, `(body)` for the whole body), down to `maxDepth` keys. One pass with an
 * explicit stack of open containers (no recursion), so every report of a large body can name its line.
 */
function jsonValueLines(text: string, maxDepth = 5): Map<string, number> {
  const lines = new Map<string, number>();
  // One frame per open container: its kind and the index of the next array element.
  const frames: { array: boolean; index: number }[] = [];
  const path: PathKey[] = [];
  let pos = 0;
  let line = 1;
  let expectValue = true;
  while (pos < text.length) {
    [pos, line] = skipSpaceAt(text, pos, line);
    if (pos >= text.length) break;
    const c = text[pos];
    if (expectValue) {
      if (path.length <= maxDepth) lines.set(fieldName(path), line);
      if (c === "{" || c === "[") {
        pos++;
        [pos, line] = skipSpaceAt(text, pos, line);
        const close = c === "{" ? "}" : "]";
        if (text[pos] === close) {
          pos++;
          expectValue = false;
          continue;
        }
        frames.push({ array: c === "[", index: 0 });
        if (c === "[") {
          path.push(0);
          continue; // the first element
        }
        // An object: read its first key below.
      } else {
        if (c === '"') pos = stringEnd(text, pos);
        else while (pos < text.length && !",]} \t\r\n".includes(text[pos] as string)) pos++;
        expectValue = false;
        continue;
      }
    } else {
      // After a value: `,` continues the container, `]`/`}` closes it.
      const frame = frames.at(-1);
      if (frame === undefined) break;
      pos++;
      if (c === ",") {
        if (frame.array) {
          frame.index++;
          path[path.length - 1] = frame.index;
          expectValue = true;
          continue;
        }
        path.pop(); // the previous key; the next one is read below
      } else {
        frames.pop();
        path.pop();
        continue;
      }
    }
    // Read an object key and its `:`; the value follows.
    [pos, line] = skipSpaceAt(text, pos, line);
    const end = stringEnd(text, pos);
    const raw = text.slice(pos, end);
    // Keys are plain in practice; JSON.parse only when escapes need decoding.
    path.push(raw.includes("\\") ? String(JSON.parse(raw)) : raw.slice(1, -1));
    [pos, line] = skipSpaceAt(text, end, line);
    pos++; // ':'
    expectValue = true;
  }
  return lines;
}

/**
 * Line (1-based) where the value at `path` starts in a JSON text known to be valid; when a key is
 * missing, the line of the object that lacks it. A small scanner without recursion: a value is
 * skipped by counting brackets outside strings, so any nesting costs no stack.
 */
export function lineOfJsonPath(text: string, path: readonly PathKey[]): number {
  let pos = 0;
  let line = 1;
  const skipSpace = (): void => {
    [pos, line] = skipSpaceAt(text, pos, line);
  };
  const skipValue = (): void => {
    skipSpace();
    const c = text[pos];
    if (c === '"') {
      pos = stringEnd(text, pos);
      return;
    }
    if (c !== "{" && c !== "[") {
      while (pos < text.length && !",]} \t\r\n".includes(text[pos] as string)) pos++;
      return;
    }
    let depth = 0;
    while (pos < text.length) {
      const d = text.charCodeAt(pos);
      if (d === 34) {
        pos = stringEnd(text, pos);
        continue;
      }
      pos++;
      if (d === 10) line++;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return;
    }
  };
  for (const key of path) {
    skipSpace();
    const containerLine = line;
    const c = text[pos];
    if (c === "{" && typeof key === "string") {
      pos++;
      let found = false;
      for (;;) {
        skipSpace();
        if (text[pos] !== '"') return containerLine;
        const start = pos;
        pos = stringEnd(text, pos);
        const name: unknown = JSON.parse(text.slice(start, pos));
        skipSpace();
        pos++; // ':'
        if (name === key) {
          found = true;
          break;
        }
        skipValue();
        skipSpace();
        if (text[pos] !== ",") return containerLine;
        pos++;
      }
      if (!found) return containerLine;
    } else if (c === "[" && typeof key === "number") {
      pos++;
      for (let i = 0; i < key; i++) {
        skipValue();
        skipSpace();
        if (text[pos] !== ",") return containerLine;
        pos++;
      }
    } else {
      return line;
    }
  }
  skipSpace();
  return line;
}
