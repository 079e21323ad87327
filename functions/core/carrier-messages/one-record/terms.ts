/**
 * How ONE Record data models write what the service reads: codes from code lists, date-times and
 * measured values, and which StatusCode codes the service tracks.
 *   code         a plain code; an IRI naming it, compact (`cargo:ACTUAL`, with the document's
 *                context) or not: data model 3.0's core code lists
 *                (`https://onerecord.iata.org/ns/coreCodeLists#StatusCode_DEP`, the list's name and
 *                `_` before the code), 3.1 to 3.3's code lists
 *                (`https://onerecord.iata.org/ns/code-lists/StatusCode#DEP`); `{ "@id": IRI }`; or a
 *                CodeListElement with `code` (its own `@id` may be any internal IRI). DIS_xxx reads DIS.
 *   date-time    xsd:dateTime; with `Z` or an offset an exact instant, turned into the station's local
 *                time; without, the station's local time as written.
 *   Value        numericalValue + unit (a MeasurementUnitCode IRI or code: KGM, LBR, MTQ, ...).
 * Tracked codes (RCS DEP ARR RCF NFD AWD DLV) become status reports; the other StatusCode codes
 * (BKD, FOH, MAN, DIS, ...) are kept as history, like Cargo-IMP's.
 */
import { UnknownStationError } from "../../errors.ts";
import { stationTimeAt } from "../../time/station-time.ts";
import { daysInMonth, UNTRACKED_FSU_CODES } from "../common.ts";
import type { StationTime } from "../types.ts";
import {
  asNode,
  expandIri,
  isObject,
  type Located,
  literal,
  type Node,
  property,
  type Reader,
} from "./json-ld.ts";

export const TRACKED: ReadonlySet<string> = new Set(["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]);
/** StatusCode codes kept as history: Cargo-IMP's untracked ones, plus BKD and DPU (no itinerary here). */
export const HISTORY_ONLY: ReadonlySet<string> = new Set([...UNTRACKED_FSU_CODES, "BKD", "DPU"]);
export const EVENT_TIME_TYPES = ["ACTUAL", "PLANNED", "ESTIMATED", "EXPECTED", "REQUESTED"] as const;
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))?$/;
export const CODE_RE = /^[A-Z]{3}$/;

/** Data model 3.0's core code lists: `StatusCode_DEP` is the code DEP of the list StatusCode. */
export const CORE_CODE_LISTS_NS = "https://onerecord.iata.org/ns/coreCodeLists#";
/** Data model 3.1 to 3.3's code lists: `code-lists/StatusCode#DEP`. */
export const CODE_LISTS_NS = "https://onerecord.iata.org/ns/code-lists/";

/**
 * The code an IRI names: the part after `#` (or the last `/`), without the list's name in the core
 * code lists: `.../StatusCode#DEP` -> `DEP`, `coreCodeLists#StatusCode_DEP` -> `DEP`, `cargo:ACTUAL`
 * -> `ACTUAL`.
 */
function localName(iri: string): string {
  if (iri.startsWith(CORE_CODE_LISTS_NS)) {
    const name = iri.slice(CORE_CODE_LISTS_NS.length);
    const underscore = name.indexOf("_");
    return underscore === -1 ? name : name.slice(underscore + 1);
  }
  const hash = iri.lastIndexOf("#");
  if (hash !== -1) return iri.slice(hash + 1);
  const slash = iri.lastIndexOf("/");
  return slash === -1 ? iri : iri.slice(slash + 1);
}

/** A code: a plain code, an IRI (compact or not) naming it, `{ "@id": IRI }` or a CodeListElement. */
export function codeOf(located: Located): string | null {
  const { value, ctx } = located;
  if (typeof value === "string") return value.includes(":") ? localName(expandIri(value, ctx, false)) : value;
  if (!isObject(value)) return null;
  // A CodeListElement says its code; its @id may be an internal IRI that names nothing.
  const node = asNode(located);
  const code = node === null ? undefined : property(node, "code");
  const text = code === undefined ? null : literal(code);
  if (typeof text === "string") return text;
  const id = value["@id"];
  return typeof id === "string" ? localName(expandIri(id, ctx, false)) : null;
}

/** The IRI a code is written with (expanded), or null for a plain code or a CodeListElement's code. */
export function codeIriOf(located: Located): string | null {
  const { value, ctx } = located;
  const id = isObject(value) ? value["@id"] : value;
  if (typeof id !== "string" || !id.includes(":")) return null;
  return expandIri(id, ctx, false);
}

/** The StatusCode code of an event's eventCode (DIS_xxx reads DIS), or null. */
export function statusCodeOf(event: Node): string | null {
  const codeAt = property(event, "eventCode");
  const raw = codeAt === undefined ? null : codeOf(codeAt);
  return raw?.startsWith("DIS_") ? "DIS" : raw;
}

/** A date-time at `station`: with `Z`/offset an instant turned into the station's local time. */
export function readDateTime(located: Located, station: string | null, reader: Reader): StationTime {
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

/** A cargo:Value: numericalValue and unit (a MeasurementUnitCode IRI or code). */
export function readValue(located: Located, reader: Reader, what: string): { amount: number; unit: string } {
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
