import { describe, expect, it } from "vitest";
import { parseCarrierMessage, parseOneRecordEvents } from "../../../functions/core/carrier-messages/index.ts";
import { MessageParseError, UnplaceableMessageError } from "../../../functions/core/errors.ts";
import { awb, fixture, qty, unlocated } from "./helpers.ts";

const RECEIVED = "2026-03-14T12:00:00Z";
const ld = (name: string) => parseCarrierMessage("application/ld+json", fixture("onerecord", name), RECEIVED);
const FRA_JFK = { awb: awb("12345675"), origin: "FRA", destination: "JFK", total: null };

function refusal(run: () => unknown): MessageParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof MessageParseError) return error;
    throw error;
  }
  throw new Error("expected a MessageParseError");
}

describe("ONE Record LogisticsEvents (application/ld+json)", () => {
  it("StatusUpdateEvent DEP on a Shipment with its Waybill: the FSU DEP line's report, UTC turned into FRA time", () => {
    expect(unlocated(ld("status-update-event-dep.jsonld"))).toEqual([
      {
        ...FRA_JFK,
        kind: "status",
        status: "DEP",
        station: "FRA",
        time: { year: 2026, month: 3, day: 14, hour: 13, minute: 41, dayOffset: 0, utcOffsetMinutes: 60 },
        flight: { carrierCode: "LH", flightNumber: "400", flightDay: 14, flightMonth: 3 },
        quantity: qty(10, "K", 250),
        deliveredTo: null,
        source: "ONE-RECORD/DEP",
      },
    ]);
  });

  it("LogisticsEvent RCS with @vocab, a compact code IRI and a local time without offset", () => {
    const [report] = ld("logistics-event-rcs-vocab.jsonld");
    expect(report).toMatchObject({
      ...FRA_JFK,
      kind: "status",
      status: "RCS",
      station: "FRA",
      time: { year: 2026, month: 3, day: 14, hour: 9, minute: 5, dayOffset: 0 },
      flight: null,
      sourceAt: { time: { path: "eventDate", line: 10 }, station: { path: "eventLocation", line: 11 } },
    });
  });

  it("@graph: MAN kept as history, ARR and RCF as statuses (CodeListElement code), ESTIMATED DLV skipped", () => {
    const reports = ld("graph-arr-rcf-man-estimated.jsonld");
    expect(
      reports.map((r) => (r.kind === "status" ? r.status : r.kind === "other-status" ? r.code : r.kind)),
    ).toEqual(["MAN", "ARR", "RCF"]);
    expect(reports[0]).toMatchObject({
      kind: "other-status",
      flight: { carrierCode: "LH", flightNumber: "400" },
      pieces: 10,
    });
    expect(reports[1]).toMatchObject({
      kind: "status",
      station: "JFK",
      time: { hour: 16, minute: 2, utcOffsetMinutes: -240 },
      flight: { carrierCode: "LH", flightNumber: "400", flightDay: 14, flightMonth: 3 },
      sourceAt: { report: { path: "@graph[1]", line: 23 } },
    });
  });

  it("an api:Collection of events on a Piece: Piece -> ofShipment -> waybill; DIS_MSCA is DIS history", () => {
    expect(ld("collection-piece-dis.jsonld")).toMatchObject([
      {
        ...FRA_JFK,
        kind: "other-status",
        code: "DIS",
        station: "JFK",
        sourceAt: { report: { path: "api:hasItem[0]" } },
      },
    ]);
  });

  it("an eventFor that is only an IRI is well-formed but unplaceable (422), naming the path and line", () => {
    const error = refusal(() => ld("refused-event-for-iri-only.jsonld"));
    expect(error).toBeInstanceOf(UnplaceableMessageError);
    expect(error).toMatchObject({ line: 10, path: "cargo:eventFor" });
    expect(error.expected).toContain("waybillPrefix and waybillNumber");
  });

  it("an event without eventFor, or whose waybill names no airports, cannot be placed either (422)", () => {
    const event = JSON.parse(fixture("onerecord", "status-update-event-dep.jsonld")) as Record<
      string,
      unknown
    >;
    const { "cargo:eventFor": eventFor, ...withoutEventFor } = event;
    const none = refusal(() =>
      parseCarrierMessage("application/ld+json", JSON.stringify(withoutEventFor), RECEIVED),
    );
    expect(none).toBeInstanceOf(UnplaceableMessageError);
    expect(none.expected).toContain("waybillPrefix and waybillNumber");
    const text = JSON.stringify(event).replace('"cargo:departureLocation"', '"cargo:otherLocation"');
    expect(eventFor).toBeDefined();
    const noOrigin = refusal(() => parseCarrierMessage("application/ld+json", text, RECEIVED));
    expect(noOrigin).toBeInstanceOf(UnplaceableMessageError);
    expect(noOrigin.expected).toContain("departureLocation");
  });

  it("refuses a wrong check digit (malformed: 400) and a code outside the StatusCode list, naming the path", () => {
    const digit = refusal(() => ld("refused-check-digit.jsonld"));
    expect(digit).not.toBeInstanceOf(UnplaceableMessageError);
    expect(digit).toMatchObject({
      line: 10,
      path: "cargo:eventFor.cargo:waybillNumber",
      expected: "AWB serial with check digit 5",
    });
    expect(refusal(() => ld("refused-unknown-code.jsonld"))).toMatchObject({
      line: 4,
      path: "cargo:eventCode",
      found: "LOADED_IN_TRUCK",
    });
  });

  it("refuses a Notification posted as an event, malformed JSON and more than 100 events", () => {
    expect(refusal(() => ld("notification-logistics-event-received.jsonld"))).toMatchObject({
      path: "@type",
    });
    expect(refusal(() => parseCarrierMessage("application/ld+json", "{\n  oops", RECEIVED))).toMatchObject({
      expected: "valid JSON",
    });
    const event = JSON.parse(fixture("onerecord", "logistics-event-rcs-vocab.jsonld"));
    expect(refusal(() => parseOneRecordEvents(Array.from({ length: 101 }, () => event)))).toMatchObject({
      path: "[100]",
    });
  });

  it("refuses times far from receipt and malformed dates, unknown time types and bad weights", () => {
    const base = JSON.parse(fixture("onerecord", "logistics-event-rcs-vocab.jsonld"));
    const run = (patch: Record<string, unknown>) =>
      parseCarrierMessage("application/ld+json", JSON.stringify({ ...base, ...patch }), RECEIVED);
    expect(refusal(() => run({ eventDate: "0001-03-14T09:05:00" }))).toMatchObject({ path: "eventDate" });
    expect(refusal(() => run({ eventDate: "2026-02-30T09:05:00" }))).toMatchObject({ path: "eventDate" });
    expect(refusal(() => run({ eventTimeType: "SOMETIME" }))).toMatchObject({ path: "eventTimeType" });
    expect(
      refusal(() =>
        run({ recordedPieceCount: 2, recordedWeight: { numericalValue: 1e9, unit: { code: "KGM" } } }),
      ),
    ).toMatchObject({ path: "recordedWeight" });
    expect(refusal(() => run({ eventLocation: { locationCodes: [{ code: "DEFRA" }] } }))).toMatchObject({
      path: "eventLocation.locationCodes",
    });
  });

  it("a plain code and a plain location are read too; PLANNED gives no report", () => {
    const base = JSON.parse(fixture("onerecord", "logistics-event-rcs-vocab.jsonld"));
    const run = (patch: Record<string, unknown>) =>
      parseOneRecordEvents({ ...base, ...patch }).map((r) => (r.kind === "status" ? r.status : r.kind));
    expect(run({ eventCode: "NFD", eventLocation: "JFK" })).toEqual(["NFD"]);
    expect(run({ eventTimeType: { "@id": "PLANNED" } })).toEqual([]);
  });
});
