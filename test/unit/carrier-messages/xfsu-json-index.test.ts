import { describe, expect, it } from "vitest";
import {
  parseCarrierMessage,
  parseJsonEvents,
  parseCargoXml as parseXfsu,
} from "../../../functions/core/carrier-messages/index.ts";
import type { BookingReport, StatusReport } from "../../../functions/core/carrier-messages/types.ts";
import {
  JsonEventValidationError,
  MessageParseError,
  UnsupportedContentTypeError,
} from "../../../functions/core/errors.ts";
import { resolveStationTime } from "../../../functions/core/time/station-time.ts";
import { at, awb, fixture, qty, unlocated } from "./helpers.ts";

const xfsu = (name: string) => unlocated(parseXfsu(fixture("xfsu", name)));
const FRA_JFK = { awb: awb("12345675"), origin: "FRA", destination: "JFK", total: qty(10, "K", 250) };
const Y = 2026;

describe("parseXfsu fixtures", () => {
  it("BKD with a road-feeder truck and a flight: whole itinerary, ModeCode 3 = road", () => {
    expect(xfsu("xfsu-bkd-road-feeder.xml")).toEqual([
      {
        ...FRA_JFK,
        origin: "HAJ",
        kind: "booking",
        source: "XFSU/BKD",
        wholeItinerary: true,
        legs: [
          {
            carrierCode: "LH",
            flightNumber: "9300",
            flightDay: 14,
            flightMonth: 3,
            origin: "HAJ",
            destination: "FRA",
            scheduledDeparture: at(3, 14, 6, 0, 0, Y),
            scheduledArrival: at(3, 14, 9, 30, 0, Y),
            roadFeeder: true,
            quantity: qty(10, "K", 250, 1.5),
          },
          {
            carrierCode: "LH",
            flightNumber: "400",
            flightDay: 14,
            flightMonth: 3,
            origin: "FRA",
            destination: "JFK",
            scheduledDeparture: at(3, 14, 13, 25, 0, Y),
            scheduledArrival: at(3, 14, 15, 55, 0, Y),
            roadFeeder: false,
            quantity: qty(10, "K", 250, 1.5),
          },
        ],
      },
    ]);
  });

  it("single BKD is not the whole itinerary", () => {
    expect(xfsu("xfsu-bkd-single.xml")).toMatchObject([
      { kind: "booking", wholeItinerary: false, legs: [{ flightNumber: "400" }] },
    ]);
  });

  const LH400 = { carrierCode: "LH", flightNumber: "400", flightDay: 14, flightMonth: 3 };
  it.each([
    ["xfsu-rcs.xml", "RCS", "FRA", at(3, 14, 9, 10, 0, Y), null, null],
    ["xfsu-dep.xml", "DEP", "FRA", at(3, 14, 13, 41, 0, Y), LH400, null],
    ["xfsu-arr.xml", "ARR", "JFK", at(3, 14, 16, 10, 0, Y), LH400, null],
    ["xfsu-rcf.xml", "RCF", "JFK", at(3, 14, 20, 5, 0, Y), { ...LH400 }, null],
    ["xfsu-nfd.xml", "NFD", "JFK", at(3, 15, 8, 0, 0, Y), null, null],
    ["xfsu-awd.xml", "AWD", "JFK", at(3, 15, 9, 30, 0, Y), null, null],
    ["xfsu-dlv.xml", "DLV", "JFK", at(3, 16, 11, 0, 0, Y), null, "ACMELOGISTICS"],
  ])("%s -> %s at %s", (name, status, station, time, flight, deliveredTo) => {
    expect(xfsu(name)).toEqual([
      {
        ...FRA_JFK,
        kind: "status",
        status,
        source: `XFSU/${status}`,
        station,
        time,
        flight,
        quantity: qty(10, "K", 250, 1.5),
        deliveredTo,
      },
    ]);
  });
});

describe("parseXfsu errors", () => {
  const dep = fixture("xfsu", "xfsu-dep.xml");
  const lineOf = (text: string, needle: string): number =>
    text.slice(0, text.indexOf(needle)).split("\n").length;
  it.each([
    ["not XML", "hello", 1, "well-formed XML"],
    ["unclosed element", "<a>\n<b>\n</a>", 3, "well-formed XML"],
    // A Waybill is read now (XFWB); a status request (XFSR) is a document carriers receive, not send.
    ["another document", '<?xml version="1.0"?>\n<StatusRequest/>', 1, "StatusMessage"],
    [
      "without AWB",
      dep.replace(/<ram:TransportContractDocument>[\s\S]*?<\/ram:TransportContractDocument>/, ""),
      lineOf(dep, "<rsm:MasterConsignment>"),
      "AWB number",
    ],
    [
      "bad AWB",
      dep.replaceAll("020-12345675", "020-1234"),
      lineOf(dep, "<ram:TransportContractDocument>"),
      "AWB number",
    ],
    [
      "bad check digit",
      dep.replaceAll("020-12345675", "020-12345676"),
      lineOf(dep, "<ram:TransportContractDocument>"),
      "check digit 5",
    ],
    ["unknown reason code", dep.replace(">DEP<", ">XYZ<"), lineOf(dep, "<ram:ReasonCode>"), "status code"],
    [
      "bad date-time",
      dep.replace("2026-03-14T13:41:00", "2026-03-14T25:41:00"),
      lineOf(dep, "<ram:DepartureEvent>"),
      "date-time",
    ],
    [
      "bad origin",
      dep.replace("<ram:ID>FRA</ram:ID>", "<ram:ID>FR</ram:ID>"),
      lineOf(dep, "<ram:OriginLocation>"),
      "airport",
    ],
    [
      "without status",
      dep.replace(/<ram:ReportedStatus>[\s\S]*<\/ram:ReportedStatus>/, ""),
      lineOf(dep, "<rsm:MasterConsignment>"),
      "ReportedStatus",
    ],
  ])("%s", (_name, xml, line, expected) => {
    expect(() => parseXfsu(xml)).toThrowError(
      expect.objectContaining({
        name: "MessageParseError",
        line,
        expected: expect.stringContaining(expected),
      }),
    );
  });
});

describe("parseJsonEvents", () => {
  it("envelope with a road-feeder booking and a DEP", () => {
    const reports = unlocated(
      parseCarrierMessage("application/json; charset=utf-8", fixture("json-events", "bkd-envelope.json")),
    );
    expect(reports).toEqual([
      {
        awb: awb("12345675"),
        origin: "HAJ",
        destination: "JFK",
        total: qty(10, "K", 250, 1.5),
        kind: "booking",
        source: "JSON/BKD",
        wholeItinerary: true,
        legs: [
          {
            carrierCode: "LH",
            flightNumber: "9300",
            flightDay: 14,
            flightMonth: 3,
            origin: "HAJ",
            destination: "FRA",
            scheduledDeparture: at(3, 14, 6, 0, 0, Y),
            scheduledArrival: at(3, 14, 9, 30, 0, Y),
            roadFeeder: true,
            quantity: null,
          },
          {
            carrierCode: "LH",
            flightNumber: "400",
            flightDay: 14,
            flightMonth: 3,
            origin: "FRA",
            destination: "JFK",
            scheduledDeparture: at(3, 14, 13, 25, 0, Y),
            scheduledArrival: at(3, 14, 15, 55, 0, Y),
            roadFeeder: false,
            quantity: qty(10, "K", 250),
          },
        ],
      },
      {
        awb: awb("12345675"),
        origin: "HAJ",
        destination: "JFK",
        total: null,
        kind: "status",
        status: "DEP",
        source: "JSON/DEP",
        station: "FRA",
        time: at(3, 14, 13, 41, 0, Y),
        flight: { carrierCode: "LH", flightNumber: "400", flightDay: 14, flightMonth: 3 },
        quantity: qty(10, "K", 250),
        deliveredTo: null,
      },
    ]);
  });

  it("a single FWB object with agent and product code", () => {
    expect(unlocated(parseJsonEvents(JSON.parse(fixture("json-events", "fwb-single.json"))))).toEqual([
      {
        awb: awb("76543213"),
        origin: "MUC",
        destination: "ORD",
        total: qty(4, "L", 177.5),
        kind: "awb-data",
        source: "JSON/FWB",
        agent: { code: "7654321", cass: "0042" },
        productCode: "XPS",
        legs: [],
      },
    ]);
  });

  it("DLV and CAN", () => {
    expect(unlocated(parseJsonEvents(JSON.parse(fixture("json-events", "dlv-and-can.json"))))).toEqual([
      {
        ...FRA_JFK,
        total: null,
        kind: "status",
        status: "DLV",
        source: "JSON/DLV",
        station: "JFK",
        time: at(3, 16, 11, 0, 0, Y),
        flight: null,
        quantity: null,
        deliveredTo: "ACMELOGISTICS",
      },
      {
        awb: awb("55500012"),
        origin: "FRA",
        destination: "SIN",
        total: null,
        kind: "cancellation",
        source: "JSON/CAN",
        station: null,
        time: null,
      },
    ]);
  });

  const base = `"AirlinePrefix": "020", "AwbNumber": "12345675", "Origin": "FRA", "Destination": "JFK"`;
  it.each([
    [
      "wrong type of Pieces",
      `{"Type":"RCS",${base},"Pieces":"ten","Station":"FRA","Time":"2026-03-14T09:10"}`,
      "Pieces",
      1,
    ],
    ["bad station", `{\n"Type":"RCS",\n${base},\n"Station":"FR",\n"Time":"2026-03-14T09:10"}`, "Station", 4],
    ["bad time", `{"Type":"DEP",${base},"Station":"FRA",\n"Time":"2026-02-30T09:10"}`, "Time", 2],
    ["unknown Type", `{"Type":"XYZ",${base}}`, "Type", 1],
    ["missing legs", `{"Type":"BKD",${base}}`, "Legs", 1],
    [
      "check digit",
      `{"Messages":[\n{"Type":"CAN",\n"AirlinePrefix":"020","AwbNumber":"12345670","Origin":"FRA","Destination":"JFK"}]}`,
      "Messages[0].AwbNumber",
      3,
    ],
    [
      "bad leg origin deep in the envelope",
      `{"Messages":[\n{"Type":"BKD",${base},\n"Legs":[\n{"CarrierCode":"LH","FlightNumber":"400","Date":"2026-03-14",\n"Origin":"fra","Destination":"JFK"}]}]}`,
      "Messages[0].Legs[0].Origin",
      5,
    ],
  ])("%s -> JsonEventValidationError", (_name, body, field, line) => {
    let caught: unknown;
    try {
      parseCarrierMessage("application/json", body);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JsonEventValidationError);
    expect(caught).toBeInstanceOf(MessageParseError);
    const error = caught as JsonEventValidationError;
    expect(error.errors[0]?.field).toBe(field);
    expect(error.line).toBe(line);
  });

  it("invalid JSON is a MessageParseError (line named when the runtime gives a position)", () => {
    expect(() => parseCarrierMessage("application/json", '{\n"Type": "RCS",\n"Station": }')).toThrowError(
      expect.objectContaining({ name: "MessageParseError", expected: "valid JSON" }),
    );
  });
});

describe("parseCarrierMessage dispatch", () => {
  it("text/plain is Cargo-IMP, XML is XFSU", () => {
    expect(
      parseCarrierMessage("text/plain; charset=UTF-8", fixture("cargo-imp", "fsu-dep.txt")),
    ).toMatchObject([{ source: "FSU/DEP" }]);
    expect(parseCarrierMessage("application/xml", fixture("xfsu", "xfsu-dep.xml"))).toMatchObject([
      { source: "XFSU/DEP" },
    ]);
    expect(parseCarrierMessage("Text/XML", fixture("xfsu", "xfsu-rcs.xml"))).toMatchObject([
      { source: "XFSU/RCS" },
    ]);
  });

  it("rejects other content types", () => {
    expect(() => parseCarrierMessage("application/octet-stream", "x")).toThrow(UnsupportedContentTypeError);
    expect(() => parseCarrierMessage("", "x")).toThrow(UnsupportedContentTypeError);
  });
});

describe("XFSU document type declarations", () => {
  it("refuses a DOCTYPE (entity expansion, XXE) with a parse error naming its line", () => {
    const xml = '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<x>&e;</x>';
    expect(() => parseXfsu(xml)).toThrowError(MessageParseError);
    try {
      parseXfsu(xml);
    } catch (error) {
      expect((error as MessageParseError).line).toBe(2);
    }
  });
});

describe("XFSU times with a UTC offset", () => {
  const dep = fixture("xfsu", "xfsu-dep.xml");
  const depAt = (value: string) => parseXfsu(dep.replace("2026-03-14T13:41:00", value))[0] as StatusReport;
  const received = "2026-03-14T15:00:00Z";

  it.each([
    ["Z", "2026-03-14T12:41:00Z"],
    ["+01:00", "2026-03-14T13:41:00+01:00"],
    ["-04:00 (sent in New York time)", "2026-03-14T08:41:00-04:00"],
    ["+0530 without colon", "2026-03-14T18:11:00+0530"],
  ])("%s is converted to the station's local time, the instant kept exact", (_name, value) => {
    const report = depAt(value);
    expect(report.time).toEqual({ ...at(3, 14, 13, 41, 0, Y), utcOffsetMinutes: 60 });
    expect(resolveStationTime("FRA", report.time!, received)).toEqual({
      Utc: "2026-03-14T12:41:00Z",
      Local: "2026-03-14T13:41:00",
    });
  });

  it("a time without offset stays station-local as sent", () => {
    expect(depAt("2026-03-14T13:41:00").time).toEqual(at(3, 14, 13, 41, 0, Y));
  });

  it("keeps the exact instant in the hour a daylight-saving change repeats", () => {
    // 25 OCT 2026, 02:30 in Frankfurt happens twice: 00:30Z (CEST) and 01:30Z (CET).
    const second = depAt("2026-10-25T01:30:00Z");
    expect(second.time).toMatchObject({ day: 25, month: 10, hour: 2, minute: 30, utcOffsetMinutes: 60 });
    expect(resolveStationTime("FRA", second.time!, "2026-10-25T02:00:00Z").Utc).toBe("2026-10-25T01:30:00Z");
    const first = depAt("2026-10-25T00:30:00Z");
    expect(first.time).toMatchObject({ hour: 2, minute: 30, utcOffsetMinutes: 120 });
    expect(resolveStationTime("FRA", first.time!, "2026-10-25T02:00:00Z").Utc).toBe("2026-10-25T00:30:00Z");
  });

  it("a time after midnight UTC is the station's date (and so the flight's)", () => {
    // 23:30Z on 14 MAR is 00:30 on 15 MAR in Frankfurt.
    const report = depAt("2026-03-14T23:30:00Z");
    expect(report.time).toMatchObject({ day: 15, hour: 0, minute: 30 });
    expect(report.flight).toMatchObject({ flightDay: 15, flightMonth: 3 });
  });

  it.each(["2026-03-14T13:41:61", "2026-03-14T13:60:00", "2026-03-14T24:00:00", "2026-02-29T13:41:00"])(
    "refuses the impossible time %s, naming the element",
    (value) => {
      expect(() => depAt(value)).toThrowError(
        expect.objectContaining({ expected: "a valid local date-time such as 2026-03-14T13:41:00" }),
      );
    },
  );

  it("refuses an offset beyond 14 hours, naming the element", () => {
    expect(() => depAt("2026-03-14T13:41:00+15:00")).toThrowError(
      expect.objectContaining({ expected: "a UTC offset between -14:00 and +14:00" }),
    );
  });
});

describe("XFSU flight day from the schedule", () => {
  const dep = fixture("xfsu", "xfsu-dep.xml");
  it("names the flight by its scheduled departure date, not a departure after midnight", () => {
    const xml = dep.replace(
      "<ram:DepartureOccurrenceDateTime>2026-03-14T13:41:00</ram:DepartureOccurrenceDateTime>",
      "<ram:DepartureOccurrenceDateTime>2026-03-15T00:20:00</ram:DepartureOccurrenceDateTime>\n" +
        "            <ram:ScheduledOccurrenceDateTime>2026-03-14T23:30:00</ram:ScheduledOccurrenceDateTime>",
    );
    const [report] = parseXfsu(xml) as StatusReport[];
    expect(report?.time).toEqual(at(3, 15, 0, 20, 0, Y));
    expect(report?.flight).toEqual({ carrierCode: "LH", flightNumber: "400", flightDay: 14, flightMonth: 3 });
  });
});

describe("where reports were read", () => {
  it("XFSU: each status and each booked movement names its element's line and path", () => {
    const xml = fixture("xfsu", "xfsu-bkd-road-feeder.xml");
    const lines = xml.split("\n");
    const nth = (needle: string, n: number) => {
      let count = 0;
      return lines.findIndex((l) => l.includes(needle) && count++ === n) + 1;
    };
    const [booking] = parseXfsu(xml) as BookingReport[];
    expect(booking?.sourceAt).toEqual({
      report: { line: nth("<ram:ReportedStatus>", 0), path: "MasterConsignment/ReportedStatus[1]" },
      origin: { line: nth("<ram:OriginLocation>", 0), path: "MasterConsignment/OriginLocation/ID" },
      destination: {
        line: nth("<ram:FinalDestinationLocation>", 0),
        path: "MasterConsignment/FinalDestinationLocation/ID",
      },
    });
    expect(booking?.legs.map((l) => l.at)).toEqual([
      {
        line: nth("<ram:SpecifiedLogisticsTransportMovement>", 0),
        path: "MasterConsignment/ReportedStatus[1]/AssociatedStatusConsignment[1]/SpecifiedLogisticsTransportMovement[1]",
      },
      {
        line: nth("<ram:SpecifiedLogisticsTransportMovement>", 1),
        path: "MasterConsignment/ReportedStatus[1]/AssociatedStatusConsignment[1]/SpecifiedLogisticsTransportMovement[2]",
      },
    ]);
  });

  it("JSON: each message and leg names its line and field path", () => {
    const text = fixture("json-events", "bkd-envelope.json");
    const reports = parseCarrierMessage("application/json", text);
    const lineOf = (needle: string, from = 0) => text.slice(0, text.indexOf(needle, from)).split("\n").length;
    const booking = reports[0] as BookingReport;
    expect(booking.sourceAt.origin).toEqual({ line: lineOf('"Origin"'), path: "Messages[0].Origin" });
    expect(booking.legs[1]?.at.path).toBe("Messages[0].Legs[1]");
    const status = reports[1] as StatusReport;
    expect(status.sourceAt.report.path).toBe("Messages[1]");
    expect(status.sourceAt.station).toEqual({
      line: lineOf('"Station"'),
      path: "Messages[1].Station",
    });
  });

  it("Cargo-IMP: the status line, the consignment line and each leg's line", () => {
    const body =
      "QD HDQFMLH\n.HDQRMXH 141200\nFSU/13\n020-12345675FRAJFK/T10\n\nBKD/LH400/14MAR/FRAJFK/S1325/S1555\nDEP/LH400/14MAR/FRAJFK/A1341\n";
    const [booking, dep] = parseCarrierMessage("text/plain", body) as [BookingReport, StatusReport];
    expect(booking.sourceAt.report.line).toBe(6);
    expect(booking.legs[0]?.at).toEqual({ line: 6, path: null });
    expect(dep.sourceAt).toEqual({
      report: { line: 7, path: null },
      origin: { line: 4, path: null },
      destination: { line: 4, path: null },
    });
  });
});
