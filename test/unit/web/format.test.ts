/**
 * The app's formatting: AWBs, verdicts (the core's wording module, through the app's reading of a
 * milestone), durations, station-local times and zone labels, one 24-hour time format.
 */
import { describe, expect, it } from "vitest";
import { durationText } from "../../../functions/core/notifications/verdict-words.ts";
import {
  awbDigits,
  formatAwb,
  formatLocal,
  formatUtc,
  formatUtcClock,
  offsetMinutes,
  utcOffsetLabel,
} from "../../../web/src/lib/format.ts";
import { milestoneVerdictText } from "../../../web/src/lib/route-map.ts";
import { stationZone, zoneLabel } from "../../../web/src/lib/zones.ts";
import { milestone, pair } from "./fixtures.ts";

/** The app's verdict of an RCS (no flight schedule): against its plan. */
const verdict = (planned: ReturnType<typeof pair> | null, actual: ReturnType<typeof pair> | null) =>
  milestoneVerdictText(milestone("RCS", "FRA", "Ok", planned, actual), null);

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
  it("says after, before or on plan in whole minutes, with the judgement", () => {
    expect(verdict(planned, pair("2026-03-14T14:10:00Z", "2026-03-14T15:10:00"))).toBe(
      "45 min after plan: Ko",
    );
    expect(verdict(planned, pair("2026-03-14T13:15:00Z", "2026-03-14T14:15:00"))).toBe(
      "10 min before plan: Ok",
    );
    expect(verdict(planned, pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00"))).toBe("on plan: Ok");
    expect(verdict(planned, pair("2026-03-14T15:30:00Z", "2026-03-14T16:30:00"))).toBe(
      "2 h 5 min after plan: Ko",
    );
    expect(verdict(planned, pair("2026-03-16T14:25:00Z", "2026-03-16T15:25:00"))).toBe(
      "2 d 1 h after plan: Ko",
    );
  });

  it("compares instants, not wall clocks: across zones an 'earlier' local time can be late", () => {
    // Planned 14:25 in Frankfurt (13:25Z); reported 09:30 in New York (14:30Z): 65 min late.
    expect(verdict(planned, pair("2026-03-14T14:30:00Z", "2026-03-14T09:30:00"))).toBe(
      "1 h 5 min after plan: Ko",
    );
  });

  it("has no verdict without both times", () => {
    expect(verdict(planned, null)).toBeNull();
    expect(verdict(null, planned)).toBeNull();
  });

  it("formats durations", () => {
    expect(durationText(0)).toBe("0 min");
    expect(durationText(-45)).toBe("45 min");
    expect(durationText(60)).toBe("1 h");
    // Hours up to two days, as the e-mails count them.
    expect(durationText(1440)).toBe("24 h");
    expect(durationText(2 * 1440)).toBe("2 d");
  });
});

describe("one time format: 24 hours, with the zone", () => {
  it("UTC instants and this browser's clock read the same way, never with AM/PM", () => {
    expect(formatUtc("2026-03-14T23:54:39Z")).toBe("14 Mar 23:54 UTC");
    expect(formatUtc("2026-03-14T23:54:39.123Z")).toBe("14 Mar 23:54 UTC");
    expect(formatUtcClock(new Date("2026-03-14T23:54:39Z"))).toBe("23:54 UTC");
    expect(formatUtcClock(new Date("2026-03-14T08:05:00Z"))).toBe("08:05 UTC");
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
