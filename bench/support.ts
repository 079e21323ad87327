/** Shared by the benchmarks: statistics, a seeded route map, and the figure line each script ends with. */
import { awbCheckDigit } from "../functions/core/awb.ts";
import { toPair } from "../functions/core/time/station-time.ts";

export const HOUR = 3_600_000;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The last line of every benchmark: `FIGURE <name>: <value>`; run-all collects these. */
export function figure(name: string, value: string): void {
  process.stdout.write(`FIGURE ${name}: ${value}\n`);
}

/** A valid 8-digit AWB serial from a 7-digit base. */
export function serialFor(base: number): string {
  const seven = String(base % 10_000_000).padStart(7, "0");
  return `${seven}${awbCheckDigit(seven)}`;
}

const localJson = (station: string, ms: number) =>
  toPair(station, new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")).Local.slice(0, 16);

/**
 * Our JSON carrier form for one AWB: a two-leg booking (FRA-CGN truck, CGN-JFK flight) departing in
 * `hoursAhead` hours, and the FWB naming agent 1234567/0001 — a fresh route map whose next milestone
 * is still ahead (so reads need no re-render).
 */
export function bookingAndFwb(serial: string, hoursAhead = 48, nowMs = Date.now()) {
  const std1 = Math.floor((nowMs + hoursAhead * HOUR) / 60_000) * 60_000;
  const sta1 = std1 + 2 * HOUR;
  const std2 = sta1 + 4 * HOUR;
  const sta2 = std2 + 9 * HOUR;
  const base = {
    AirlinePrefix: "020",
    AwbNumber: serial,
    Origin: "FRA",
    Destination: "JFK",
    Pieces: 10,
    WeightCode: "K",
    Weight: 250,
  };
  return {
    Messages: [
      {
        ...base,
        Type: "BKD",
        Legs: [
          {
            CarrierCode: "LH",
            FlightNumber: "9001",
            Date: localJson("FRA", std1).slice(0, 10),
            Origin: "FRA",
            Destination: "CGN",
            ScheduledDeparture: localJson("FRA", std1),
            ScheduledArrival: localJson("CGN", sta1),
            IsRoadFeederService: true,
          },
          {
            CarrierCode: "LH",
            FlightNumber: "400",
            Date: localJson("CGN", std2).slice(0, 10),
            Origin: "CGN",
            Destination: "JFK",
            ScheduledDeparture: localJson("CGN", std2),
            ScheduledArrival: localJson("JFK", sta2),
            IsRoadFeederService: false,
          },
        ],
      },
      { ...base, Type: "FWB", Agent: { Code: "1234567", Cass: "0001" } },
    ],
  };
}
