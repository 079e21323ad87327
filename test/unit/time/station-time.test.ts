import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StationTime } from "../../../functions/core/carrier-messages/types.ts";
import { InvalidStationTimeError, UnknownStationError } from "../../../functions/core/errors.ts";
import {
  localToUtcMs,
  nearestYear,
  normaliseUtc,
  resolveStationTime,
  stationTimeAt,
  toPair,
} from "../../../functions/core/time/station-time.ts";
import { requireStationTimeZone, stationTimeZone } from "../../../functions/core/time/time-zones.ts";

const t = (day: number, month: number, hhmm: string, dayOffset = 0, year?: number): StationTime => ({
  ...(year === undefined ? {} : { year }),
  month,
  day,
  hour: Number(hhmm.slice(0, 2)),
  minute: Number(hhmm.slice(2, 4)),
  dayOffset,
});

describe("stationTimeZone", () => {
  it("finds IANA zones from the airport dataset", () => {
    expect(stationTimeZone("FRA")).toBe("Europe/Berlin");
    expect(stationTimeZone("JFK")).toBe("America/New_York");
    expect(stationTimeZone("HKG")).toBe("Asia/Hong_Kong");
    expect(stationTimeZone("fra")).toBe("Europe/Berlin");
  });

  it("answers null, or a typed error, for an unknown station", () => {
    expect(stationTimeZone("QQQ")).toBeNull();
    expect(stationTimeZone("")).toBeNull();
    expect(() => requireStationTimeZone("QQQ")).toThrow(UnknownStationError);
    expect(() => resolveStationTime("QQQ", t(14, 3, "1325"), "2026-03-01T00:00:00Z")).toThrow(
      expect.objectContaining({ name: "UnknownStationError", station: "QQQ" }),
    );
  });
});

describe("resolveStationTime", () => {
  const winter = "2026-11-22T12:00:00Z";

  it("converts FRA winter (CET, +1) and summer (CEST, +2)", () => {
    expect(resolveStationTime("FRA", t(22, 11, "0800"), winter)).toEqual({
      Utc: "2026-11-22T07:00:00Z",
      Local: "2026-11-22T08:00:00",
    });
    expect(resolveStationTime("FRA", t(14, 7, "1325"), "2026-07-01T00:00:00Z")).toEqual({
      Utc: "2026-07-14T11:25:00Z",
      Local: "2026-07-14T13:25:00",
    });
  });

  it("converts JFK (EST -5, EDT -4)", () => {
    expect(resolveStationTime("JFK", t(22, 11, "1600"), winter).Utc).toBe("2026-11-22T21:00:00Z");
    expect(resolveStationTime("JFK", t(14, 7, "1555"), "2026-07-01T00:00:00Z").Utc).toBe(
      "2026-07-14T19:55:00Z",
    );
  });

  it("handles DST switch dates: gaps move forward, overlaps take the earlier instant", () => {
    // Berlin springs forward 29 Mar 2026 02:00 -> 03:00; 02:30 does not exist.
    expect(resolveStationTime("FRA", t(29, 3, "0230"), "2026-03-20T00:00:00Z")).toEqual({
      Utc: "2026-03-29T01:30:00Z",
      Local: "2026-03-29T03:30:00",
    });
    expect(resolveStationTime("FRA", t(29, 3, "0159"), "2026-03-20T00:00:00Z").Utc).toBe(
      "2026-03-29T00:59:00Z",
    );
    expect(resolveStationTime("FRA", t(29, 3, "0300"), "2026-03-20T00:00:00Z").Utc).toBe(
      "2026-03-29T01:00:00Z",
    );
    // Berlin falls back 25 Oct 2026 03:00 -> 02:00; 02:30 happens twice: the first (CEST) is taken.
    expect(resolveStationTime("FRA", t(25, 10, "0230"), "2026-10-20T00:00:00Z").Utc).toBe(
      "2026-10-25T00:30:00Z",
    );
    // New York: spring forward 8 Mar 2026, fall back 1 Nov 2026.
    expect(resolveStationTime("JFK", t(8, 3, "0230"), "2026-03-01T00:00:00Z")).toEqual({
      Utc: "2026-03-08T07:30:00Z",
      Local: "2026-03-08T03:30:00",
    });
    expect(resolveStationTime("JFK", t(1, 11, "0130"), "2026-10-30T00:00:00Z").Utc).toBe(
      "2026-11-01T05:30:00Z",
    );
    expect(resolveStationTime("JFK", t(1, 11, "0300"), "2026-10-30T00:00:00Z").Utc).toBe(
      "2026-11-01T08:00:00Z",
    );
  });

  it("picks the year nearest the receipt, around New Year", () => {
    expect(resolveStationTime("FRA", t(31, 12, "2300"), "2027-01-01T02:00:00Z").Utc).toBe(
      "2026-12-31T22:00:00Z",
    );
    expect(resolveStationTime("FRA", t(2, 1, "0100"), "2026-12-30T10:00:00Z").Utc).toBe(
      "2027-01-02T00:00:00Z",
    );
    expect(resolveStationTime("JFK", t(15, 6, "1200"), "2026-11-22T12:00:00Z").Utc).toBe(
      "2026-06-15T16:00:00Z",
    );
    // 29 Feb only exists in leap years: the nearest leap year around the receipt.
    expect(resolveStationTime("FRA", t(29, 2, "1000"), "2028-02-20T00:00:00Z").Utc).toBe(
      "2028-02-29T09:00:00Z",
    );
  });

  it("does not move 29FEB to a leap year further away than the nearest February", () => {
    // Received March 2027: the nearest February is 2027's, which has no 29th (2028's is 11 months on).
    expect(() => resolveStationTime("FRA", t(29, 2, "1000"), "2027-03-10T00:00:00Z")).toThrow(
      InvalidStationTimeError,
    );
    expect(nearestYear("FRA", t(29, 2, "1000"), "2027-03-10T00:00:00Z")).toBe(2027);
    // Received November 2027: February 2028 is nearest, and has a 29th.
    expect(resolveStationTime("FRA", t(29, 2, "1000"), "2027-11-22T00:00:00Z").Utc).toBe(
      "2028-02-29T09:00:00Z",
    );
    expect(nearestYear("FRA", t(29, 2, "1000", 0, 2024), "2027-11-22T00:00:00Z")).toBe(2024);
  });

  it("reads a time that carries the station's UTC offset as that exact instant", () => {
    // 02:30 on 25 OCT 2026 happens twice in Frankfurt; the offset says which.
    expect(
      resolveStationTime(
        "FRA",
        { ...t(25, 10, "0230", 0, 2026), utcOffsetMinutes: 60 },
        "2026-10-25T03:00:00Z",
      ),
    ).toEqual({
      Utc: "2026-10-25T01:30:00Z",
      Local: "2026-10-25T02:30:00",
    });
    expect(resolveStationTime("FRA", t(25, 10, "0230", 0, 2026), "2026-10-25T03:00:00Z").Utc).toBe(
      "2026-10-25T00:30:00Z",
    );
  });

  it("stationTimeAt gives the local time and offset of an instant at a station", () => {
    expect(stationTimeAt("JFK", Date.parse("2026-03-15T03:10:30Z"))).toEqual({
      ...t(14, 3, "2310", 0, 2026),
      utcOffsetMinutes: -240,
    });
    expect(() => stationTimeAt("QQQ", 0)).toThrow(UnknownStationError);
  });

  it("applies the Cargo-IMP day change after choosing the year", () => {
    // 31DEC 23:00-N received on 1 January is 1 January 23:00 of the new year.
    expect(resolveStationTime("JFK", t(31, 12, "2300", 1), "2027-01-01T10:00:00Z")).toEqual({
      Utc: "2027-01-02T04:00:00Z",
      Local: "2027-01-01T23:00:00",
    });
    expect(resolveStationTime("FRA", t(1, 3, "0100", -1), "2026-03-01T00:00:00Z").Local).toBe(
      "2026-02-28T01:00:00",
    );
  });

  it("uses the year when the message carries one", () => {
    expect(resolveStationTime("FRA", t(22, 11, "0800", 0, 2024), "2026-11-22T12:00:00Z").Utc).toBe(
      "2024-11-22T07:00:00Z",
    );
  });

  it("rejects dates the calendar does not have", () => {
    expect(() => resolveStationTime("FRA", t(31, 4, "1000"), "2026-04-01T00:00:00Z")).toThrow(
      InvalidStationTimeError,
    );
    expect(() => resolveStationTime("FRA", t(1, 13, "1000"), "2026-04-01T00:00:00Z")).toThrow(
      InvalidStationTimeError,
    );
    expect(() => resolveStationTime("FRA", t(1, 4, "2460"), "2026-04-01T00:00:00Z")).toThrow(
      InvalidStationTimeError,
    );
  });
});

describe("toPair and normalisation", () => {
  it("renders a UTC instant in station local time without milliseconds", () => {
    expect(toPair("FRA", "2026-07-01T10:00:00.123Z")).toEqual({
      Utc: "2026-07-01T10:00:00Z",
      Local: "2026-07-01T12:00:00",
    });
    expect(toPair("SYD", "2026-11-22T12:00:00Z").Local).toBe("2026-11-22T23:00:00");
    expect(toPair("JFK", "2026-11-22T02:00:00+00:00")).toEqual({
      Utc: "2026-11-22T02:00:00Z",
      Local: "2026-11-21T21:00:00",
    });
  });

  it("normalises instants and refuses zone-less strings", () => {
    expect(normaliseUtc("2026-11-22T12:00:00.999Z")).toBe("2026-11-22T12:00:00Z");
    expect(normaliseUtc("2026-11-22T13:00:00+01:00")).toBe("2026-11-22T12:00:00Z");
    expect(() => normaliseUtc("2026-11-22T12:00:00")).toThrow(RangeError);
  });

  it("round-trips every instant through local time (outside DST overlaps)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("FRA", "JFK", "SYD", "HKG", "GRU", "LHR", "DEL"),
        fc.integer({
          min: Date.parse("2025-01-01T00:00:00Z") / 60_000,
          max: Date.parse("2028-12-31T00:00:00Z") / 60_000,
        }),
        (station, minutes) => {
          const utc = new Date(minutes * 60_000).toISOString();
          const pair = toPair(station, utc);
          const wall = Date.parse(`${pair.Local}Z`);
          const back = localToUtcMs(requireStationTimeZone(station), wall);
          // In an overlap hour the earlier of the two instants is chosen: at most one hour earlier.
          expect(back <= minutes * 60_000).toBe(true);
          expect(minutes * 60_000 - back === 0 || minutes * 60_000 - back === 3_600_000).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
