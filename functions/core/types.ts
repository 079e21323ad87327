/**
 * The core's shared vocabulary: the few types (and the milestone list) that errors, parsers, the
 * route-map core and the use cases all speak. A leaf: it imports nothing, so every module can import it
 * without tying itself to the parsers or the use cases (functions/core/errors.ts is built on it alone).
 */

/** Milestones of a route map, in the order they happen. */
export const MILESTONE_NAMES = ["FWB", "LAT", "RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"] as const;
export type MilestoneName = (typeof MILESTONE_NAMES)[number];

/** RMP = route map planned or replanned, CAN = booking cancelled. */
export type EventName = MilestoneName | "RMP" | "CAN";

export interface AwbId {
  /** 3-digit airline prefix, e.g. "020". */
  prefix: string;
  /** 8-digit serial whose last digit is the mod-7 check digit, e.g. "12345675". */
  serial: string;
}

/**
 * A station-local time as carriers send it. Cargo-IMP has no year: `year` is then absent and the core
 * picks the year nearest the receipt time. `dayOffset` carries the Cargo-IMP day-change suffix of a
 * time group (`-N` next day: +1, `-P` previous day: -1, none: 0).
 */
export interface StationTime {
  year?: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
  hour: number;
  minute: number;
  /** Days to add after resolving day/month: +1 for a `-N` suffix, -1 for `-P`, 0 without suffix. */
  dayOffset: number;
  /**
   * The station's offset from UTC at this time in minutes (CET: 60), when the message gave the instant
   * exactly (an XFSU time with `Z` or `+01:00`): the UTC instant is then this local time minus the
   * offset, even in the hour a daylight-saving change repeats. Absent: read through the station's zone.
   */
  utcOffsetMinutes?: number;
}

/** One problem of a request body, as problem+json lists it. */
export interface FieldError {
  field: string;
  message: string;
}

/** What ingesting one carrier message did to its AWB. */
export interface AppliedMessage {
  awb: AwbId;
  /** false: a repeat, or nothing new (nothing stored). */
  changed: boolean;
  /** Events the message caused (Missed events raised at the same time are not listed). */
  events: EventName[];
}
