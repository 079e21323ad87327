import { describe, expect, it } from "vitest";
import {
  JsonEventValidationError,
  MessageParseError,
  parseCarrierMessage,
  parseJsonEvents,
  parseXfsu,
  UnsupportedContentTypeError,
} from "../../../functions/core/carrier-messages/index.ts";
import { at, awb, fixture, qty } from "./helpers.ts";

const xfsu = (name: string) => parseXfsu(fixture("xfsu", name));
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
    ["another document", '<?xml version="1.0"?>\n<Waybill/>', 1, "StatusMessage"],
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
    const reports = parseCarrierMessage(
      "application/json; charset=utf-8",
      fixture("json-events", "bkd-envelope.json"),
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
    expect(parseJsonEvents(JSON.parse(fixture("json-events", "fwb-single.json")))).toEqual([
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
    expect(parseJsonEvents(JSON.parse(fixture("json-events", "dlv-and-can.json")))).toEqual([
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
