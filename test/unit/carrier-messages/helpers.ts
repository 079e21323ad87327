import { readFileSync } from "node:fs";
import type { AwbId, Quantity, StationTime } from "../../../functions/core/carrier-messages/types.ts";

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
