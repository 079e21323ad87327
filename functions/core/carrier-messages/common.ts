/**
 * Small pure helpers shared by the Cargo-IMP, XFSU and JSON parsers: AWB check digit, month names,
 * flight designators, airport codes and volume units. Regexes are compiled once, all anchored and
 * free of nested quantifiers so that a hostile line cannot make them backtrack.
 */
import { awbCheckDigit as checkDigitOfFirstSeven } from "../awb.ts";

export const MONTH_ABBREVIATIONS = [
  "JAN",
  "FEB",
  "MAR",
  "APR",
  "MAY",
  "JUN",
  "JUL",
  "AUG",
  "SEP",
  "OCT",
  "NOV",
  "DEC",
] as const;

const MONTH_NUMBER: ReadonlyMap<string, number> = new Map(
  MONTH_ABBREVIATIONS.map((name, i) => [name, i + 1]),
);

/** 1..12 for JAN..DEC, undefined otherwise. */
export function monthNumber(abbreviation: string): number | undefined {
  return MONTH_NUMBER.get(abbreviation);
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month; without a year February has 29 (Cargo-IMP dates carry no year). */
export function daysInMonth(month: number, year?: number): number {
  if (month === 2 && year !== undefined) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

/** The 8th digit of an AWB serial (the rule itself lives in core/awb.ts). */
export function awbCheckDigit(serial: string): number {
  return checkDigitOfFirstSeven(serial.slice(0, 7));
}

const AIRPORT_RE = /^[A-Z]{3}$/;
export function isAirportCode(value: string): boolean {
  return AIRPORT_RE.test(value);
}

/**
 * A flight designator as IATA writes it: the airline designator (two characters, letters or a letter
 * and a digit, or the three letters of an ICAO designator such as DNT), then 1-4 digits (leading
 * zeros kept as sent: KZ0254) and an optional operational suffix letter (RU7771B). Each alternative
 * has a fixed length, so the anchored pattern cannot backtrack far.
 */
const FLIGHT_RE = /^([A-Z0-9]{2}|[A-Z]{3})(\d{1,4}[A-Z]?)$/;
const CARRIER_RE = /^(?:[A-Z]{2,3}|[A-Z]\d|\d[A-Z])$/;
const FLIGHT_NUMBER_RE = /^\d{1,4}[A-Z]?$/;

export interface FlightDesignator {
  carrierCode: string;
  flightNumber: string;
}

/** Splits "LH400" into carrier "LH" and number "400"; null when it is not a flight designator. */
export function splitFlightDesignator(value: string): FlightDesignator | null {
  const m = FLIGHT_RE.exec(value);
  if (m === null) return null;
  const carrierCode = m[1] as string;
  if (!CARRIER_RE.test(carrierCode)) return null;
  return { carrierCode, flightNumber: m[2] as string };
}

/** An airline designator: two characters (not two digits) or three letters. */
export function isCarrierCode(value: string): boolean {
  return CARRIER_RE.test(value);
}

export function isFlightNumber(value: string): boolean {
  return FLIGHT_NUMBER_RE.test(value);
}

/**
 * Cargo-IMP day change indicators (code list 1.41): the days to add to the date a time refers to.
 * P previous day, N next, S second, T third, then A to L for the 4th to the 15th day.
 */
const DAY_CHANGE: Readonly<Record<string, number>> = {
  P: -1,
  N: 1,
  S: 2,
  T: 3,
  A: 4,
  B: 5,
  C: 6,
  D: 7,
  E: 8,
  F: 9,
  G: 10,
  H: 11,
  I: 12,
  J: 13,
  K: 14,
  L: 15,
};

/** Days a day change indicator adds (-1 to 15); undefined for a letter that is none. */
export function dayChangeDays(code: string): number | undefined {
  return DAY_CHANGE[code];
}

/** Cubic metres per unit of each Cargo-IMP volume code; the contract always speaks cubic metres ("CM"). */
const CUBIC_METRES_PER_UNIT: Readonly<Record<string, number>> = {
  MC: 1,
  CM: 1,
  MTQ: 1,
  CF: 0.028316846592,
  FTQ: 0.028316846592,
  CC: 0.000001,
  CMQ: 0.000001,
  CI: 0.000016387064,
  INQ: 0.000016387064,
};

/** Converts a volume to cubic metres (rounded to 3 decimals); null for an unknown unit. */
export function toCubicMetres(amount: number, unit: string): number | null {
  const factor = CUBIC_METRES_PER_UNIT[unit];
  if (factor === undefined) return null;
  return factor === 1 ? amount : Math.round(amount * factor * 1000) / 1000;
}

/**
 * Most legs one itinerary may have. Real ones have a handful; the cap keeps every route-map change
 * (3 milestones per leg, each possibly raising an event) inside one storage transaction, so a message
 * that could not be stored is refused before anything is written.
 */
export const MAX_ITINERARY_LEGS = 12;
export const EXPECT_AT_MOST_LEGS = `at most ${MAX_ITINERARY_LEGS} legs in one itinerary`;

/** FSU status codes of the standard that a route map does not track: skipped, not rejected. */
export const UNTRACKED_FSU_CODES: ReadonlySet<string> = new Set([
  "FOH",
  "RCT",
  "MAN",
  "PRE",
  "TFD",
  "TRM",
  "CCD",
  "DDL",
  "TGC",
  "CRC",
  "DIS",
  "DOC",
  "FOW",
  "FIW",
  "AWR",
  "OSI",
  "OCI",
  "ULD",
]);

/**
 * Plausible quantities: every weight and volume a carrier sends, in any
 * format, is finite and either 0 or within these bounds, so nothing outside DynamoDB's number range
 * (or a shipment no aircraft could carry) is ever stored. Pieces are bounded by each format (n4).
 * Weight: at most 1,000 t, i.e. 1,000,000 kg or 2,204,623 lb; volume (after conversion to cubic
 * metres): at most 100,000 m³; the smallest non-zero amount of either is 0.001 (1 g, 1 litre).
 */
export const MAX_WEIGHT: Readonly<Record<"K" | "L", number>> = { K: 1_000_000, L: 2_204_623 };
export const MAX_VOLUME_CUBIC_METRES = 100_000;
export const MIN_NON_ZERO_AMOUNT = 0.001;

/** Null when `amount` is a plausible weight in `unit`; else what was expected, in words. */
export function weightProblem(amount: number, unit: "K" | "L"): string | null {
  const max = MAX_WEIGHT[unit];
  if (Number.isFinite(amount) && (amount === 0 || (amount >= MIN_NON_ZERO_AMOUNT && amount <= max)))
    return null;
  return `a weight of 0 or ${MIN_NON_ZERO_AMOUNT} to ${max.toLocaleString("en-US")} ${unit === "K" ? "kg" : "lb"}`;
}

/** Null when `cubicMetres` is a plausible volume; else what was expected, in words. */
export function volumeProblem(cubicMetres: number): string | null {
  if (
    Number.isFinite(cubicMetres) &&
    (cubicMetres === 0 || (cubicMetres >= MIN_NON_ZERO_AMOUNT && cubicMetres <= MAX_VOLUME_CUBIC_METRES))
  )
    return null;
  return `a volume of 0 or ${MIN_NON_ZERO_AMOUNT} to ${MAX_VOLUME_CUBIC_METRES.toLocaleString("en-US")} cubic metres`;
}

/**
 * Most messages (reports) one request body may carry, in every format: the JSON form's 100
 * messages, a Cargo-IMP body's status lines / FWB / FFR / FFA messages, an XFSU's reported statuses.
 * Applying a full body stays well inside the function's deadline.
 */
export const MAX_MESSAGES_PER_BODY = 100;
