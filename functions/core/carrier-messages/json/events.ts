/**
 * Our JSON event form read into `CarrierReport[]`: the body validated against its schema
 * (schema.ts), the AWB check digit and plausible quantities checked, and every problem answered 400
 * with its field paths and the line of the first (lines.ts).
 */
import * as v from "valibot";
import { JsonEventValidationError } from "../../errors.ts";
import { awbCheckDigit, volumeProblem, weightProblem } from "../common.ts";
import {
  type CarrierReport,
  type FlightLeg,
  type MessageOrigin,
  type Quantity,
  type SourceRef,
  type StationTime,
  truncateFound,
} from "../types.ts";
import { fieldName, jsonValueLines, lineOfJsonPath, type PathKey } from "./lines.ts";
import {
  CarrierJsonEnvelopeSchema,
  type CarrierJsonEvent,
  CarrierJsonEventSchema,
  type CarrierJsonLegSchema,
  LOCAL_DATE_TIME_RE,
} from "./schema.ts";
import { MAX_JSON_DEPTH, tooDeep } from "./text.ts";

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

const JSON_MESSAGE: MessageOrigin = { type: "JSON", version: null, id: null };

function toReport(event: CarrierJsonEvent, locate: (...path: PathKey[]) => SourceRef): CarrierReport {
  const base = {
    awb: { prefix: event.AirlinePrefix, serial: event.AwbNumber },
    origin: event.Origin,
    destination: event.Destination,
    total: toQuantity(event),
    source: `JSON/${event.Type}`,
    // Our JSON form has no version and names no message reference.
    message: JSON_MESSAGE,
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
