/**
 * Cargo-XML waybills, manifests and house waybills read like their Cargo-IMP twins, and ONE Record
 * as the data models 3.0 to 3.3 write it: code-list IRIs of every version, CodeListElements with an
 * internal @id, typed dates, older location names, the message each report names, and nesting at any
 * depth refused with a 400 (never a RangeError).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCargoXml } from "../../../functions/core/carrier-messages/cargo-xml/index.ts";
import { parseCarrierMessage } from "../../../functions/core/carrier-messages/index.ts";
import { preview } from "../../../functions/core/carrier-messages/json/text.ts";
import { parseOneRecordEvents } from "../../../functions/core/carrier-messages/one-record/events.ts";
import { parseOneRecordNotification } from "../../../functions/core/carrier-messages/one-record/notifications.ts";
import { MessageParseError } from "../../../functions/core/errors.ts";
import { at, awb, fixture, qty, unlocated } from "./helpers.ts";

const RECEIVED = "2026-03-14T12:00:00Z";
const real = (name: string) => fixture("real", name);

function refusal(run: () => unknown): MessageParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof MessageParseError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("XFWB: a Cargo-XML waybill read like an FWB", () => {
  it("AWB, route, totals, the forwarder's agent and CASS, legs by day and month (no year)", () => {
    const [report] = parseCargoXml(real("cxml-xfwb-3-riege-1.xml"));
    expect(unlocated(report ? [report] : [])).toEqual([
      {
        kind: "awb-data",
        source: "XFWB",
        awb: awb("11111111", "888"),
        origin: "ORK",
        destination: "PVG",
        total: qty(3, "K", 1042, 2.602),
        agent: { code: "3456789", cass: "0123" },
        productCode: null,
        legs: [
          {
            carrierCode: "XX",
            flightNumber: "8012",
            flightDay: 10,
            flightMonth: 3,
            origin: "ORK",
            destination: "DUB",
            scheduledDeparture: null,
            scheduledArrival: null,
            roadFeeder: false,
            quantity: null,
          },
          expect.objectContaining({ flightNumber: "345", flightDay: 12, origin: "DUB", destination: "AUH" }),
        ],
      },
    ]);
    expect(report?.message).toEqual({
      type: "XFWB",
      version: "3.00",
      id: "888-11111111_6c763819-1067-43fe-acf7-db4daf4f77cf",
    });
  });

  it("a waybill of 2021 is read in the year nearest receipt: no refusal for its year", () => {
    expect(parseCarrierMessage("application/xml", real("cxml-xfwb-3-riege-6.xml"), RECEIVED)).toHaveLength(1);
  });

  it("a wrong check digit in the waybill number is refused naming its element's line", () => {
    const xml = real("cxml-xfwb-3-riege-1.xml").replace("<ID>888-11111111</ID>", "<ID>888-11111112</ID>");
    expect(refusal(() => parseCargoXml(xml))).toMatchObject({
      line: 20,
      expected: "AWB serial with check digit 1",
    });
  });
});

describe("XFFM: a Cargo-XML flight manifest read like an FFM", () => {
  it("each AWB booked on the leg to its point of unloading, split pieces added up, MAN at loading", () => {
    const reports = parseCargoXml(fixture("cargo-xml", "xffm-two-points.xml"));
    expect(unlocated(reports)).toEqual([
      {
        kind: "booking",
        source: "XFFM",
        awb: awb("12345675"),
        origin: "FRA",
        destination: "JFK",
        total: qty(10),
        wholeItinerary: false,
        legs: [
          {
            carrierCode: "LH",
            flightNumber: "400",
            flightDay: 14,
            flightMonth: 3,
            origin: "FRA",
            destination: "JFK",
            scheduledDeparture: at(3, 14, 13, 25),
            scheduledArrival: at(3, 14, 15, 55),
            roadFeeder: false,
            quantity: qty(10, "K", 250),
          },
        ],
      },
      expect.objectContaining({
        kind: "other-status",
        code: "MAN",
        station: "FRA",
        time: at(3, 14, 13, 25),
        pieces: 10,
      }),
      expect.objectContaining({
        kind: "booking",
        awb: awb("76543213"),
        legs: [
          expect.objectContaining({
            destination: "ORD",
            scheduledArrival: null,
            quantity: qty(4, "K", 80.5),
          }),
        ],
      }),
      expect.objectContaining({ kind: "other-status", code: "MAN", awb: awb("76543213") }),
    ]);
    expect(reports[0]?.message).toEqual({ type: "XFFM", version: "3.00", id: "LH400-14MAR-FRA-1" });
  });
});

describe("XFZB: a house waybill is checked and places nothing", () => {
  it("reads its master AWB and answers no report", () => {
    expect(parseCargoXml(real("cxml-xfzb-3-riege-7.xml"))).toEqual([]);
    const broken = real("cxml-xfzb-3-riege-7.xml").replace("<ID>888-11111111</ID>", "<ID>888-11111112</ID>");
    expect(refusal(() => parseCargoXml(broken)).expected).toBe("AWB serial with check digit 1");
  });
});

const EVENT = {
  "@context": { cargo: "https://onerecord.iata.org/ns/cargo#" },
  "@id": "https://1r.example.com/logistics-objects/s1/logistics-events/e1",
  "@type": "cargo:LogisticsEvent",
  "cargo:eventCode": { "@id": "https://onerecord.iata.org/ns/coreCodeLists#StatusCode_DEP" },
  "cargo:eventTimeType": { "@id": "cargo:ACTUAL" },
  "cargo:eventDate": {
    "@type": "http://www.w3.org/2001/XMLSchema#dateTime",
    "@value": "2026-03-14T12:41:00Z",
  },
  "cargo:eventLocation": { "cargo:locationCodes": [{ "cargo:code": "FRA" }] },
  "cargo:eventFor": {
    "@type": "cargo:Waybill",
    "cargo:waybillPrefix": "020",
    "cargo:waybillNumber": "12345675",
    "cargo:departureLocation": { "cargo:locationCodes": [{ "cargo:code": "FRA" }] },
    "cargo:arrivalLocation": { "cargo:locationCodes": [{ "cargo:code": "JFK" }] },
  },
};

describe("ONE Record as data models 3.0 to 3.3 write it", () => {
  const with_ = (patch: Record<string, unknown>) => ({ ...EVENT, ...patch });
  const code = (value: unknown) =>
    parseOneRecordEvents(with_({ "cargo:eventCode": value })).map((r) =>
      r.kind === "status" ? r.status : r.kind,
    );

  it.each([
    ["3.0 core code list IRI", { "@id": "https://onerecord.iata.org/ns/coreCodeLists#StatusCode_DEP" }],
    ["3.1-3.3 code list IRI", { "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#DEP" }],
    ["a compact IRI with its prefix", "ccl:StatusCode_DEP"],
    [
      "a CodeListElement with an internal @id",
      { "@id": "interna:f7d53a28", "@type": "cargo:CodeListElement", "cargo:code": "DEP" },
    ],
    ["a plain code", "DEP"],
  ])("reads the eventCode as %s", (_name, value) => {
    const event = with_({
      "@context": {
        cargo: "https://onerecord.iata.org/ns/cargo#",
        ccl: "https://onerecord.iata.org/ns/coreCodeLists#",
      },
      "cargo:eventCode": value,
    });
    expect(parseOneRecordEvents(event).map((r) => (r.kind === "status" ? r.status : r.kind))).toEqual([
      "DEP",
    ]);
  });

  it("a 3.0 code of the history (StatusCode_FOH) is kept as history; DIS sub-codes read DIS", () => {
    expect(code({ "@id": "https://onerecord.iata.org/ns/coreCodeLists#StatusCode_FOH" })).toEqual([
      "other-status",
    ]);
    expect(code({ "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#DIS_MSAW" })).toEqual([
      "other-status",
    ]);
  });

  it("names the message: the event class, the data-model version its terms show, the event @id", () => {
    const message = (patch: Record<string, unknown>) => parseOneRecordEvents(with_(patch))[0]?.message;
    expect(message({})).toEqual({ type: "LogisticsEvent", version: "3.0", id: EVENT["@id"] });
    expect(
      message({ "cargo:eventCode": { "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#DEP" } }),
    ).toEqual({
      type: "LogisticsEvent",
      version: "3.1-3.3",
      id: EVENT["@id"],
    });
    expect(
      message({ "@type": "cargo:StatusUpdateEvent", "@id": undefined, "cargo:eventCode": "DEP" }),
    ).toEqual({
      type: "StatusUpdateEvent",
      version: "3.3",
      id: null,
    });
  });

  it("reads the location as recordedAtLocation too, as older documents name it", () => {
    const { "cargo:eventLocation": location, ...rest } = EVENT;
    const reports = parseOneRecordEvents({ ...rest, "cargo:recordedAtLocation": location });
    expect(reports[0]).toMatchObject({ station: "FRA", time: { hour: 13, minute: 41 } });
  });

  it("the good practice's 3.0 events are read up to what they lack: the AWB (400 naming the body)", () => {
    for (const name of ["1r-logisticsevent-3.0-gpst-01.json", "1r-logisticsevent-3.0-gpst-03.json"]) {
      const error = refusal(() => parseCarrierMessage("application/ld+json", real(name), RECEIVED));
      expect(error.expected).toContain("waybillPrefix and waybillNumber");
    }
  });
});

describe("nested JSON-LD: a 400 at any depth, never a RangeError", () => {
  const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

  it.each([
    ["10,000 nested arrays", nested(10_000), "[0]"],
    ["an @graph of nested arrays", `{"@graph":[${nested(10_000)}]}`, "@graph"],
    ["a nested @context", `{"@context":${nested(50)},"@type":"cargo:LogisticsEvent"}`, "@context"],
    [
      "100,000 nested objects in eventFor",
      `{"cargo:eventFor":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`,
      "cargo:eventFor",
    ],
  ])("%s", (_name, body, path) => {
    const error = refusal(() => parseCarrierMessage("application/ld+json", body, RECEIVED));
    expect(error.expected).toContain("levels of nested arrays and objects");
    expect(error.path?.startsWith(path)).toBe(true);
  });

  it("a nested notification too", () => {
    const error = refusal(() =>
      parseOneRecordNotification(JSON.parse(`{"api:hasEventType":${nested(1000)}}`)),
    );
    expect(error.path).toBe("api:hasEventType");
  });

  it("property: any nesting of arrays and objects is a MessageParseError or reports, never anything else", () => {
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom(null, 1, "DEP", true),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("@graph", "@context", "cargo:eventFor", "x"), tie("node"), {
          maxKeys: 3,
        }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 3000 }), (value, depth) => {
        let body: unknown = value;
        for (let i = 0; i < depth; i++) body = [body];
        try {
          parseOneRecordEvents(body, JSON.stringify(body));
        } catch (error) {
          expect(error).toBeInstanceOf(MessageParseError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a refusal shows a deep value in a few characters, without recursion", () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(preview(deep)).toHaveLength(60);
    expect(preview({ a: [1, "x", { b: null }], c: true })).toBe('{"a":[1,"x",{"b":null}],"c":true}');
  });
});
