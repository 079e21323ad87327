/**
 * Issue 11 in the parsers: Cargo-IMP variants as they really come (point 7), times with a year far
 * from receipt (8), non-finite and implausible quantities (9, 15), bounded JSON nesting with
 * iterative line-locating (14) and the cap of messages per body (17).
 */
import { describe, expect, it } from "vitest";
import { parseCargoImp } from "../../../functions/core/carrier-messages/cargo-imp/index.ts";
import {
  MAX_MESSAGES_PER_BODY,
  volumeProblem,
  weightProblem,
} from "../../../functions/core/carrier-messages/common.ts";
import { parseCarrierMessage } from "../../../functions/core/carrier-messages/index.ts";
import { parseJsonEvents } from "../../../functions/core/carrier-messages/json/events.ts";
import { assertPlausibleTimes } from "../../../functions/core/carrier-messages/plausible-times.ts";
import type { CarrierReport } from "../../../functions/core/carrier-messages/types.ts";
import { type JsonEventValidationError, MessageParseError } from "../../../functions/core/errors.ts";
import { fixture } from "./helpers.ts";

const RECEIVED = "2026-03-14T12:00:00Z";

function parseError(run: () => unknown): MessageParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof MessageParseError) return error;
    throw error;
  }
  throw new Error("expected a MessageParseError");
}

const summary = (reports: CarrierReport[]) =>
  reports.map((r) =>
    r.kind === "booking"
      ? `${r.source}:${r.legs.map((l) => `${l.carrierCode}${l.flightNumber}${l.origin}${l.destination}`).join(",")}`
      : r.source,
  );

describe("Cargo-IMP as it comes (point 7)", () => {
  it("drops SOH/STX/ETX around a Type-B heading and text, skips untracked codes and optional lines", () => {
    const text = fixture("cargo-imp", "typeb-soh-stx-etx-fsu16.txt");
    expect(text).toContain("\u0001");
    const reports = parseCargoImp(text);
    // FOH is kept as an other status; MAN and PRE (a date, no time) are skipped.
    expect(summary(reports)).toEqual(["FSU/RCS", "FSU/FOH", "FSU/DEP"]);
    expect(reports.map((r) => r.sourceAt.report.line)).toEqual([5, 6, 12]);
  });

  it("reads an FSA like an FSU", () => {
    expect(summary(parseCargoImp(fixture("cargo-imp", "fsa-14.txt")))).toEqual(["FSU/RCS", "FSU/DEP"]);
  });

  it("reads FSU versions 12 to 16 with the standard's other status codes kept (DIS without a time skipped)", () => {
    expect(summary(parseCargoImp(fixture("cargo-imp", "fsu-versions-12-to-16.txt")))).toEqual([
      "FSU/RCS",
      "FSU/TFD",
      "FSU/RCT",
      "FSU/CRC",
      "FSU/TRM",
      "FSU/TGC",
      "FSU/AWR",
      "FSU/CCD",
      "FSU/DDL",
      "FSU/DEP",
    ]);
  });

  it("skips OSI, OCI, ULD, OTH, SSR, SRI lines in an FSU but still wants a status line", () => {
    const body = "FSU/14\n020-12345675FRAJFK/T1\nRCS/14MAR0900/FRA/T1\nOTH/NOTE\nSSR/KEEP DRY\nSRI/REF 1\n";
    expect(summary(parseCargoImp(body))).toEqual(["FSU/RCS"]);
    const onlyOptional = parseError(() => parseCargoImp("FSU/14\n020-12345675FRAJFK/T1\nOSI/NOTE\n"));
    expect(onlyOptional.line).toBe(4);
    expect(onlyOptional.expected).toMatch(/status line/);
  });

  it("reads FWB/17 in pounds and cubic feet (converted to cubic metres) and FWB/16 in kg and MC", () => {
    const [pounds] = parseCargoImp(fixture("cargo-imp", "fwb-17-pounds-cubic-feet.txt"));
    expect(pounds?.total).toEqual({
      pieces: 4,
      weightCode: "L",
      weight: 551.2,
      volumeCode: "CM",
      volume: 1.201,
    });
    expect(pounds?.kind === "awb-data" ? pounds.agent : null).toEqual({ code: "1234567", cass: "0001" });
    const [kilos] = parseCargoImp(fixture("cargo-imp", "fwb-16-kilos-cubic-metres.txt"));
    expect(kilos?.total).toEqual({ pieces: 10, weightCode: "K", weight: 250, volumeCode: "CM", volume: 1.5 });
  });

  it("reads FFR/8 with three flights (NN, HK, KK) and FFA/4 dropping UU and XX flights", () => {
    expect(summary(parseCargoImp(fixture("cargo-imp", "ffr-8-several-flights.txt")))).toEqual([
      "FFR:LH2001MUCFRA,LH430FRAORD,LH8210ORDJFK",
    ]);
    expect(summary(parseCargoImp(fixture("cargo-imp", "ffa-4-mixed-codes.txt")))).toEqual([
      "FFA:LH2001MUCFRA,LH402FRAJFK",
    ]);
  });

  it("refuses a 7-digit serial naming the line and the complete AWB number", () => {
    const error = parseError(() => parseCargoImp(fixture("cargo-imp", "fsu-seven-digit-serial.txt")));
    expect(error.line).toBe(2);
    expect(error.expected).toContain("020-12345605");
  });
});

describe("plausible quantities (points 9 and 15)", () => {
  it("accepts 0 and amounts from 0.001 up to 1,000 t or 100,000 cubic metres", () => {
    for (const [amount, unit] of [
      [0, "K"],
      [0.001, "K"],
      [1_000_000, "K"],
      [2_204_623, "L"],
    ] as const)
      expect(weightProblem(amount, unit)).toBeNull();
    expect(volumeProblem(0)).toBeNull();
    expect(volumeProblem(100_000)).toBeNull();
  });

  it("refuses non-finite, tiny and huge amounts per unit", () => {
    for (const amount of [Number.POSITIVE_INFINITY, Number.NaN, 1e200, 1e-200, 1_000_001, -1])
      expect(weightProblem(amount, "K")).toMatch(/a weight of 0 or 0.001 to 1,000,000 kg/);
    expect(weightProblem(2_204_624, "L")).toMatch(/2,204,623 lb/);
    for (const amount of [Number.POSITIVE_INFINITY, 1e200, 1e-200, 100_001])
      expect(volumeProblem(amount)).toMatch(/a volume of 0 or 0.001 to 100,000 cubic metres/);
  });

  it("refuses them in Cargo-IMP (after unit conversion) naming the line", () => {
    const error = parseError(() =>
      parseCargoImp("FSU/14\n020-12345675FRAJFK/T1\nRCS/14MAR0900/FRA/T1MC100001\n"),
    );
    expect(error.line).toBe(3);
    expect(error.expected).toMatch(/a volume of 0 or/);
  });

  it("refuses them in JSON naming the field: Infinity by the schema, the range after it", () => {
    const message = (quantity: string) =>
      `{"Type":"RCS","AirlinePrefix":"020","AwbNumber":"12345675","Origin":"FRA","Destination":"JFK","Station":"FRA","Time":"2026-03-14T09:00",${quantity}}`;
    const errors = (quantity: string) =>
      (
        parseError(() =>
          parseCarrierMessage("application/json", message(quantity)),
        ) as JsonEventValidationError
      ).errors;
    expect(errors(`"Pieces":1,"Weight":1e999`)).toEqual([{ field: "Weight", message: "a finite weight" }]);
    expect(errors(`"Pieces":1,"Weight":1e200,"Quantity":{"Pieces":1,"Volume":1e-200}`)).toEqual([
      { field: "Weight", message: "a weight of 0 or 0.001 to 1,000,000 kg" },
      { field: "Quantity.Volume", message: "a volume of 0 or 0.001 to 100,000 cubic metres" },
    ]);
  });
});

describe("times near receipt (point 8)", () => {
  const json = (time: string) =>
    `{"Type":"RCS","AirlinePrefix":"020","AwbNumber":"12345675","Origin":"FRA","Destination":"JFK",\n"Station":"FRA","Time":"${time}"}`;

  it("accepts times up to 366 days either side of receipt", () => {
    for (const time of ["2025-03-13T12:00", "2027-03-15T11:59", "2026-03-14T09:00"])
      expect(parseCarrierMessage("application/json", json(time), RECEIVED)).toHaveLength(1);
  });

  it("refuses years 0000-0999 and times further away, naming the field and the window", () => {
    for (const time of [
      "0000-01-01T00:00",
      "0001-03-14T09:00",
      "0999-12-31T23:59",
      "2025-03-12T12:00",
      "2027-03-16T00:00",
    ]) {
      const error = parseError(() => parseCarrierMessage("application/json", json(time), RECEIVED));
      expect([error.line, error.path, error.found]).toEqual([2, "Time", time]);
      expect(error.expected).toBe("a date-time within 366 days of receipt (2025-03-13 to 2027-03-15)");
    }
  });

  it("leaves year-less Cargo-IMP times to the core's nearest year", () => {
    const reports = parseCargoImp("FSU/14\n020-12345675FRAJFK/T1\nRCS/14SEP0900/FRA/T1\n");
    expect(() => assertPlausibleTimes(reports, RECEIVED)).not.toThrow();
  });
});

describe("bounded JSON nesting, iterative line-locating (point 14)", () => {
  const status = `"Type":"RCS","AirlinePrefix":"020","AwbNumber":"12345675","Origin":"FRA","Destination":"JFK","Station":"FRA","Time":"2026-03-14T09:00"`;

  it("refuses a member nested 20,000 arrays deep naming the member and its line", () => {
    const deep = `${"[".repeat(20_000)}1${"]".repeat(20_000)}`;
    const text = `{"Messages":[{${status},\n"Extra":{"Deeper":${deep}}}]}`;
    const error = parseError(() => parseJsonEvents(JSON.parse(text), text));
    expect((error as JsonEventValidationError).errors).toEqual([
      { field: "Messages[0].Extra.Deeper", message: "at most 16 levels of nested arrays and objects" },
    ]);
    expect(error.line).toBe(2);
  });

  it("accepts unknown members nested up to the bound", () => {
    const deep = `${"[".repeat(14)}1${"]".repeat(14)}`;
    const text = `{${status},"Extra":${deep}}`;
    expect(parseJsonEvents(JSON.parse(text), text)).toHaveLength(1);
  });

  it("still names the line of every report and problem in a pretty-printed body", () => {
    const body = {
      Messages: [
        JSON.parse(`{${status}}`),
        {
          Type: "BKD",
          AirlinePrefix: "020",
          AwbNumber: "12345675",
          Origin: "FRA",
          Destination: "JFK",
          Legs: [
            { CarrierCode: "LH", FlightNumber: "400", Date: "2026-03-14", Origin: "FRA", Destination: "JFK" },
          ],
        },
      ],
    };
    const text = JSON.stringify(body, null, 2);
    const reports = parseJsonEvents(body, text);
    expect(reports.map((r) => r.sourceAt.report)).toEqual([
      { line: 3, path: "Messages[0]" },
      { line: 12, path: "Messages[1]" },
    ]);
    const leg = reports[1]?.kind === "booking" ? reports[1].legs[0]?.at : undefined;
    expect(leg).toEqual({ line: 19, path: "Messages[1].Legs[0]" });
    expect(reports[0]?.sourceAt.time).toEqual({ line: 10, path: "Messages[0].Time" });

    const broken = text.replace('"FlightNumber": "400"', '"FlightNumber": 400');
    const error = parseError(() => parseJsonEvents(JSON.parse(broken), broken));
    expect(error.line).toBe(21);
  });
});

describe("the refused fixtures", () => {
  it("refuses the XFSU in the year 0001 naming its status element", () => {
    const error = parseError(() =>
      parseCarrierMessage("application/xml", fixture("xfsu", "xfsu-rcs-year-0001.xml"), RECEIVED),
    );
    expect([error.line, error.path, error.found]).toEqual([
      29,
      "MasterConsignment/ReportedStatus[1]",
      "0001-03-14T09:10",
    ]);
  });

  it("refuses the JSON weight 1e999 and the member nested 20,000 deep, naming them", () => {
    const weight = parseError(() =>
      parseCarrierMessage("application/json", fixture("json-events", "rcs-weight-non-finite.json"), RECEIVED),
    ) as JsonEventValidationError;
    expect([weight.line, weight.errors]).toEqual([11, [{ field: "Weight", message: "a finite weight" }]]);
    const deep = parseError(() =>
      parseCarrierMessage(
        "application/json",
        fixture("json-events", "rcs-extra-member-nested-deep.json"),
        RECEIVED,
      ),
    ) as JsonEventValidationError;
    expect(deep.line).toBe(9);
    expect(deep.errors[0]?.field).toBe("Trace");
  });
});

describe("messages per body (point 17)", () => {
  const fsu = "FSU/14\n020-12345675FRAJFK/T1\nRCS/14MAR0900/FRA/T1\n";

  it(`accepts ${MAX_MESSAGES_PER_BODY} messages and refuses one more, naming its line`, () => {
    expect(parseCarrierMessage("text/plain", fsu.repeat(100), RECEIVED)).toHaveLength(100);
    const error = parseError(() => parseCarrierMessage("text/plain", fsu.repeat(101), RECEIVED));
    expect(error.line).toBe(303);
    expect(error.expected).toMatch(/at most 100 messages in one request body/);
    expect(error.found).toBe("101 messages");
  });

  it("counts status lines, not identifier lines: one FSU with 101 statuses is over the cap", () => {
    const lines = Array.from({ length: 101 }, () => "RCS/14MAR0900/FRA/T1").join("\n");
    const error = parseError(() =>
      parseCarrierMessage("text/plain", `FSU/14\n020-12345675FRAJFK/T1\n${lines}\n`, RECEIVED),
    );
    expect(error.line).toBe(103);
  });
});
