/**
 * IATA ONE Record LogisticsEvents (data model 3.x, API 2.x; JSON-LD, `application/ld+json`) into
 * `CarrierReport[]`, the same status reports as Cargo-IMP FSU and XFSU.
 *
 * Body: one LogisticsEvent (or StatusUpdateEvent, its 3.3 subclass for FSU-level status), a JSON-LD
 * `@graph` or a JSON array of them, or an `api:Collection` with `api:hasItem` (what a publisher answers
 * for `GET .../logistics-events`); at most MAX_MESSAGES_PER_BODY events.
 *
 * Property names are expanded with the document's own `@context` (prefixes, terms, `@vocab`;
 * remote contexts are not fetched): `cargo:eventCode`, `https://onerecord.iata.org/ns/cargo#eventCode`
 * and, without a context naming another vocabulary, a bare `eventCode` all mean the same.
 * Read per event:
 *   eventCode        a StatusCode code list IRI (`https://onerecord.iata.org/ns/code-lists/StatusCode#DEP`,
 *                    or compact), a CodeListElement with `code`, or the plain code. DIS_xxx reads DIS.
 *   eventTimeType    ACTUAL (also when absent) changes the route map; PLANNED, ESTIMATED, EXPECTED and
 *                    REQUESTED are validated and then skipped (no report): a route map's planned
 *                    times come from the booking, never from a status, and an estimate is no actual.
 *   eventDate        xsd:dateTime; with `Z` or an offset an exact instant, turned into the station's
 *                    local time; without, the station's local time as written.
 *   eventLocation    a Location whose `locationCodes` hold the 3-letter IATA airport code (or the code).
 *   eventFor         the Waybill, or a Shipment with its `waybill`, or a Piece with `ofShipment`,
 *                    embedded with `waybillPrefix`, `waybillNumber` (mod-7 check digit) and the
 *                    waybill's `departureLocation` / `arrivalLocation` (the AWB origin and destination).
 *   recordedPieceCount, recordedWeight (Value: numericalValue + unit KGM/LBR), recordedVolume
 *                    (StatusUpdateEvent): the report's pieces and weight.
 *   transportMovementReference  a TransportMovement: `transportIdentifier` (LH400) names the flight of a
 *                    DEP/ARR/RCF, dated by its OUTBOUND SCHEDULED movement time, else the event's date.
 * Tracked codes (RCS DEP ARR RCF NFD AWD DLV) become status reports; the other StatusCode codes
 * (BKD, FOH, MAN, DIS, ...) are kept as history (`other-status`), like Cargo-IMP's. Problems are
 * MessageParseError (400) naming the line and the JSON path as written (`@graph[1].cargo:eventDate`).
 */
import { MessageParseError, UnknownStationError } from "../errors.ts";
import { stationTimeAt } from "../time/station-time.ts";
import {
  awbCheckDigit,
  daysInMonth,
  isAirportCode,
  MAX_MESSAGES_PER_BODY,
  splitFlightDesignator,
  toCubicMetres,
  truncateFound,
  UNTRACKED_FSU_CODES,
  volumeProblem,
  weightProblem,
} from "./common.ts";
import { fieldName, lineOfJsonPath, type PathKey } from "./json-events.ts";
import type {
  AwbId,
  CarrierReport,
  Quantity,
  ReportedStatusCode,
  SourceRef,
  StationTime,
  StatusReport,
} from "./types.ts";

export const CARGO_NS = "https://onerecord.iata.org/ns/cargo#";
export const API_NS = "https://onerecord.iata.org/ns/api#";

const TRACKED: ReadonlySet<string> = new Set(["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]);
/** StatusCode codes kept as history: Cargo-IMP's untracked ones, plus BKD and DPU (no itinerary here). */
const HISTORY_ONLY: ReadonlySet<string> = new Set([...UNTRACKED_FSU_CODES, "BKD", "DPU"]);
const EVENT_TIME_TYPES = ["ACTUAL", "PLANNED", "ESTIMATED", "EXPECTED", "REQUESTED"] as const;
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))?$/;
const CODE_RE = /^[A-Z]{3}$/;
/** How far `eventFor` is followed: Piece -> Shipment -> Waybill. */
const MAX_WAYBILL_HOPS = 3;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Terms and prefixes of the active `@context` (expanded IRIs) and its `@vocab`. */
interface Context {
  terms: ReadonlyMap<string, string>;
  vocab: string;
}

const DEFAULT_CONTEXT: Context = { terms: new Map(), vocab: CARGO_NS };

function withContext(parent: Context, node: JsonObject): Context {
  const local = node["@context"];
  if (local === undefined) return parent;
  const terms = new Map(parent.terms);
  let vocab = parent.vocab;
  for (const entry of Array.isArray(local) ? local : [local]) {
    // A remote context (a string) is not fetched: its terms are read as the cargo vocabulary's.
    if (!isObject(entry)) continue;
    for (const [name, definition] of Object.entries(entry)) {
      const iri =
        typeof definition === "string" ? definition : isObject(definition) ? definition["@id"] : null;
      if (name === "@vocab" && typeof definition === "string") vocab = definition;
      else if (typeof iri === "string" && !name.startsWith("@")) terms.set(name, iri);
    }
  }
  // Term values may be compact themselves ("cargo:eventCode"): expand them once against the rest.
  const expanded = new Map<string, string>();
  const ctx: Context = { terms, vocab };
  for (const [name, iri] of terms) expanded.set(name, expandIri(iri, ctx, false));
  return { terms: expanded, vocab };
}

/** A compact IRI, term or absolute IRI, expanded; `vocabRelative` for property names and @type. */
function expandIri(value: string, ctx: Context, vocabRelative: boolean): string {
  const colon = value.indexOf(":");
  if (colon > 0) {
    const prefix = value.slice(0, colon);
    const suffix = value.slice(colon + 1);
    if (suffix.startsWith("//")) return value;
    const base = ctx.terms.get(prefix);
    return base === undefined ? value : `${base}${suffix}`;
  }
  const term = ctx.terms.get(value);
  if (term !== undefined) return term;
  return vocabRelative ? `${ctx.vocab}${value}` : value;
}

/** The part of an IRI after `#` (or the last `/`): `.../StatusCode#DEP` -> `DEP`, `cargo:ACTUAL` -> `ACTUAL`. */
function localName(iri: string): string {
  const hash = iri.lastIndexOf("#");
  if (hash !== -1) return iri.slice(hash + 1);
  const slash = iri.lastIndexOf("/");
  return slash === -1 ? iri : iri.slice(slash + 1);
}

/** A node of the document with its context and where it is. */
interface Node {
  value: JsonObject;
  ctx: Context;
  path: PathKey[];
}

interface Located {
  value: Json;
  path: PathKey[];
  ctx: Context;
}

class Reader {
  constructor(private readonly text: string | undefined) {}

  at(path: readonly PathKey[]): SourceRef {
    return { line: this.text === undefined ? 1 : lineOfJsonPath(this.text, path), path: fieldName(path) };
  }

  fail(path: readonly PathKey[], expected: string, found: unknown): never {
    const where = this.at(path);
    const shown = found === undefined ? "nothing" : typeof found === "string" ? found : JSON.stringify(found);
    throw new MessageParseError(where.line, expected, truncateFound(shown ?? "nothing"), where.path);
  }
}

/** The value of a node's property `cargo#name` (or `api#name` with `ns`), first of an array. */
function property(node: Node, name: string, ns = CARGO_NS): Located | undefined {
  for (const [key, value] of Object.entries(node.value)) {
    if (key.startsWith("@")) continue;
    if (expandIri(key, node.ctx, true) !== `${ns}${name}`) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) return undefined;
      return { value: value[0] as Json, path: [...node.path, key, 0], ctx: node.ctx };
    }
    return { value, path: [...node.path, key], ctx: node.ctx };
  }
  return undefined;
}

function asNode(located: Located): Node | null {
  return isObject(located.value)
    ? { value: located.value, ctx: withContext(located.ctx, located.value), path: located.path }
    : null;
}

/** A literal: a string/number/boolean, or `{ "@value": ... }`. */
function literal(located: Located): string | number | boolean | null {
  const v = isObject(located.value) ? located.value["@value"] : located.value;
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : null;
}

/** A code: a plain code, an IRI (compact or not) naming it, `{ "@id": IRI }` or a CodeListElement. */
function codeOf(located: Located): string | null {
  const { value, ctx } = located;
  if (typeof value === "string") return value.includes(":") ? localName(expandIri(value, ctx, false)) : value;
  if (!isObject(value)) return null;
  const id = value["@id"];
  if (typeof id === "string") return localName(expandIri(id, ctx, false));
  const node = asNode(located);
  const code = node === null ? undefined : property(node, "code");
  const text = code === undefined ? null : literal(code);
  return typeof text === "string" ? text : null;
}

function typesOf(node: Node): string[] {
  const type = node.value["@type"];
  const list = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return list.filter((t): t is string => typeof t === "string").map((t) => expandIri(t, node.ctx, true));
}

/** The events of the body with their paths: one event, `@graph`, an array, or an api:Collection. */
function eventNodes(body: unknown, reader: Reader): Node[] {
  if (Array.isArray(body)) return collect(body, DEFAULT_CONTEXT, [], reader);
  if (!isObject(body)) return reader.fail([], "a JSON-LD LogisticsEvent object", body);
  const ctx = withContext(DEFAULT_CONTEXT, body);
  const root: Node = { value: body, ctx, path: [] };
  const graph = body["@graph"];
  if (graph !== undefined) {
    if (!Array.isArray(graph)) return reader.fail(["@graph"], "an array of LogisticsEvents", graph);
    return collect(graph, ctx, ["@graph"], reader);
  }
  if (typesOf(root).includes(`${API_NS}Collection`)) {
    for (const [key, value] of Object.entries(body)) {
      if (expandIri(key, ctx, true) !== `${API_NS}hasItem`) continue;
      if (Array.isArray(value)) return collect(value, ctx, [key], reader);
      return collect([value], ctx, [], reader, key);
    }
    return [];
  }
  return [root];
}

function collect(items: Json[], ctx: Context, path: PathKey[], reader: Reader, single?: string): Node[] {
  if (items.length > MAX_MESSAGES_PER_BODY) {
    reader.fail(
      [...path, MAX_MESSAGES_PER_BODY],
      `at most ${MAX_MESSAGES_PER_BODY} events in one request body (send the rest in another request)`,
      `${items.length} events`,
    );
  }
  return items.map((item, i) => {
    const itemPath = single === undefined ? [...path, i] : [single];
    if (!isObject(item)) return reader.fail(itemPath, "a LogisticsEvent object", item);
    return { value: item, ctx: withContext(ctx, item), path: itemPath };
  });
}

/**
 * Parses a JSON-LD body (already JSON.parse'd; `sourceText` names lines) into reports. Events that are
 * not ACTUAL give no report.
 */
export function parseOneRecordEvents(
  body: unknown,
  sourceText?: string,
  options: OneRecordParseOptions = {},
): CarrierReport[] {
  const reader = new Reader(sourceText);
  const reports: CarrierReport[] = [];
  for (const node of eventNodes(body, reader)) {
    if (options.skipOtherCodes && !hasStatusCode(node)) continue;
    const report = readEvent(node, reader);
    if (report !== null) reports.push(report);
  }
  return reports;
}

export interface OneRecordParseOptions {
  /**
   * Skip events whose eventCode is not a StatusCode code (a publisher's own milestones) instead of
   * refusing them: what a subscriber does with a LogisticsObject's whole event list.
   */
  skipOtherCodes?: boolean;
}

function statusCodeOf(event: Node): string | null {
  const codeAt = property(event, "eventCode");
  const raw = codeAt === undefined ? null : codeOf(codeAt);
  return raw?.startsWith("DIS_") ? "DIS" : raw;
}

function hasStatusCode(event: Node): boolean {
  const code = statusCodeOf(event);
  return code !== null && (TRACKED.has(code) || HISTORY_ONLY.has(code));
}

function readEvent(event: Node, reader: Reader): CarrierReport | null {
  const types = typesOf(event);
  const isEvent = types.some(
    (t) => t === `${CARGO_NS}LogisticsEvent` || t === `${CARGO_NS}StatusUpdateEvent`,
  );
  if (types.length > 0 && !isEvent)
    reader.fail([...event.path, "@type"], "a cargo:LogisticsEvent or cargo:StatusUpdateEvent", types[0]);

  const codeAt = property(event, "eventCode");
  if (codeAt === undefined) return reader.fail(event.path, "an eventCode such as StatusCode#DEP", undefined);
  const rawCode = codeOf(codeAt);
  const code = rawCode?.startsWith("DIS_") ? "DIS" : rawCode;
  if (
    code === null ||
    code === undefined ||
    !CODE_RE.test(code) ||
    !(TRACKED.has(code) || HISTORY_ONLY.has(code))
  )
    return reader.fail(
      codeAt.path,
      "a status code of the StatusCode code list such as DEP",
      rawCode ?? codeAt.value,
    );

  const timeTypeAt = property(event, "eventTimeType");
  const timeType = timeTypeAt === undefined ? "ACTUAL" : codeOf(timeTypeAt);
  if (!(EVENT_TIME_TYPES as readonly (string | null)[]).includes(timeType))
    reader.fail(
      timeTypeAt?.path ?? event.path,
      `an eventTimeType ${EVENT_TIME_TYPES.join(", ")}`,
      timeTypeAt?.value,
    );

  const { awb, origin, destination, originAt, destinationAt } = readWaybill(event, reader);

  const locationAt = property(event, "eventLocation");
  if (locationAt === undefined)
    return reader.fail(event.path, "an eventLocation with an IATA airport code", undefined);
  const station = locationCode(locationAt, reader, "eventLocation");

  const dateAt = property(event, "eventDate");
  if (dateAt === undefined) return reader.fail(event.path, "an eventDate (xsd:dateTime)", undefined);
  const time = readDateTime(dateAt, station, reader);

  const quantity = readQuantity(event, reader);
  if (timeType !== "ACTUAL") return null;

  const base = {
    awb,
    origin,
    destination,
    total: null,
    sourceAt: {
      report: reader.at(event.path),
      origin: originAt,
      destination: destinationAt,
      station: reader.at(locationAt.path),
      time: reader.at(dateAt.path),
    },
  };
  const movement = readMovement(event, reader);
  if (!TRACKED.has(code)) {
    return {
      ...base,
      kind: "other-status",
      code,
      station,
      time,
      flight:
        movement === null ? null : { carrierCode: movement.carrierCode, flightNumber: movement.flightNumber },
      pieces: quantity?.pieces ?? null,
      source: `ONE-RECORD/${code}`,
    };
  }
  const status = code as ReportedStatusCode;
  let flight: StatusReport["flight"] = null;
  if (movement !== null && (status === "DEP" || status === "ARR" || status === "RCF")) {
    const date = movement.scheduledDeparture ?? time;
    flight = {
      carrierCode: movement.carrierCode,
      flightNumber: movement.flightNumber,
      flightDay: date.day,
      flightMonth: date.month,
    };
  }
  return {
    ...base,
    kind: "status",
    status,
    station,
    time,
    flight,
    quantity,
    deliveredTo: null,
    source: `ONE-RECORD/${status}`,
  };
}

interface WaybillRead {
  awb: AwbId;
  origin: string;
  destination: string;
  originAt: SourceRef;
  destinationAt: SourceRef;
}

const WAYBILL_EXPECTED =
  "an embedded Waybill (or Shipment with its waybill, or Piece with ofShipment) with waybillPrefix and waybillNumber";

/** The AWB of `eventFor`: the node with waybillPrefix/waybillNumber, following waybill and ofShipment. */
function readWaybill(event: Node, reader: Reader): WaybillRead {
  const forAt = property(event, "eventFor");
  if (forAt === undefined) return reader.fail(event.path, WAYBILL_EXPECTED, undefined);
  let node = asNode(forAt);
  for (let hop = 0; node !== null && hop < MAX_WAYBILL_HOPS; hop++) {
    const prefixAt = property(node, "waybillPrefix");
    const numberAt = property(node, "waybillNumber");
    if (prefixAt !== undefined || numberAt !== undefined) return waybillOf(node, prefixAt, numberAt, reader);
    const next = property(node, "waybill") ?? property(node, "ofShipment");
    node = next === undefined ? null : asNode(next);
  }
  return reader.fail(
    forAt.path,
    WAYBILL_EXPECTED,
    isObject(forAt.value) ? (forAt.value["@id"] ?? "") : forAt.value,
  );
}

function waybillOf(
  node: Node,
  prefixAt: Located | undefined,
  numberAt: Located | undefined,
  reader: Reader,
): WaybillRead {
  const prefix = prefixAt === undefined ? null : literal(prefixAt);
  if (typeof prefix !== "string" || !/^\d{3}$/.test(prefix))
    reader.fail(prefixAt?.path ?? node.path, "a waybillPrefix of 3 digits such as 020", prefixAt?.value);
  const serial = numberAt === undefined ? null : literal(numberAt);
  if (typeof serial !== "string" || !/^\d{8}$/.test(serial))
    return reader.fail(
      numberAt?.path ?? node.path,
      "a waybillNumber of 8 digits such as 12345675",
      numberAt?.value,
    );
  const check = awbCheckDigit(serial);
  if (Number(serial[7]) !== check)
    reader.fail(numberAt?.path ?? node.path, `AWB serial with check digit ${check}`, serial);
  const departure = property(node, "departureLocation");
  const arrival = property(node, "arrivalLocation");
  if (departure === undefined)
    return reader.fail(node.path, "the waybill's departureLocation (AWB origin airport code)", undefined);
  if (arrival === undefined)
    return reader.fail(node.path, "the waybill's arrivalLocation (AWB destination airport code)", undefined);
  return {
    awb: { prefix: prefix as string, serial },
    origin: locationCode(departure, reader, "departureLocation"),
    destination: locationCode(arrival, reader, "arrivalLocation"),
    originAt: reader.at(departure.path),
    destinationAt: reader.at(arrival.path),
  };
}

/** The 3-letter IATA code of a Location (its locationCodes), or a location given as the code itself. */
function locationCode(located: Located, reader: Reader, what: string): string {
  const expected = `an IATA airport code (3 letters) in ${what}'s locationCodes`;
  if (typeof located.value === "string") {
    const code = codeOf(located);
    if (code !== null && isAirportCode(code)) return code;
    return reader.fail(located.path, expected, located.value);
  }
  const node = asNode(located);
  if (node === null) return reader.fail(located.path, expected, located.value);
  for (const [key, value] of Object.entries(node.value)) {
    if (expandIri(key, node.ctx, true) !== `${CARGO_NS}locationCodes`) continue;
    const list = Array.isArray(value) ? value : [value];
    for (let i = 0; i < list.length; i++) {
      const code = codeOf({ value: list[i] as Json, path: [...node.path, key, i], ctx: node.ctx });
      if (code !== null && isAirportCode(code)) return code;
    }
    return reader.fail([...node.path, key], expected, value);
  }
  return reader.fail(located.path, expected, node.value["@id"] ?? "no locationCodes");
}

/** A date-time at `station`: with `Z`/offset an instant turned into the station's local time. */
function readDateTime(located: Located, station: string | null, reader: Reader): StationTime {
  const value = literal(located);
  const expected = "an xsd:dateTime such as 2026-03-14T13:41:00Z";
  const m = typeof value === "string" ? DATE_TIME_RE.exec(value) : null;
  if (m === null) return reader.fail(located.path, expected, located.value);
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = Number(m[6] ?? 0);
  if (
    (month as number) < 1 ||
    (month as number) > 12 ||
    (day as number) < 1 ||
    (day as number) > daysInMonth(month as number, year) ||
    (hour as number) > 23 ||
    (minute as number) > 59 ||
    second > 59
  )
    reader.fail(located.path, expected, value);
  const written: StationTime = {
    year: year as number,
    month: month as number,
    day: day as number,
    hour: hour as number,
    minute: minute as number,
    dayOffset: 0,
  };
  if (m[7] === undefined || station === null) return written;
  let offsetMinutes = 0;
  if (m[7] !== "Z") {
    if (Number(m[9]) > 14 || Number(m[10]) > 59)
      reader.fail(located.path, "a UTC offset between -14:00 and +14:00", value);
    offsetMinutes = (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  }
  const instantMs =
    Date.UTC(written.year as number, written.month - 1, written.day, written.hour, written.minute, second) -
    offsetMinutes * 60_000;
  try {
    return stationTimeAt(station, instantMs);
  } catch (error) {
    // An unknown station is refused (422, naming eventLocation) before anything is stored.
    if (error instanceof UnknownStationError) return written;
    throw error;
  }
}

/** StatusUpdateEvent's recordedPieceCount / recordedWeight / recordedVolume, when the pieces are given. */
function readQuantity(event: Node, reader: Reader): Quantity | null {
  const piecesAt = property(event, "recordedPieceCount");
  if (piecesAt === undefined) return null;
  const pieces = literal(piecesAt);
  const count = typeof pieces === "string" && /^\d{1,4}$/.test(pieces) ? Number(pieces) : pieces;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0 || count > 9999)
    reader.fail(piecesAt.path, "a recordedPieceCount from 0 to 9999", piecesAt.value);
  let weight: number | null = null;
  let weightCode: "K" | "L" | null = null;
  const weightAt = property(event, "recordedWeight");
  const weightValue = weightAt === undefined ? null : readValue(weightAt, reader, "recordedWeight");
  if (weightValue !== null && weightAt !== undefined) {
    weightCode = weightValue.unit === "LBR" ? "L" : weightValue.unit === "KGM" ? "K" : null;
    if (weightCode === null) reader.fail(weightAt.path, "a weight unit KGM or LBR", weightValue.unit);
    const problem = weightProblem(weightValue.amount, weightCode);
    if (problem !== null) reader.fail(weightAt.path, problem, String(weightValue.amount));
    weight = weightValue.amount;
  }
  let volume: number | null = null;
  const volumeAt = property(event, "recordedVolume");
  const volumeValue = volumeAt === undefined ? null : readValue(volumeAt, reader, "recordedVolume");
  if (volumeValue !== null && volumeAt !== undefined) {
    volume = toCubicMetres(volumeValue.amount, volumeValue.unit);
    if (volume === null) reader.fail(volumeAt.path, "a volume unit such as MTQ", volumeValue.unit);
    const problem = volumeProblem(volume);
    if (problem !== null) reader.fail(volumeAt.path, problem, String(volumeValue.amount));
  }
  return {
    pieces: count as number,
    weightCode,
    weight,
    volumeCode: volume === null ? null : "CM",
    volume,
  };
}

/** A cargo:Value: numericalValue and unit (a MeasurementUnitCode IRI or code). */
function readValue(located: Located, reader: Reader, what: string): { amount: number; unit: string } {
  const node = asNode(located);
  if (node === null)
    return reader.fail(located.path, `a Value with numericalValue and unit in ${what}`, located.value);
  const amountAt = property(node, "numericalValue");
  const amount = amountAt === undefined ? null : literal(amountAt);
  const number = typeof amount === "string" ? Number(amount) : amount;
  if (typeof number !== "number" || !Number.isFinite(number))
    return reader.fail(amountAt?.path ?? node.path, "a finite numericalValue", amountAt?.value);
  const unitAt = property(node, "unit");
  const unit = unitAt === undefined ? null : codeOf(unitAt);
  if (unit === null) return reader.fail(unitAt?.path ?? node.path, "a unit such as KGM", unitAt?.value);
  return { amount: number, unit };
}

interface MovementRead {
  carrierCode: string;
  flightNumber: string;
  scheduledDeparture: StationTime | null;
}

/** The flight of transportMovementReference (an embedded TransportMovement), or null. */
function readMovement(event: Node, reader: Reader): MovementRead | null {
  const at = property(event, "transportMovementReference");
  const node = at === undefined ? null : asNode(at);
  if (node === null) return null;
  const idAt = property(node, "transportIdentifier");
  if (idAt === undefined) return null;
  const id = literal(idAt);
  const designator = typeof id === "string" ? splitFlightDesignator(id.replace(" ", "")) : null;
  if (designator === null) return reader.fail(idAt.path, "a transportIdentifier such as LH400", idAt.value);
  const departureAt = property(node, "departureLocation");
  const departure = departureAt === undefined ? null : locationCode(departureAt, reader, "departureLocation");
  let scheduledDeparture: StationTime | null = null;
  for (const [key, value] of Object.entries(node.value)) {
    if (expandIri(key, node.ctx, true) !== `${CARGO_NS}movementTimes`) continue;
    const list = Array.isArray(value) ? value : [value];
    list.forEach((item, i) => {
      const timeNode = asNode({ value: item, path: [...node.path, key, i], ctx: node.ctx });
      if (timeNode === null || scheduledDeparture !== null) return;
      const direction = property(timeNode, "direction");
      const type = property(timeNode, "movementTimeType");
      const stamp = property(timeNode, "movementTimestamp");
      if (direction === undefined || type === undefined || stamp === undefined) return;
      if (codeOf(direction) !== "OUTBOUND" || codeOf(type) !== "SCHEDULED") return;
      // The flight is named by its date at the departure station.
      scheduledDeparture = readDateTime(stamp, departure, reader);
    });
  }
  return { ...designator, scheduledDeparture };
}

/** A reference in a Notification: the IRI and where it was written. */
export interface NotificationReference {
  iri: string;
  at: SourceRef;
}

/** What a ONE Record `api:Notification` announces (API 2.x). */
export interface OneRecordNotification {
  /** The local name of `api:hasEventType`: LOGISTICS_EVENT_RECEIVED, LOGISTICS_OBJECT_UPDATED, ... */
  eventType: string;
  eventTypeAt: SourceRef;
  /** `api:hasLogisticsObject`. */
  logisticsObject: NotificationReference | null;
  /** `api:hasLogisticsEvent` (API 2.3; none in 2.0/2.1 notifications). */
  logisticsEvents: NotificationReference[];
}

/** Every value of a node's property `ns#name`, each with its path. */
function allProperties(node: Node, name: string, ns: string): Located[] {
  for (const [key, value] of Object.entries(node.value)) {
    if (key.startsWith("@") || expandIri(key, node.ctx, true) !== `${ns}${name}`) continue;
    if (!Array.isArray(value)) return [{ value, path: [...node.path, key], ctx: node.ctx }];
    return value.map((item, i) => ({ value: item, path: [...node.path, key, i], ctx: node.ctx }));
  }
  return [];
}

function referenceOf(located: Located, reader: Reader, what: string): NotificationReference {
  const id = isObject(located.value) ? located.value["@id"] : located.value;
  if (typeof id !== "string" || id === "")
    return reader.fail(located.path, `${what} with an @id IRI`, located.value);
  return { iri: expandIri(id, located.ctx, false), at: reader.at(located.path) };
}

/**
 * Parses a ONE Record Notification (already JSON.parse'd; `sourceText` names lines). MessageParseError
 * (400) naming the path when it is not one, or a reference has no IRI. At most MAX_MESSAGES_PER_BODY
 * events may be announced.
 */
export function parseOneRecordNotification(body: unknown, sourceText?: string): OneRecordNotification {
  const reader = new Reader(sourceText);
  if (!isObject(body)) return reader.fail([], "a JSON-LD api:Notification object", body);
  const node: Node = { value: body, ctx: withContext(DEFAULT_CONTEXT, body), path: [] };
  const types = typesOf(node);
  if (types.length > 0 && !types.includes(`${API_NS}Notification`))
    reader.fail(["@type"], "an api:Notification", types[0]);
  const [typeAt] = allProperties(node, "hasEventType", API_NS);
  if (typeAt === undefined)
    return reader.fail([], "an api:hasEventType such as api:LOGISTICS_EVENT_RECEIVED", undefined);
  const eventType = codeOf(typeAt);
  if (eventType === null || !/^[A-Z_]{1,64}$/.test(eventType))
    return reader.fail(typeAt.path, "an api:hasEventType such as api:LOGISTICS_EVENT_RECEIVED", typeAt.value);
  const [objectAt] = allProperties(node, "hasLogisticsObject", API_NS);
  const events = allProperties(node, "hasLogisticsEvent", API_NS);
  if (events.length > MAX_MESSAGES_PER_BODY)
    reader.fail(
      events[MAX_MESSAGES_PER_BODY]?.path ?? [],
      `at most ${MAX_MESSAGES_PER_BODY} announced LogisticsEvents`,
      `${events.length}`,
    );
  return {
    eventType,
    eventTypeAt: reader.at(typeAt.path),
    logisticsObject: objectAt === undefined ? null : referenceOf(objectAt, reader, "api:hasLogisticsObject"),
    logisticsEvents: events.map((e) => referenceOf(e, reader, "api:hasLogisticsEvent")),
  };
}
