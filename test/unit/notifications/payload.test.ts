import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { DomainEvent, EventName } from "../../../functions/core/events.ts";
import {
  EVENT_PAYLOAD_FIELDS,
  type EventPayload,
  emailSubject,
  type PayloadEvent,
  type PayloadRecipient,
  renderEmail,
  renderEventPayload,
  renderWebhookBody,
} from "../../../functions/core/notifications/index.ts";
import { formatUtc } from "../../../functions/core/time/station-time.ts";
import { makeEvent, OWNER } from "./helpers.ts";

const UTC_OFFSET_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const LOCAL_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

describe("renderEventPayload", () => {
  const payload = renderEventPayload(makeEvent(), OWNER);

  it("has exactly the spec fields in spec order", () => {
    expect(Object.keys(payload)).toEqual([...EVENT_PAYLOAD_FIELDS]);
    expect(EVENT_PAYLOAD_FIELDS).toHaveLength(25);
  });

  it("renders a reported DEP", () => {
    expect(payload).toEqual({
      IdMessage: "evt-0001",
      AirWaybillPrefix: "020",
      AirWaybillNumber: "12345675",
      ForwarderIdentifier: "FWDOWNERX",
      AgentCode: "1234567",
      AgentCass: "0001",
      AgentStation: "FRA",
      Type: "Event",
      Event: "DEP",
      EventStatus: "Update",
      AirportOfEvent: "FRA",
      AirportOfOrigin: "FRA",
      AirportOfDestination: "JFK",
      CarrierCode: "LH",
      FlightNumber: "400",
      PiecesReported: 10,
      TotalShipmentPieces: 10,
      WeightReported: 250,
      WeightCode: "K",
      MilestoneReportedLocalTimeStamp: "2026-03-14T13:41:00",
      MilestoneReportedUtcTimeStamp: "2026-03-14T12:41:00+00:00",
      isRM: true,
      TavGap: null,
      PlannedLocalTimeStamp: "2026-03-14T14:25:00",
      PlannedUtcTimeStamp: "2026-03-14T13:25:00+00:00",
    });
  });

  it("Missed and ProActive have null reported timestamps and keep the planned ones", () => {
    for (const type of ["Missed", "ProActive"] as const) {
      const alert = renderEventPayload(makeEvent({ type, reported: null }), OWNER);
      expect(alert.Type).toBe(type);
      expect(alert.MilestoneReportedLocalTimeStamp).toBeNull();
      expect(alert.MilestoneReportedUtcTimeStamp).toBeNull();
      expect(alert.PlannedUtcTimeStamp).toBe("2026-03-14T13:25:00+00:00");
    }
  });

  it("Missed and ProActive claim no report: PiecesReported 0, WeightReported and WeightCode null", () => {
    for (const type of ["Missed", "ProActive"] as const) {
      // An event recorded before drafts stopped filling these in (outbox, parked deliveries).
      const old = makeEvent({
        type,
        reported: null,
        piecesReported: 10,
        weightReported: 250,
        weightCode: "K",
      });
      const alert = renderEventPayload(old, OWNER);
      expect(alert).toMatchObject({ PiecesReported: 0, WeightReported: null, WeightCode: null });
      expect(alert.TotalShipmentPieces).toBe(10);
    }
  });

  it("RMP carries the recording time at its station, no invented flight (null without one), and Replan", () => {
    const rmp = renderEventPayload(
      makeEvent({ name: "RMP", eventStatus: "Replan", flight: null, reported: null, planned: null }),
      OWNER,
    );
    expect(rmp).toMatchObject({
      Event: "RMP",
      EventStatus: "Replan",
      CarrierCode: null,
      FlightNumber: null,
      MilestoneReportedUtcTimeStamp: "2026-03-14T12:41:30+00:00",
      MilestoneReportedLocalTimeStamp: "2026-03-14T13:41:30",
      PlannedUtcTimeStamp: null,
      PlannedLocalTimeStamp: null,
    });
  });

  it("uses the producer's context flight when the event has none", () => {
    const event: PayloadEvent = {
      ...makeEvent({ name: "RCS", flight: null }),
      contextFlight: { carrierCode: "LH", flightNumber: "400" },
    };
    expect(renderEventPayload(event, OWNER)).toMatchObject({ CarrierCode: "LH", FlightNumber: "400" });
  });

  it("AgentStation is the recipient's, else the AWB origin", () => {
    expect(
      renderEventPayload(makeEvent({ station: "JFK" }), { ...OWNER, agentStation: "MUC" }).AgentStation,
    ).toBe("MUC");
    expect(
      renderEventPayload(makeEvent({ station: "JFK" }), { ...OWNER, agentStation: null }).AgentStation,
    ).toBe("FRA");
  });

  it("WeightCode is null when no weight is reported", () => {
    expect(renderEventPayload(makeEvent({ weightReported: null, weightCode: "K" }), OWNER)).toMatchObject({
      WeightReported: null,
      WeightCode: null,
    });
  });
});

// ---- property: receivers' validation holds for any event ----------------------------------------

const STATIONS = ["FRA", "JFK", "AMS", "SIN", "NRT", "LHR", "GRU", "SYD"] as const;
const EVENT_NAMES: EventName[] = [
  "FWB",
  "LAT",
  "RCS",
  "DEP",
  "ARR",
  "RCF",
  "NFD",
  "AWD",
  "DLV",
  "RMP",
  "CAN",
];
const digits = (n: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: n, maxLength: n });
const utcArb = fc
  .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2035-12-31T23:59:59Z"), noInvalidDate: true })
  .map((date) => formatUtc(date.getTime()));
const pairArb = fc.record({
  Utc: utcArb,
  Local: utcArb.map((utc) => utc.slice(0, 19)),
});
const flightArb = fc.option(
  fc.record({
    // Includes what carriers sometimes send (ICAO codes, prefixed numbers) to exercise the fallback.
    carrierCode: fc.constantFrom("LH", "AF", "7X", "lh", "DLH", ""),
    flightNumber: fc.constantFrom("400", "4", "1234A", "0012", "12345", "LH400", ""),
  }),
  { nil: null },
);

const eventArb: fc.Arbitrary<DomainEvent> = fc
  .record({
    name: fc.constantFrom(...EVENT_NAMES),
    type: fc.constantFrom("Event" as const, "Missed" as const, "ProActive" as const),
    eventStatus: fc.constantFrom("Creation" as const, "Replan" as const, "Update" as const),
    prefix: digits(3),
    serialHead: digits(7),
    station: fc.constantFrom(...STATIONS),
    origin: fc.constantFrom(...STATIONS),
    destination: fc.constantFrom(...STATIONS),
    flight: flightArb,
    piecesReported: fc.nat(9_999),
    totalPieces: fc.nat(9_999),
    weightReported: fc.option(fc.double({ min: 0, max: 1e5, noNaN: true }), { nil: null }),
    weightCode: fc.constantFrom("K", "L"),
    reported: fc.option(pairArb, { nil: null }),
    planned: fc.option(pairArb, { nil: null }),
    isRM: fc.boolean(),
    recordedAt: utcArb,
  })
  .map((r) => {
    const serial = `${r.serialHead}${Number(r.serialHead) % 7}`;
    // Producers never give a reported time to Missed/ProActive alerts; the renderer must cope anyway.
    return makeEvent({
      name: r.name,
      type: r.type,
      eventStatus: r.eventStatus,
      awb: { prefix: r.prefix, serial },
      station: r.station,
      origin: r.origin,
      destination: r.destination,
      flight: r.flight,
      piecesReported: r.piecesReported,
      totalPieces: r.totalPieces,
      weightReported: r.weightReported,
      weightCode: r.weightCode,
      reported: r.reported,
      planned: r.planned,
      isRM: r.isRM,
      recordedAt: r.recordedAt,
    });
  });

const recipientArb: fc.Arbitrary<PayloadRecipient> = fc.record({
  forwarderId: fc.string({ minLength: 1, maxLength: 64 }),
  agentCode: digits(7),
  agentCass: digits(4),
  agentStation: fc.option(fc.constantFrom(...STATIONS), { nil: null }),
});

describe("payload property: values existing receivers validate", () => {
  it("holds for generated events and recipients", () => {
    fc.assert(
      fc.property(eventArb, recipientArb, (event, recipient) => {
        const p = renderEventPayload(event, recipient);
        expect(Object.keys(p)).toEqual([...EVENT_PAYLOAD_FIELDS]);
        expect(p.AirWaybillPrefix).toMatch(/^\d{3}$/);
        expect(p.AirWaybillNumber).toMatch(/^\d{8}$/);
        expect(p.AgentCode).toMatch(/^\d{7}$/);
        expect(p.AgentCass).toMatch(/^\d{4}$/);
        expect(p.AgentStation).toMatch(/^[A-Z]{3}$/);
        for (const airport of [p.AirportOfEvent, p.AirportOfOrigin, p.AirportOfDestination]) {
          expect(airport).toMatch(/^[A-Z]{3}$/);
        }
        // A known flight is valid as receivers check it; an unknown one is null in both, never invented.
        expect(p.CarrierCode === null).toBe(p.FlightNumber === null);
        if (p.CarrierCode !== null) {
          expect(p.CarrierCode).toHaveLength(2);
          expect(p.CarrierCode).toMatch(/^[A-Z0-9]{2}$/);
          expect(p.FlightNumber).toMatch(/^\d{1,4}[A-Z]?$/);
        }
        expect(["Event", "Missed", "ProActive"]).toContain(p.Type);
        expect(["Creation", "Replan", "Update"]).toContain(p.EventStatus);
        expect(Number.isInteger(p.PiecesReported)).toBe(true);
        expect(Number.isInteger(p.TotalShipmentPieces)).toBe(true);
        expect(p.WeightReported === null || typeof p.WeightReported === "number").toBe(true);
        expect(p.WeightCode === null || typeof p.WeightCode === "string").toBe(true);
        expect(typeof p.isRM).toBe("boolean");
        expect(p.TavGap).toBeNull();
        if (p.Type === "Event") {
          expect(p.MilestoneReportedUtcTimeStamp).toMatch(UTC_OFFSET_STAMP);
          expect(p.MilestoneReportedLocalTimeStamp).toMatch(LOCAL_STAMP);
        } else {
          expect(p.MilestoneReportedUtcTimeStamp).toBeNull();
          expect(p.MilestoneReportedLocalTimeStamp).toBeNull();
        }
        if (p.PlannedUtcTimeStamp !== null) expect(p.PlannedUtcTimeStamp).toMatch(UTC_OFFSET_STAMP);
        if (p.PlannedLocalTimeStamp !== null) expect(p.PlannedLocalTimeStamp).toMatch(LOCAL_STAMP);
      }),
      { numRuns: 300 },
    );
  });
});

// ---- webhook bodies ------------------------------------------------------------------------------

const HOSTILE = `<script>alert("x")</script> & 'quotes' ]]> \u0001`;
const hostilePayload = (): EventPayload => ({
  ...renderEventPayload(makeEvent(), { ...OWNER, forwarderId: HOSTILE }),
  IdMessage: "id<&>",
});

describe("renderWebhookBody", () => {
  it("json: the payload, content type application/json", () => {
    const payload = renderEventPayload(makeEvent(), OWNER);
    const { contentType, body } = renderWebhookBody(payload, "json");
    expect(contentType).toBe("application/json");
    expect(JSON.parse(body)).toEqual(payload);
    expect(Object.keys(JSON.parse(body))).toEqual([...EVENT_PAYLOAD_FIELDS]);
  });

  it("xml: well-formed, one element per field in order, escaped, null as xsi:nil", () => {
    const payload = hostilePayload();
    const { contentType, body } = renderWebhookBody(payload, "xml");
    expect(contentType).toBe("application/xml");
    expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?><Event')).toBe(true);
    expect(XMLValidator.validate(body)).toBe(true);
    expect(body).not.toContain("<script>");
    expect(body).toContain('<TavGap xsi:nil="true"/>');
    const parsed = new XMLParser({
      ignoreAttributes: false,
      parseTagValue: false,
      trimValues: false,
      ignoreDeclaration: true,
    }).parse(body) as {
      Event: Record<string, unknown>;
    };
    const root = parsed.Event;
    const fields = Object.keys(root).filter((key) => !key.startsWith("@_"));
    expect(fields).toEqual([...EVENT_PAYLOAD_FIELDS]);
    // The control character is dropped (not allowed in XML 1.0); everything else round-trips.
    expect(root.ForwarderIdentifier).toBe(HOSTILE.replace("\u0001", ""));
    expect(root.IdMessage).toBe("id<&>");
    expect(root.AirWaybillPrefix).toBe("020");
    expect(root.isRM).toBe("true");
    expect(root.TavGap).toMatchObject({ "@_xsi:nil": "true" });
  });

  it("text: one `Field: value` line per field, null empty, no line breaks inside values", () => {
    const payload = { ...renderEventPayload(makeEvent(), OWNER), ForwarderIdentifier: "a\r\nInjected: yes" };
    const { contentType, body } = renderWebhookBody(payload, "text");
    expect(contentType).toBe("text/plain");
    const lines = body.trimEnd().split("\n");
    expect(lines).toHaveLength(EVENT_PAYLOAD_FIELDS.length);
    expect(lines.map((line) => line.slice(0, line.indexOf(":")))).toEqual([...EVENT_PAYLOAD_FIELDS]);
    expect(lines).toContain("TavGap: ");
    expect(lines).toContain("Event: DEP");
    expect(lines).toContain("PiecesReported: 10");
    expect(lines).toContain("ForwarderIdentifier: a Injected: yes");
  });
});

// ---- e-mail --------------------------------------------------------------------------------------

describe("renderEmail", () => {
  const payload = renderEventPayload(makeEvent(), OWNER);

  it.each([
    [["AWB", "MIL", "NTF"], "AWB 020-12345675 | MIL DEP | NTF Event"],
    [["NTF", "AWB"], "NTF Event | AWB 020-12345675"],
    [["STN", "RTG", "RMT"], "STN FRA | RTG FRA-JFK | RMT RM"],
    [["AGT", "BRA"], "AGT 1234567 | BRA FRA"],
  ] as const)("subject from %j", (items, subject) => {
    expect(emailSubject(payload, items)).toBe(subject);
  });

  it("subject says Simple for a route map without plan, and Missed for alerts", () => {
    const simple = renderEventPayload(makeEvent({ isRM: false, type: "Missed", reported: null }), OWNER);
    expect(emailSubject(simple, ["RMT", "NTF"])).toBe("RMT Simple | NTF Missed");
  });

  it("HTML and text carry the verdict and the milestone details in local time with the zone", () => {
    const email = renderEmail(payload, ["AWB", "MIL", "NTF"]);
    expect(email.subject).toBe("AWB 020-12345675 | MIL DEP | NTF Event");
    for (const text of [
      "LH400 departed FRA 44 min before plan: Ok",
      "14 Mar 14:25 CET",
      "14 Mar 13:41 CET",
      "LH400",
      "10 of 10",
      "250 K",
    ]) {
      expect(email.html).toContain(text);
      expect(email.text).toContain(text);
    }
  });

  it("escapes hostile values in HTML and keeps the subject on one line", () => {
    const hostile: EventPayload = {
      ...payload,
      AirportOfEvent: '<img src=x onerror="alert(1)">',
      IdMessage: "a&b'c",
      AgentStation: "X\r\nBcc: victim@example.com",
    };
    const email = renderEmail(hostile, ["STN", "BRA"]);
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(email.html).toContain("a&amp;b&#39;c");
    expect(email.subject).not.toMatch(/[\r\n]/);
  });
});
