/**
 * E-mails a person reads. The headline with its verdict for every notification
 * type, local times with zone abbreviations, the compact timeline, the links, and a text/plain part
 * that says the same as the HTML.
 */
import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../../../functions/core/events.ts";
import { renderEmail } from "../../../functions/core/notifications/email.ts";
import { emailHeadline } from "../../../functions/core/notifications/email-headline.ts";
import type { EmailLinks } from "../../../functions/core/notifications/email-links.ts";
import {
  durationText,
  stationTimeText,
  zoneAbbreviation,
} from "../../../functions/core/notifications/email-time.ts";
import { emailTimeline } from "../../../functions/core/notifications/email-timeline.ts";
import { renderEventPayload } from "../../../functions/core/notifications/payload.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { RouteMap } from "../../../functions/core/route-map/spec-types.ts";
import { AWB, shipped } from "./email-fixtures.ts";
import { makeEvent, OWNER } from "./helpers.ts";

const pair = (utc: string, local: string) => ({ Utc: utc, Local: local });
/** DEP planned 14:25 CET (13:25 UTC). */
const DEP_PLANNED = pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00");
const headlineOf = (overrides: Partial<DomainEvent>, options: { proActiveMinutes?: number } = {}) =>
  emailHeadline(renderEventPayload(makeEvent(overrides), OWNER), options);

describe("local times with the station's zone abbreviation", () => {
  it.each([
    ["FRA", "2026-03-14T13:25:00Z", "14:25 CET"],
    ["FRA", "2026-07-14T13:25:00Z", "15:25 CEST"],
    ["LHR", "2026-01-10T09:00:00Z", "09:00 GMT"],
    ["LHR", "2026-07-10T09:00:00Z", "10:00 BST"],
    ["JFK", "2026-03-14T19:55:00Z", "15:55 EDT"],
    ["JFK", "2026-01-14T19:55:00Z", "14:55 EST"],
    ["LAX", "2026-01-14T19:55:00Z", "11:55 PST"],
    ["SIN", "2026-03-14T13:25:00Z", "21:25 GMT+8"],
    ["BOM", "2026-03-14T13:25:00Z", "18:55 GMT+5:30"],
  ])("%s at %s is %s", (station, utc, text) => {
    expect(stationTimeText(station, pair(utc, ""))).toBe(text);
  });

  it("with the day when asked; across midnight the station's own date", () => {
    expect(stationTimeText("JFK", pair("2026-03-15T02:30:00Z", ""), { withDate: true })).toBe(
      "14 Mar 22:30 EDT",
    );
  });

  it("an unknown station shows the pair's own wall clock, marked local, never a guessed zone", () => {
    expect(
      stationTimeText("QQQ", pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00"), { withDate: true }),
    ).toBe("14 Mar 14:25 local");
  });

  it("UTC zones say UTC, not an offset", () => {
    expect(zoneAbbreviation("Etc/UTC", Date.parse("2026-03-14T13:25:00Z"))).toBe("UTC");
  });

  it.each([
    [15, "15 min"],
    [60, "1 h"],
    [65, "1 h 5 min"],
    [47 * 60 + 59, "47 h 59 min"],
    [3 * 1440 + 4 * 60 + 10, "3 d 4 h"],
  ])("%i minutes read %s", (minutes, text) => {
    expect(durationText(minutes)).toBe(text);
  });
});

describe("headline: what happened and the verdict", () => {
  it.each<[string, Partial<DomainEvent>, string, string]>([
    [
      "DEP late",
      { reported: pair("2026-03-14T13:40:00Z", "2026-03-14T14:40:00") },
      "LH400 departed FRA 15 min after plan: Ko",
      "late",
    ],
    [
      "DEP a few seconds late is Ko, so late",
      { reported: pair("2026-03-14T13:25:30Z", "2026-03-14T14:25:30") },
      "LH400 departed FRA 1 min after plan: Ko",
      "late",
    ],
    [
      "DEP without a flight",
      { flight: null, reported: pair("2026-03-14T13:40:00Z", "2026-03-14T14:40:00") },
      "Shipment 020-12345675 departed FRA 15 min after plan: Ko",
      "late",
    ],
    [
      "ARR on time",
      {
        name: "ARR",
        station: "JFK",
        milestoneKey: "FRA:ARR",
        planned: pair("2026-03-14T20:55:00Z", "2026-03-14T16:55:00"),
        reported: pair("2026-03-14T20:55:00Z", "2026-03-14T16:55:00"),
      },
      "LH400 arrived at JFK on plan: Ok",
      "ok",
    ],
    [
      "RCF early",
      {
        name: "RCF",
        station: "JFK",
        planned: pair("2026-03-15T00:55:00Z", "2026-03-14T20:55:00"),
        reported: pair("2026-03-15T00:45:00Z", "2026-03-14T20:45:00"),
      },
      "Shipment 020-12345675 received from LH400 at JFK 10 min before plan: Ok",
      "ok",
    ],
    [
      "NFD (ready for pick-up)",
      {
        name: "NFD",
        station: "JFK",
        planned: pair("2026-03-15T01:55:00Z", "2026-03-14T21:55:00"),
        reported: pair("2026-03-15T01:55:00Z", "2026-03-14T21:55:00"),
      },
      "Shipment 020-12345675 ready for pick-up at JFK on plan: Ok",
      "ok",
    ],
    [
      "DLV late by more than an hour",
      {
        name: "DLV",
        station: "JFK",
        planned: pair("2026-03-17T19:55:00Z", "2026-03-17T15:55:00"),
        reported: pair("2026-03-17T21:00:00Z", "2026-03-17T17:00:00"),
      },
      "Shipment 020-12345675 delivered at JFK 1 h 5 min after plan: Ko",
      "late",
    ],
    [
      "AWD",
      {
        name: "AWD",
        station: "JFK",
        planned: pair("2026-03-15T03:55:00Z", "2026-03-14T23:55:00"),
        reported: pair("2026-03-15T03:50:00Z", "2026-03-14T23:50:00"),
      },
      "Documents of 020-12345675 delivered at JFK 5 min before plan: Ok",
      "ok",
    ],
    [
      "RCS",
      {
        name: "RCS",
        planned: pair("2026-03-14T10:25:00Z", "2026-03-14T11:25:00"),
        reported: pair("2026-03-14T08:10:00Z", "2026-03-14T09:10:00"),
      },
      "Shipment 020-12345675 accepted at FRA 2 h 15 min before plan: Ok",
      "ok",
    ],
    [
      "FWB",
      {
        name: "FWB",
        planned: pair("2026-03-14T06:20:00Z", "2026-03-14T07:20:00"),
        reported: pair("2026-03-14T06:00:00Z", "2026-03-14T07:00:00"),
      },
      "Air waybill 020-12345675 received 20 min before plan: Ok",
      "ok",
    ],
    [
      "LAT (judged by the RCS)",
      {
        name: "LAT",
        planned: pair("2026-03-14T06:25:00Z", "2026-03-14T07:25:00"),
        reported: pair("2026-03-14T08:10:00Z", "2026-03-14T09:10:00"),
      },
      "Shipment 020-12345675 handed in at FRA for its latest acceptance time 1 h 45 min after plan: Ko",
      "late",
    ],
    [
      "a Simple route map (no plan): the actual time, no verdict",
      { planned: null, isRM: false, reported: pair("2026-03-14T13:40:00Z", "2026-03-14T14:40:00") },
      "LH400 departed FRA at 14:40 CET",
      "info",
    ],
    [
      "Missed",
      { type: "Missed", reported: null, planned: DEP_PLANNED },
      "DEP of 020-12345675 is missing: planned 14:25 CET at FRA",
      "missing",
    ],
    [
      "Missed in summer time",
      {
        type: "Missed",
        reported: null,
        planned: pair("2026-07-14T12:25:00Z", "2026-07-14T14:25:00"),
      },
      "DEP of 020-12345675 is missing: planned 14:25 CEST at FRA",
      "missing",
    ],
    [
      "RMP Creation",
      { name: "RMP", eventStatus: "Creation", reported: null, planned: null, milestoneKey: null },
      "Route map of 020-12345675 planned: FRA → JFK",
      "info",
    ],
    [
      "RMP Replan",
      { name: "RMP", eventStatus: "Replan", reported: null, planned: null, milestoneKey: null },
      "Route map of 020-12345675 replanned: FRA → JFK",
      "info",
    ],
    [
      "CAN",
      { name: "CAN", reported: null, planned: null, milestoneKey: null },
      "Booking of 020-12345675 cancelled",
      "info",
    ],
  ])("%s", (_case, overrides, text, tone) => {
    expect(headlineOf(overrides)).toEqual({ text, tone });
  });

  it("ProActive says how long past the planned time, from the rule's interval", () => {
    const proActive = { type: "ProActive" as const, reported: null, planned: DEP_PLANNED };
    expect(headlineOf(proActive, { proActiveMinutes: 240 })).toEqual({
      text: "DEP of 020-12345675 not reported 4 h after planned 14:25 CET at FRA",
      tone: "missing",
    });
    expect(headlineOf(proActive).text).toBe("DEP of 020-12345675 not reported yet: planned 14:25 CET at FRA");
  });
});

describe("timeline", () => {
  it("origin cycle, the flight with its scheduled times, destination cycle; the event's milestone flagged", async () => {
    const { routeMap, dep } = await shipped();
    const sections = emailTimeline(routeMap, dep.milestoneKey);
    expect(sections.map((s) => [s.title, s.detail])).toEqual([
      ["Origin FRA", null],
      ["LH400 FRA → JFK", "scheduled 14 Mar 13:25 CET → 14 Mar 15:55 EDT"],
      ["Destination JFK", null],
    ]);
    const all = sections.flatMap((s) => s.milestones);
    expect(all.map((m) => m.code)).toEqual(["FWB", "LAT", "RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]);
    expect(all.filter((m) => m.current).map((m) => m.code)).toEqual(["DEP"]);
    expect(all.find((m) => m.code === "DEP")).toMatchObject({
      words: "Departed",
      station: "FRA",
      planned: "14 Mar 14:25 CET",
      actual: "14 Mar 14:40 CET",
      status: "Ko",
      verdict: "1 h 15 min after schedule · 15 min after plan: Ko",
    });
    expect(all.find((m) => m.code === "RCS")).toMatchObject({
      status: "Ok",
      verdict: "2 h 15 min before plan: Ok",
    });
    expect(all.find((m) => m.code === "ARR")).toMatchObject({
      station: "JFK",
      planned: "14 Mar 16:55 EDT",
      actual: null,
      status: "Planned",
      verdict: null,
    });
  });

  it("a milestone overdue is Missing, not reported; truck legs and partial pieces are said", async () => {
    const { h, dep } = await shipped();
    const record = await h.routeMaps.get(AWB);
    if (!record) throw new Error("no record");
    const later: RouteMap = renderRouteMap(record.state, "2026-03-15T06:00:00Z");
    const flight = later.MilestonePlan.RoutingCycle.Flight[0];
    if (!flight) throw new Error("no flight");
    flight.FlightInfo.isRoadFeederService = true;
    const depMilestone = flight.Milestone.find((m) => m.Name === "DEP");
    if (depMilestone) depMilestone.ActualNoOfPieces = 6;
    const sections = emailTimeline(later, dep.milestoneKey);
    expect(sections[1]?.detail).toBe("Truck · scheduled 14 Mar 13:25 CET → 14 Mar 15:55 EDT");
    const all = sections.flatMap((s) => s.milestones);
    expect(all.find((m) => m.code === "ARR")).toMatchObject({
      status: "Missing",
      actual: null,
      verdict: null,
    });
    expect(all.find((m) => m.code === "DEP")?.pieces).toBe("6 of 10 pieces");
  });
});

const APP_LINKS: EmailLinks = {
  routeMap: { kind: "app", url: "https://tracker.example.test/app/#/routemap/02012345675" },
  manageRule: "https://tracker.example.test/app/#/alerts",
};
const SHARE_LINKS: EmailLinks = {
  routeMap: {
    kind: "share",
    url: "https://tracker.example.test/app/#/shared/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde",
    expiresAt: "2026-03-16T13:45:00Z",
  },
  manageRule: "https://tracker.example.test/app/#/alerts",
};

describe("the whole e-mail", () => {
  it("HTML and text/plain say the same: headline, shipment, links, every milestone, why it was sent", async () => {
    const { routeMap, dep } = await shipped();
    const payload = renderEventPayload(dep, OWNER);
    const email = renderEmail(payload, ["AWB", "MIL", "NTF"], {
      routeMap,
      milestoneKey: dep.milestoneKey,
      links: APP_LINKS,
      ruleId: 17,
    });
    expect(email.subject).toBe("AWB 020-12345675 | MIL DEP | NTF Event");
    const lines = email.text.split("\n");
    expect(lines[0]).toBe("LH400 departed FRA 1 h 15 min after schedule · 15 min after plan: Ko");
    expect(lines).toContain("AWB 020-12345675 · FRA → JFK · 10 pieces · 250 K");
    expect(lines).toContain(`Route map: ${APP_LINKS.routeMap.url}`);
    expect(lines).toContain(`Manage your alerts: ${APP_LINKS.manageRule}`);
    expect(lines).toContain("LH400 FRA → JFK (scheduled 14 Mar 13:25 CET → 14 Mar 15:55 EDT)");
    expect(lines).toContain(
      "▶ Departed (DEP), FRA: planned 14 Mar 14:25 CET · actual 14 Mar 14:40 CET · 1 h 15 min after schedule · 15 min after plan: Ko",
    );
    expect(lines).toContain("  Arrived (ARR), JFK: planned 14 Mar 16:55 EDT · not reported · Planned");
    expect(lines).toContain("You receive this e-mail because your alert rule 17 matched.");
    for (const shown of [
      "LH400 departed FRA 1 h 15 min after schedule · 15 min after plan: Ko",
      "AWB 020-12345675 · FRA → JFK · 10 pieces · 250 K",
      `href="${APP_LINKS.routeMap.url}"`,
      `href="${APP_LINKS.manageRule}"`,
      "Origin FRA",
      "LH400 FRA → JFK",
      "Destination JFK",
      "14 Mar 14:25 CET",
      "14 Mar 14:40 CET",
      "1 h 15 min after schedule · 15 min after plan: Ko",
      "2 h 15 min before plan: Ok",
      "14 Mar 16:55 EDT",
      "rule 17",
    ]) {
      expect(email.html, shown).toContain(shown);
    }
    // Each milestone's status is there as text in both parts.
    for (const status of [">Ok<", ">Ko<", ">Planned<"]) expect(email.html).toContain(status);
    expect(email.text.match(/ · Planned$/gm)).toHaveLength(5);
  });

  it("a share link says it opens without sign-in and until when", async () => {
    const { routeMap, dep } = await shipped();
    const email = renderEmail(renderEventPayload(dep, OWNER), ["AWB"], { routeMap, links: SHARE_LINKS });
    const line = `Route map (share link, no sign-in, valid until 2026-03-16 13:45 UTC): ${SHARE_LINKS.routeMap.url}`;
    expect(email.text.split("\n")).toContain(line);
    expect(email.html).toContain(`href="${SHARE_LINKS.routeMap.url}"`);
    expect(email.html).toContain("opens without sign-in, valid until 2026-03-16 13:45 UTC");
  });

  it("without the web app's address or a route map: no links, no timeline, still the verdict and the times", () => {
    const payload = renderEventPayload(makeEvent({ type: "Missed", reported: null }), OWNER);
    const email = renderEmail(payload, ["AWB", "NTF"]);
    expect(email.subject).toBe("AWB 020-12345675 | NTF Missed");
    expect(email.text.split("\n")[0]).toBe("DEP of 020-12345675 is missing: planned 14:25 CET at FRA");
    expect(email.text).toContain("Planned: 14 Mar 14:25 CET");
    expect(email.text).toContain("Reported: –");
    expect(email.text).not.toContain("Timeline");
    expect(email.html).not.toContain("<a ");
    expect(email.html).toContain("Missed-event alert");
  });

  it("escapes every value in the HTML and keeps each text line whole", async () => {
    const { routeMap, dep } = await shipped();
    const hostile = structuredClone(routeMap);
    hostile.Shipment.Routing.Origin = '<script>alert("x")</script>';
    const flight = hostile.MilestonePlan.RoutingCycle.Flight[0];
    if (flight) flight.FlightInfo.CarrierCode = "<b>";
    const payload = { ...renderEventPayload(dep, OWNER), AirportOfEvent: "F\r\nRA<i>" };
    const email = renderEmail(payload, ["STN"], {
      routeMap: hostile,
      links: {
        routeMap: { kind: "app", url: 'https://x.example/app/#/routemap/1"><img src=x>' },
        manageRule: "https://x.example/app/#/alerts",
      },
    });
    expect(email.html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(email.html).toContain('href="https://x.example/app/#/routemap/1&quot;&gt;&lt;img src=x&gt;"');
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.text.split("\n")[0]).toBe("LH400 departed F RA<i> 15 min after plan: Ko");
  });
});
