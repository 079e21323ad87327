/**
 * The verdict words, pinned: a flight's DEP and ARR against its schedule with the plan's judgement as
 * a second fact, other milestones against their plan. The same four cases through the wording module,
 * the e-mail (headline and timeline, from shipments built by the real ingest) and the web app's
 * timeline reading of the same route map, so e-mail, app and shared page cannot say them differently.
 */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../../../functions/core/notifications/email.ts";
import { renderEventPayload } from "../../../functions/core/notifications/payload.ts";
import {
  durationText,
  MILESTONE_WORDS,
  milestoneLabel,
  milestoneVerdict,
  ROUTE_MAP_STATUS_WORDS,
} from "../../../functions/core/notifications/verdict-words.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import { milestoneVerdictText, timelineSections } from "../../../web/src/lib/route-map.ts";
import { carrier020, harness } from "../use-cases/support.ts";
import { AWB, MESSAGES } from "./email-fixtures.ts";
import { OWNER } from "./helpers.ts";

const pair = (utc: string, local: string) => ({ Utc: utc, Local: local });
/** LH400 FRA → JFK on 14 March: STD 13:25 CET, STA 15:55 EDT (the e-mail fixture's booking). */
const STD = pair("2026-03-14T12:25:00Z", "2026-03-14T13:25:00");
const STA = pair("2026-03-14T19:55:00Z", "2026-03-14T15:55:00");
/** The plan: DEP = STD + 1 h, ARR = STA + 1 h, NFD = last STA + 6 h (DESIGN.md section 4). */
const DEP_PLANNED = pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00");
const ARR_PLANNED = pair("2026-03-14T20:55:00Z", "2026-03-14T16:55:00");
const NFD_PLANNED = pair("2026-03-15T01:55:00Z", "2026-03-14T21:55:00");

/** The four cases people must read the same everywhere: the status line, the report time, the words. */
const CASES = [
  {
    what: "a DEP 15 min after STD",
    line: "DEP/LH400/14MAR/FRAJFK/T10K250.0/A1340",
    receivedAt: "2026-03-14T12:41:00Z",
    name: "DEP",
    verdict: { name: "DEP", planned: DEP_PLANNED, actual: pair("2026-03-14T12:40:00Z", ""), scheduled: STD },
    words: "15 min after schedule · within plan: Ok",
    headline: "LH400 departed FRA 15 min after schedule · within plan: Ok",
  },
  {
    what: "a DEP 70 min after STD",
    line: "DEP/LH400/14MAR/FRAJFK/T10K250.0/A1435",
    receivedAt: "2026-03-14T13:36:00Z",
    name: "DEP",
    verdict: { name: "DEP", planned: DEP_PLANNED, actual: pair("2026-03-14T13:35:00Z", ""), scheduled: STD },
    words: "1 h 10 min after schedule · 10 min after plan: Ko",
    headline: "LH400 departed FRA 1 h 10 min after schedule · 10 min after plan: Ko",
  },
  {
    what: "an ARR 30 min before STA",
    line: "ARR/LH400/14MAR1525/JFK/T10",
    receivedAt: "2026-03-14T19:26:00Z",
    name: "ARR",
    verdict: { name: "ARR", planned: ARR_PLANNED, actual: pair("2026-03-14T19:25:00Z", ""), scheduled: STA },
    words: "30 min before schedule · within plan: Ok",
    headline: "LH400 arrived at JFK 30 min before schedule · within plan: Ok",
  },
  {
    what: "an NFD 2 h after plan",
    line: "NFD/14MAR2355/JFK/T10",
    receivedAt: "2026-03-15T03:56:00Z",
    name: "NFD",
    verdict: { name: "NFD", planned: NFD_PLANNED, actual: pair("2026-03-15T03:55:00Z", "") },
    words: "2 h after plan: Ko",
    headline: "Shipment 020-12345675 ready for pick-up at JFK 2 h after plan: Ko",
  },
] as const;

describe("verdict words", () => {
  it.each(CASES)("$what: $words", ({ verdict, words }) => {
    expect(milestoneVerdict(verdict)?.text).toBe(words);
  });

  it("says each fact on its own: schedule, plan, judgement", () => {
    expect(milestoneVerdict(CASES[1].verdict)).toEqual({
      schedule: "1 h 10 min after schedule",
      plan: "10 min after plan: Ko",
      judgement: "Ko",
      text: "1 h 10 min after schedule · 10 min after plan: Ko",
    });
  });

  it("on schedule and on plan say so; seconds late are a minute late (Ko)", () => {
    expect(milestoneVerdict({ name: "DEP", planned: DEP_PLANNED, actual: STD, scheduled: STD })?.text).toBe(
      "on schedule · within plan: Ok",
    );
    expect(milestoneVerdict({ name: "RCF", planned: NFD_PLANNED, actual: NFD_PLANNED })?.text).toBe(
      "on plan: Ok",
    );
    expect(
      milestoneVerdict({ name: "NFD", planned: NFD_PLANNED, actual: pair("2026-03-15T01:55:30Z", "") })?.text,
    ).toBe("1 min after plan: Ko");
    expect(
      milestoneVerdict({ name: "RCS", planned: NFD_PLANNED, actual: pair("2026-03-15T01:15:00Z", "") })?.text,
    ).toBe("40 min before plan: Ok");
  });

  it("compares instants, not wall clocks", () => {
    // 09:30 at JFK is later than 14:25 in Frankfurt the same day.
    expect(
      milestoneVerdict({ name: "ARR", planned: DEP_PLANNED, actual: pair("2026-03-14T14:30:00Z", "") })?.text,
    ).toBe("1 h 5 min after plan: Ko");
  });

  it("no verdict without an actual time, or without plan and schedule (a Simple route map)", () => {
    expect(milestoneVerdict({ name: "DEP", planned: DEP_PLANNED, actual: null, scheduled: STD })).toBeNull();
    expect(milestoneVerdict({ name: "DEP", planned: null, actual: STD })).toBeNull();
    // A schedule without a plan: the fact, no judgement.
    expect(milestoneVerdict({ name: "DEP", planned: null, actual: DEP_PLANNED, scheduled: STD })).toEqual({
      schedule: "1 h after schedule",
      plan: null,
      judgement: null,
      text: "1 h after schedule",
    });
  });

  it("durations, names with codes and status words", () => {
    expect([15, 60, 65, 24 * 60, 47 * 60 + 59, 3 * 1440 + 4 * 60 + 10, -45].map(durationText)).toEqual([
      "15 min",
      "1 h",
      "1 h 5 min",
      "24 h",
      "47 h 59 min",
      "3 d 4 h",
      "45 min",
    ]);
    expect(milestoneLabel("DEP")).toBe("Departed (DEP)");
    expect(milestoneLabel("NFD")).toBe("Ready for pick-up (NFD)");
    expect(MILESTONE_WORDS.RCF).toBe("Received from flight");
    expect(ROUTE_MAP_STATUS_WORDS.AtDestination).toBe("At destination");
    expect(ROUTE_MAP_STATUS_WORDS.OnAir).toBe("In transit");
  });
});

describe("the same words in the e-mail and in the app, for shipments built by the real ingest", () => {
  it.each(CASES)("$what", async ({ line, receivedAt, name, words, headline }) => {
    const h = harness();
    carrier020(h);
    for (const [body, at] of MESSAGES.slice(0, 2)) await h.imp(body, at);
    await h.imp(`FSU/13\n020-12345675FRAJFK/T10K250.0\n${line}\n`, receivedAt);
    const event = h.routeMaps.events.find((candidate) => candidate.name === name);
    const record = await h.routeMaps.get(AWB);
    if (!event || !record) throw new Error(`no ${name} event`);
    const routeMap = renderRouteMap(record.state, receivedAt);

    const email = renderEmail(renderEventPayload(event, OWNER), ["AWB", "MIL"], {
      routeMap,
      milestoneKey: event.milestoneKey,
    });
    const text = email.text.split("\n");
    expect(text[0]).toBe(headline);
    const timelineLine = text.find((candidate) =>
      candidate.startsWith(`▶ ${MILESTONE_WORDS[name]} (${name})`),
    );
    expect(timelineLine).toMatch(new RegExp(` · ${words}$`));
    expect(email.html).toContain(headline);
    expect(email.html).toContain(words);

    // The web app's timeline (signed in and on the shared page) reads the same route map.
    const said = timelineSections(routeMap).flatMap((section) =>
      section.milestones
        .filter((milestone) => milestone.Name === name && milestone.ActualDateTime)
        .map((milestone) => milestoneVerdictText(milestone, section.flight)),
    );
    expect(said).toEqual([words]);
  });
});
