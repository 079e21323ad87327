import { readFileSync } from "node:fs";
import type {
  AwbId,
  CarrierReport,
  Quantity,
  StationTime,
} from "../../../functions/core/carrier-messages/types.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);

export function fixture(dir: string, name: string): string {
  return readFileSync(new URL(`${dir}/${name}`, FIXTURES), "utf8");
}

export function awb(serial: string, prefix = "020"): AwbId {
  return { prefix, serial };
}

export function qty(
  pieces: number,
  weightCode: "K" | "L" | null = null,
  weight: number | null = null,
  volume: number | null = null,
): Quantity {
  return { pieces, weightCode, weight, volumeCode: volume === null ? null : "CM", volume };
}

export function at(
  month: number,
  day: number,
  hour: number,
  minute: number,
  dayOffset = 0,
  year?: number,
): StationTime {
  return year === undefined
    ? { month, day, hour, minute, dayOffset }
    : { year, month, day, hour, minute, dayOffset };
}

type Unlocated<R> = R extends { legs: Array<infer L> }
  ? Omit<R, "sourceAt" | "message" | "legs"> & { legs: Array<Omit<L, "at">> }
  : Omit<R, "sourceAt" | "message">;

/**
 * Reports without where they were read (`sourceAt`, each leg's `at`) and the message they came from
 * (`message`: its type, version and envelope reference), for tests about what a message says; where
 * it says it, and in which message, have tests of their own.
 */
export function unlocated(reports: readonly CarrierReport[]): Array<Unlocated<CarrierReport>> {
  return reports.map((report) => {
    const { sourceAt: _sourceAt, message: _message, ...rest } = report;
    if (!("legs" in rest)) return rest;
    return { ...rest, legs: rest.legs.map(({ at: _at, ...leg }) => leg) };
  });
}
