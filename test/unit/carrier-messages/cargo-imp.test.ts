import { describe, expect, it } from "vitest";
import { parseCargoImp } from "../../../functions/core/carrier-messages/cargo-imp/index.ts";
import type { FlightLeg } from "../../../functions/core/carrier-messages/types.ts";
import { MessageParseError } from "../../../functions/core/errors.ts";
import { at, awb, fixture, qty, unlocated } from "./helpers.ts";

const parse = (name: string) => unlocated(parseCargoImp(fixture("cargo-imp", name)));

const FRA_JFK = { awb: awb("12345675"), origin: "FRA", destination: "JFK", total: qty(10, "K", 250) };

function leg(
  partial: Partial<FlightLeg> & Pick<FlightLeg, "carrierCode" | "flightNumber">,
): Omit<FlightLeg, "at"> {
  return {
    flightDay: 14,
    flightMonth: 3,
    origin: "FRA",
    destination: "JFK",
    scheduledDeparture: null,
    scheduledArrival: null,
    roadFeeder: null,
    quantity: null,
    ...partial,
  };
}

const LH400 = { carrierCode: "LH", flightNumber: "400", flightDay: 14, flightMonth: 3 };

describe("parseCargoImp: FSU fixtures", () => {
  it("single BKD: one leg, not the whole itinerary, S groups as departure and arrival", () => {
    expect(parse("fsu-bkd-single.txt")).toEqual([
      {
        ...FRA_JFK,
        kind: "booking",
        source: "FSU/BKD",
        wholeItinerary: false,
        legs: [
          leg({
            carrierCode: "LH",
            flightNumber: "400",
            scheduledDeparture: at(3, 14, 13, 25),
            scheduledArrival: at(3, 14, 15, 55),
            quantity: qty(10, "K", 250),
          }),
        ],
      },
    ]);
  });

  it("multi-line BKD is one booking with the whole itinerary, volume MC converted to CM", () => {
    expect(parse("fsu-bkd-multi-leg.txt")).toEqual([
      {
        awb: awb("76543213"),
        origin: "MUC",
        destination: "ORD",
        total: qty(4, "K", 80.5, 0.6),
        kind: "booking",
        source: "FSU/BKD",
        wholeItinerary: true,
        legs: [
          leg({
            carrierCode: "LH",
            flightNumber: "2001",
            flightDay: 2,
            flightMonth: 4,
            origin: "MUC",
            destination: "FRA",
            scheduledDeparture: at(4, 2, 7, 0),
            scheduledArrival: at(4, 2, 8, 5),
            quantity: qty(4, "K", 80.5),
          }),
          leg({
            carrierCode: "LH",
            flightNumber: "430",
            flightDay: 2,
            flightMonth: 4,
            origin: "FRA",
            destination: "ORD",
            scheduledDeparture: at(4, 2, 10, 10),
            scheduledArrival: at(4, 2, 12, 45),
            quantity: qty(4, "K", 80.5),
          }),
        ],
      },
    ]);
  });

  it("day-change suffixes: -N is +1, -P is -1", () => {
    const [next] = parse("fsu-bkd-day-change.txt");
    expect(next).toMatchObject({
      kind: "booking",
      legs: [{ scheduledDeparture: at(6, 20, 22, 5, 0), scheduledArrival: at(6, 20, 16, 10, 1) }],
    });
    const [previous] = parse("fsu-bkd-previous-day.txt");
    expect(previous).toMatchObject({
      kind: "booking",
      legs: [
        {
          flightDay: 1,
          flightMonth: 1,
          scheduledDeparture: at(1, 1, 0, 30, -1),
          scheduledArrival: at(1, 1, 8, 30),
        },
      ],
    });
  });

  it("BKD with an estimated time only, and BKD without time groups", () => {
    expect(parse("fsu-bkd-estimated.txt")).toMatchObject([
      { legs: [{ scheduledDeparture: at(3, 14, 13, 40), scheduledArrival: null, quantity: null }] },
    ]);
    expect(parse("fsu-bkd-no-times.txt")).toMatchObject([
      { legs: [{ scheduledDeparture: null, scheduledArrival: null, quantity: qty(10, "K", 250) }] },
    ]);
  });

  it("RCS", () => {
    expect(parse("fsu-rcs.txt")).toEqual([
      {
        ...FRA_JFK,
        kind: "status",
        status: "RCS",
        source: "FSU/RCS",
        station: "FRA",
        time: at(3, 14, 9, 10),
        flight: null,
        quantity: qty(10, "K", 250),
        deliveredTo: null,
      },
    ]);
  });

  it("DEP with an A time group", () => {
    expect(parse("fsu-dep.txt")).toEqual([
      {
        ...FRA_JFK,
        kind: "status",
        status: "DEP",
        source: "FSU/DEP",
        station: "FRA",
        time: at(3, 14, 13, 41),
        flight: LH400,
        quantity: qty(10, "K", 250),
        deliveredTo: null,
      },
    ]);
  });

  it("DEP with the time in the date field (14MAR1341)", () => {
    expect(parse("fsu-dep-time-in-date.txt")).toMatchObject([
      { status: "DEP", station: "FRA", time: at(3, 14, 13, 41), flight: LH400, quantity: qty(10) },
    ]);
  });

  it("DEP after midnight: A0015-N", () => {
    expect(parse("fsu-dep-next-day.txt")).toMatchObject([
      {
        status: "DEP",
        time: at(6, 20, 0, 15, 1),
        flight: { carrierCode: "LH", flightNumber: "778", flightDay: 20, flightMonth: 6 },
      },
    ]);
  });

  it("ARR and RCF at the arrival station", () => {
    expect(parse("fsu-arr.txt")).toMatchObject([
      {
        status: "ARR",
        source: "FSU/ARR",
        station: "JFK",
        time: at(3, 14, 16, 10),
        flight: LH400,
        quantity: qty(10),
      },
    ]);
    expect(parse("fsu-rcf.txt")).toMatchObject([
      {
        status: "RCF",
        source: "FSU/RCF",
        station: "JFK",
        time: at(3, 14, 20, 5),
        flight: LH400,
        quantity: qty(10),
      },
    ]);
  });

  it("NFD, AWD and DLV (with the consignee who took delivery)", () => {
    expect(parse("fsu-nfd.txt")).toMatchObject([
      { status: "NFD", station: "JFK", time: at(3, 15, 8, 0), flight: null },
    ]);
    expect(parse("fsu-awd.txt")).toMatchObject([{ status: "AWD", station: "JFK", time: at(3, 15, 9, 30) }]);
    expect(parse("fsu-dlv.txt")).toMatchObject([
      {
        status: "DLV",
        station: "JFK",
        time: at(3, 16, 11, 0),
        deliveredTo: "ACMELOGISTICS",
        quantity: qty(10),
      },
    ]);
  });

  it("CAN is a cancellation with time and station", () => {
    expect(parse("fsu-can.txt")).toEqual([
      { ...FRA_JFK, kind: "cancellation", source: "FSU/CAN", time: at(3, 14, 12, 0), station: "FRA" },
    ]);
  });

  it("weights in pounds keep code L", () => {
    expect(parse("fsu-pounds.txt")).toMatchObject([
      { awb: awb("44444444"), total: qty(3, "L", 551.2), quantity: qty(3, "L", 551.2), station: "ORD" },
    ]);
  });

  it("part shipments: each DEP reports its own pieces", () => {
    expect(parse("fsu-part-shipment.txt")).toMatchObject([
      { status: "DEP", quantity: qty(4, "K", 100), flight: LH400, time: at(3, 14, 13, 41) },
      {
        status: "DEP",
        quantity: qty(6, "K", 150),
        flight: { carrierCode: "LH", flightNumber: "402", flightDay: 15, flightMonth: 3 },
        time: at(3, 15, 10, 12),
      },
    ]);
  });

  it("a part-shipment consignment line gives only the total pieces", () => {
    expect(parse("fsu-consignment-part-total.txt")).toMatchObject([
      {
        awb: awb("11111111"),
        origin: "CDG",
        total: qty(10),
        quantity: qty(5, "K", 100),
        flight: { carrierCode: "AF", flightNumber: "006", flightDay: 7, flightMonth: 7 },
      },
    ]);
  });

  it("keeps standard codes beyond the milestones as other statuses, skips OSI lines and timeless ones", () => {
    // MAN names a date but no time: skipped as before.
    expect(parse("fsu-untracked-codes.txt")).toMatchObject([
      { kind: "other-status", code: "FOH", station: "FRA", time: at(3, 14, 8, 30), pieces: 10, flight: null },
      { status: "DEP", time: at(3, 14, 13, 41) },
    ]);
  });

  it("several statuses in one FSU come out in order", () => {
    expect(parse("fsu-multi-status.txt").map((r) => r.source)).toEqual(["FSU/ARR", "FSU/RCF", "FSU/NFD"]);
  });
});

describe("parseCargoImp: envelopes and layout", () => {
  it("Type-B address and origin lines are skipped", () => {
    expect(parse("fsu-envelope.txt")).toEqual(parse("fsu-dep.txt"));
  });

  it("SITA =HEADER blocks are skipped up to =TEXT", () => {
    expect(parse("fsu-sita-header.txt")).toEqual(parse("fsu-arr.txt"));
  });

  it("CRLF, trailing spaces and blank lines are tolerated", () => {
    expect(parse("fsu-crlf.txt")).toEqual(parse("fsu-rcs.txt"));
    expect(parse("fsu-trailing-spaces-blank-lines.txt")).toEqual(parse("fsu-nfd.txt"));
  });

  it("several messages with envelopes in one body", () => {
    const reports = parse("multi-message-body.txt");
    expect(reports.map((r) => r.source)).toEqual(["FSU/BKD", "FSU/DEP", "FSU/RCS"]);
    expect(reports[0]).toEqual(parse("fsu-bkd-single.txt")[0]);
    expect(reports[1]).toEqual(parse("fsu-dep.txt")[0]);
    expect(reports[2]).toMatchObject({ awb: awb("76543213"), station: "MUC", time: at(4, 1, 17, 0) });
  });
});

describe("parseCargoImp: FWB", () => {
  it("full FWB: AGT code and CASS, FLT with RTG, volume, tolerated SHP/CNE/RTD blocks", () => {
    expect(parse("fwb-full.txt")).toEqual([
      {
        awb: awb("12345675"),
        origin: "FRA",
        destination: "JFK",
        total: qty(10, "K", 250, 1.5),
        kind: "awb-data",
        source: "FWB",
        agent: { code: "1234567", cass: "0001" },
        productCode: null,
        legs: [leg({ carrierCode: "LH", flightNumber: "400", flightDay: 14, flightMonth: 0 })],
      },
    ]);
  });

  it("two flights follow the RTG points; AGT with account number and participant id", () => {
    expect(parse("fwb-multi-flight.txt")).toMatchObject([
      {
        awb: awb("76543213"),
        agent: { code: "7654321", cass: "0042" },
        legs: [
          {
            carrierCode: "LH",
            flightNumber: "2001",
            flightDay: 2,
            flightMonth: 0,
            origin: "MUC",
            destination: "FRA",
          },
          {
            carrierCode: "LH",
            flightNumber: "430",
            flightDay: 2,
            flightMonth: 0,
            origin: "FRA",
            destination: "ORD",
          },
        ],
      },
    ]);
  });

  it("without AGT and FLT: no agent, no legs", () => {
    expect(parse("fwb-no-agt-no-flt.txt")).toMatchObject([
      { awb: awb("55500012"), agent: null, legs: [], total: qty(2, "K", 40) },
    ]);
  });

  it("FLT with a month and no RTG, weight in pounds", () => {
    expect(parse("fwb-flt-month-pounds.txt")).toMatchObject([
      {
        total: qty(3, "L", 551.2),
        agent: { code: "4444444", cass: "1234" },
        legs: [
          {
            carrierCode: "LH",
            flightNumber: "431",
            flightDay: 3,
            flightMonth: 5,
            origin: "ORD",
            destination: "FRA",
          },
        ],
      },
    ]);
  });

  it("AGT without a CASS address gives no agent", () => {
    expect(parse("fwb-agt-no-cass.txt")).toMatchObject([{ agent: null }]);
  });
});

describe("parseCargoImp: FFR and FFA", () => {
  it("FFR: the whole itinerary, leg quantity = requested quantity", () => {
    expect(parse("ffr-single.txt")).toEqual([
      {
        ...FRA_JFK,
        kind: "booking",
        source: "FFR",
        wholeItinerary: true,
        legs: [leg({ carrierCode: "LH", flightNumber: "400", quantity: qty(10, "K", 250) })],
      },
    ]);
  });

  it("FFR with SPH line, two flights with time groups and trailing segments", () => {
    expect(parse("ffr-multi-with-times.txt")).toMatchObject([
      {
        total: qty(4, "K", 80.5, 0.6),
        wholeItinerary: true,
        legs: [
          { flightNumber: "2001", origin: "MUC", destination: "FRA", scheduledDeparture: at(4, 2, 7, 0) },
          { flightNumber: "430", origin: "FRA", destination: "ORD", scheduledArrival: at(4, 2, 12, 45) },
        ],
      },
    ]);
  });

  it("FFR with every flight XX is a cancellation; XX plus NN replaces the flight", () => {
    expect(parse("ffr-cancel.txt")).toEqual([
      { ...FRA_JFK, kind: "cancellation", source: "FFR", time: null, station: null },
    ]);
    expect(parse("ffr-replace.txt")).toMatchObject([
      { kind: "booking", legs: [{ flightNumber: "402", flightDay: 15 }] },
    ]);
  });

  it("FFA: confirmed flights kept, refused ones dropped, all refused gives nothing", () => {
    expect(parse("ffa-confirm.txt")).toMatchObject([{ kind: "booking", source: "FFA", legs: [LH400] }]);
    expect(parse("ffa-partial.txt")).toMatchObject([
      {
        total: qty(8),
        legs: [
          {
            carrierCode: "LH",
            flightNumber: "797",
            origin: "HKG",
            destination: "FRA",
            quantity: qty(4, "K", 160),
          },
        ],
      },
    ]);
    expect(parse("ffa-refused.txt")).toEqual([]);
  });
});

const FSU_HEAD = "FSU/13\n020-12345675FRAJFK/T10K250.0\n";

/** [name, body, line, expected text fragment] */
const MALFORMED: [string, string, number, string][] = [
  ["empty body", "", 1, "message identifier"],
  ["blank body", "\n\n  \n", 1, "message identifier"],
  ["garbage", "HELLO WORLD", 1, "message identifier"],
  // FHL is read now; FNA (an error notification) is a Cargo-IMP message a carrier does not report with.
  ["unsupported message type", "FNA/1\n020-12345675FRAJFK/T10K250.0\n", 1, "message identifier"],
  ["version missing", "FSU\n020-12345675FRAJFK/T10\nRCS/14MAR0910/FRA/T10\n", 1, "message identifier"],
  ["version not numeric", "FSU/XX\n020-12345675FRAJFK/T10\nRCS/14MAR0910/FRA\n", 1, "message identifier"],
  ["message id after envelope garbage", "QD HDQFMLH\nNOT A MESSAGE\nFSU/13\n", 2, "message identifier"],
  ["FSU without consignment line", "FSU/13\n", 2, "consignment line"],
  ["FSU without status line", FSU_HEAD, 3, "status line"],
  ["bad AWB prefix", "FSU/13\n20-12345675FRAJFK/T10\nRCS/14MAR0910/FRA\n", 2, "AWB number"],
  ["AWB without hyphen", "FSU/13\n02012345675FRAJFK/T10\nRCS/14MAR0910/FRA\n", 2, "AWB number"],
  ["AWB check digit", "FSU/13\n020-12345670FRAJFK/T10\nRCS/14MAR0910/FRA\n", 2, "check digit 5"],
  [
    "AWB origin not letters",
    "FSU/13\n020-12345675FR1JFK/T10\nRCS/14MAR0910/FRA\n",
    2,
    "origin and destination",
  ],
  ["consignment missing slash", "FSU/13\n020-12345675FRAJFKT10\nRCS/14MAR0910/FRA\n", 2, "consignment line"],
  ["consignment bad quantity", "FSU/13\n020-12345675FRAJFK/X10\nRCS/14MAR0910/FRA\n", 2, "quantity"],
  ["unknown status code", `${FSU_HEAD}XYZ/14MAR0910/FRA\n`, 3, "status line"],
  ["lower-case status", `${FSU_HEAD}dep/LH400/14MAR/FRAJFK/A1341\n`, 3, "status line"],
  ["bad month", `${FSU_HEAD}RCS/14MAX0910/FRA/T10\n`, 3, "month"],
  ["hour 25", `${FSU_HEAD}RCS/14MAR2500/FRA/T10\n`, 3, "hour"],
  ["minute 60", `${FSU_HEAD}RCS/14MAR0960/FRA/T10\n`, 3, "minute"],
  ["day 32", `${FSU_HEAD}RCS/32MAR0910/FRA/T10\n`, 3, "day of month"],
  ["day 30 in February", `${FSU_HEAD}RCS/30FEB0910/FRA/T10\n`, 3, "day of month"],
  ["RCS without time", `${FSU_HEAD}RCS/14MAR/FRA/T10\n`, 3, "date and time"],
  ["station of 4 letters", `${FSU_HEAD}RCS/14MAR0910/FRAX/T10\n`, 3, "airport code"],
  ["station missing", `${FSU_HEAD}NFD/15MAR0800\n`, 3, "airport code"],
  ["DEP missing slash", `${FSU_HEAD}DEP/LH400/14MARFRAJFK/T10/A1341\n`, 3, "date"],
  ["DEP without actual time", `${FSU_HEAD}DEP/LH400/14MAR/FRAJFK/T10/S1325\n`, 3, "actual time"],
  ["DEP bad flight", `${FSU_HEAD}DEP/L400X1/14MAR/FRAJFK/T10/A1341\n`, 3, "flight"],
  ["DEP bad time group", `${FSU_HEAD}DEP/LH400/14MAR/FRAJFK/T10/X1341\n`, 3, "time group"],
  ["DEP time group 24:10", `${FSU_HEAD}DEP/LH400/14MAR/FRAJFK/T10/A2410\n`, 3, "hour"],
  ["bad day-change suffix", `${FSU_HEAD}DEP/LH400/14MAR/FRAJFK/T10/A1341-X\n`, 3, "time group"],
  ["ARR without flight", `${FSU_HEAD}ARR/14MAR1610/JFK/T10\n`, 3, "flight"],
  ["BKD route of 3 letters", `${FSU_HEAD}BKD/LH400/14MAR/FRA/T10/S1325\n`, 3, "departure and arrival"],
  ["BKD with a time past 23:59", `${FSU_HEAD}BKD/LH400/14MAR/FRAJFK/T10/S2575\n`, 3, "hour"],
  [
    "BKD with three time groups",
    `${FSU_HEAD}BKD/LH400/14MAR/FRAJFK/T10/S1325/S1555/S1600\n`,
    3,
    "at most two",
  ],
  ["BKD date with time", `${FSU_HEAD}BKD/LH400/14MAR1325/FRAJFK/T10\n`, 3, "date"],
  ["quantity bad weight code", `${FSU_HEAD}RCS/14MAR0910/FRA/T10X250\n`, 3, "quantity"],
  ["bad quantity on DEP", `${FSU_HEAD}DEP/LH400/14MAR/FRAJFK/T10Q/A1341\n`, 3, "quantity"],
  ["CAN with bad time", `${FSU_HEAD}CAN/14MAR/FRA\n`, 3, "date and time"],
  ["second status line broken", `${FSU_HEAD}RCS/14MAR0910/FRA/T10\nDEP/LH400\n`, 4, "date"],
  ["line longer than 69", `${FSU_HEAD}DLV/16MAR1100/JFK/T10/${"A".repeat(60)}\n`, 3, "at most 69"],
  [
    "error after envelope and blank lines",
    `QD HDQFMLH\n.HDQRMXH 141200\n\n${FSU_HEAD}RCS/14MAR2500/FRA\n`,
    6,
    "hour",
  ],
  [
    "error in the second message",
    `${FSU_HEAD}RCS/14MAR0910/FRA\n\n${FSU_HEAD}NFD/15MAR0800/JF\n`,
    7,
    "airport",
  ],
  [
    "CRLF keeps line numbers",
    "FSU/13\r\n020-12345675FRAJFK/T10\r\n\r\nRCS/14MAR0910/FRA/T10\r\nARR/LH400/99MAR1610/JFK\r\n",
    5,
    "day",
  ],
  ["FWB without quantity", "FWB/16\n020-12345675FRAJFK\n", 2, "quantity"],
  [
    "FWB FLT without a flight designator",
    "FWB/16\n020-12345675FRAJFK/T10K250.0\nFLT/12345/14\n",
    3,
    "flight",
  ],
  ["FWB AGT code of 6 digits", "FWB/16\n020-12345675FRAJFK/T10K250.0\nAGT//123456/0001\n", 3, "7-digit"],
  ["FWB AGT CASS of 3 digits", "FWB/16\n020-12345675FRAJFK/T10K250.0\nAGT//1234567/001\n", 3, "CASS"],
  ["FWB AGT without code", "FWB/16\n020-12345675FRAJFK/T10K250.0\nAGT\n/ACME\n", 3, "agent line"],
  ["FWB FLT without day", "FWB/16\n020-12345675FRAJFK/T10K250.0\nFLT/LH400\n", 3, "flight line"],
  ["FWB FLT bad day", "FWB/16\n020-12345675FRAJFK/T10K250.0\nFLT/LH400/1A\n", 3, "flight day"],
  ["FWB RTG bad point", "FWB/16\n020-12345675FRAJFK/T10K250.0\nRTG/J1KLH\n", 3, "routing point"],
  ["FFR without flight line", "FFR/8\n020-12345675FRAJFK/T10K250.0/PARTS\nREF/FRAFCLH\n", 4, "flight line"],
  [
    "FFR bad space code",
    "FFR/8\n020-12345675FRAJFK/T10K250.0/PARTS\nLH400/14MAR/FRAJFK/ZZ\n",
    3,
    "space allocation",
  ],
  [
    "FFR garbage line",
    "FFR/8\n020-12345675FRAJFK/T10K250.0/PARTS\nLH400/14MAR/FRAJFK/NN\nGARBAGE\n",
    4,
    "flight line",
  ],
  ["FFA bad month", "FFA/4\n020-12345675FRAJFK/T10K250.0\nLH400/14ABC/FRAJFK/KK\n", 3, "month"],
];

describe("parseCargoImp: malformed messages", () => {
  it("has at least 40 malformed variants", () => {
    expect(MALFORMED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(MALFORMED)("%s -> MessageParseError on line %#", (_name, body, line, expected) => {
    let caught: unknown;
    try {
      parseCargoImp(body);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MessageParseError);
    const error = caught as MessageParseError;
    expect({ line: error.line, expected: error.expected }).toEqual({
      line,
      expected: expect.stringContaining(expected),
    });
    expect(error.message).toContain(`line ${line}:`);
  });
});

describe("parseCargoImp: line numbers count blank lines", () => {
  it("a bad consignment line after a blank line is reported on its own line", () => {
    expect(() => parseCargoImp("FSU/13\n\n020-12345670FRAJFK/T10\nRCS/14MAR0910/FRA\n")).toThrowError(
      expect.objectContaining({ line: 3, expected: "AWB serial with check digit 5", found: "020-12345670" }),
    );
  });
});
