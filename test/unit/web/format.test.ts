/** The app's formatting: AWBs, verdicts, durations, station-local times and zone labels. */
import { describe, expect, it } from "vitest";
import {
  awbDigits,
  formatAwb,
  formatLocal,
  formatMinutes,
  formatUtc,
  offsetMinutes,
  utcOffsetLabel,
  verdict,
} from "../../../web/src/lib/format.ts";
import { stationZone, zoneLabel } from "../../../web/src/lib/zones.ts";
import { pair } from "./fixtures.ts";

describe("AWBs", () => {
  it("shows 11 digits as ppp-nnnnnnnn and reads both forms back", () => {
    expect(formatAwb("02012345675")).toBe("020-12345675");
    expect(formatAwb("020-12345675")).toBe("020-12345675");
    expect(formatAwb("123")).toBe("123");
    expect(awbDigits(" 020-12345675 ")).toBe("02012345675");
    expect(awbDigits("020-1234567")).toBeNull();
  });
});

describe("verdicts", () => {
  const planned = pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00");
  it("says late, early or on time in whole minutes", () => {
    expect(verdict(planned, pair("2026-03-14T14:10:00Z", "2026-03-14T15:10:00"))).toBe("late by 45 min");
    expect(verdict(planned, pair("2026-03-14T13:15:00Z", "2026-03-14T14:15:00"))).toBe("early by 10 min");
    expect(verdict(planned, pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00"))).toBe("on time");
    expect(verdict(planned, pair("2026-03-14T15:30:00Z", "2026-03-14T16:30:00"))).toBe("late by 2 h 5 min");
    expect(verdict(planned, pair("2026-03-16T14:25:00Z", "2026-03-16T15:25:00"))).toBe("late by 2 d 1 h");
  });

  it("compares instants, not wall clocks: across zones an 'earlier' local time can be late", () => {
    // Planned 14:25 in Frankfurt (13:25Z); reported 09:30 in New York (14:30Z): 65 min late.
    expect(verdict(planned, pair("2026-03-14T14:30:00Z", "2026-03-14T09:30:00"))).toBe("late by 1 h 5 min");
  });

  it("has no verdict without both times", () => {
    expect(verdict(planned, null)).toBeNull();
    expect(verdict(null, planned)).toBeNull();
  });

  it("formats durations", () => {
    expect(formatMinutes(0)).toBe("0 min");
    expect(formatMinutes(-45)).toBe("45 min");
    expect(formatMinutes(60)).toBe("1 h");
    expect(formatMinutes(1440)).toBe("1 d");
  });
});

describe("station-local times", () => {
  it("shows the local clock and the zone label, with the day unless it is the reference day", () => {
    const departure = pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00");
    expect(formatLocal(departure, "CET")).toBe("14:25 CET, 14 Mar");
    expect(formatLocal(departure, "CET", "2026-03-14T08:00:00")).toBe("14:25 CET");
    expect(formatUtc("2026-03-14T13:41:05Z")).toBe("14 Mar 13:41 UTC");
    expect(formatUtc("soon")).toBe("soon");
  });

  it("reads the offset from the API's pair, for stations without a known zone", () => {
    expect(offsetMinutes(pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00"))).toBe(60);
    expect(offsetMinutes(pair("2026-03-14T13:25:00Z", "2026-03-14T18:55:00"))).toBe(330);
    expect(utcOffsetLabel(60)).toBe("UTC+1");
    expect(utcOffsetLabel(-240)).toBe("UTC-4");
    expect(utcOffsetLabel(330)).toBe("UTC+5:30");
    expect(utcOffsetLabel(0)).toBe("UTC");
  });

  it("names the station's zone abbreviation at that instant (summer and winter)", () => {
    expect(stationZone("fra")).toBe("Europe/Berlin");
    expect(zoneLabel("FRA", pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00"))).toBe("CET");
    expect(zoneLabel("FRA", pair("2026-07-14T12:25:00Z", "2026-07-14T14:25:00"))).toBe("CEST");
    expect(zoneLabel("JFK", pair("2026-03-14T21:30:00Z", "2026-03-14T17:30:00"))).toBe("EDT");
    expect(zoneLabel("JFK", pair("2026-01-14T21:30:00Z", "2026-01-14T16:30:00"))).toBe("EST");
    expect(zoneLabel("LHR", pair("2026-01-14T21:30:00Z", "2026-01-14T21:30:00"))).toBe("GMT");
  });

  it("falls back to the UTC offset where no abbreviation exists or the station is unknown", () => {
    expect(zoneLabel("SIN", pair("2026-03-14T13:25:00Z", "2026-03-14T21:25:00"))).toBe("UTC+8");
    expect(zoneLabel("QQQ", pair("2026-03-14T13:25:00Z", "2026-03-14T16:25:00"))).toBe("UTC+3");
  });
});
