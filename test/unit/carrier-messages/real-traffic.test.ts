/**
 * Cargo-IMP as carriers send it (the forms the real corpus in test/fixtures/real showed, and what the
 * Cargo-IMP manual's layouts allow): envelopes (EDIFACT, Type-B priority and origin lines, CR line
 * ends), every day change indicator, flight designators, positional time slots, status lines without
 * a time, FSA forms, FWB parties and agents, FFM, FBL and FHL, and the message each report names.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCargoImp } from "../../../functions/core/carrier-messages/cargo-imp/index.ts";
import { splitFlightDesignator } from "../../../functions/core/carrier-messages/common.ts";
import type { CarrierReport } from "../../../functions/core/carrier-messages/types.ts";
import { MessageParseError } from "../../../functions/core/errors.ts";
import {
  receiptOf,
  renderProvenance,
  storedProvenance,
} from "../../../functions/core/route-map/provenance.ts";
import { at, awb, qty, unlocated } from "./helpers.ts";

const FSU = "FSU/15\n020-12345675FRAJFK/T10K250.0\n";

function refusal(body: string): MessageParseError {
  try {
    parseCargoImp(body);
  } catch (error) {
    if (error instanceof MessageParseError) return error;
    throw error;
  }
  throw new Error("not refused");
}

const only = (body: string): CarrierReport => {
  const reports = parseCargoImp(body);
  expect(reports).toHaveLength(1);
  return reports[0] as CarrierReport;
};

describe("envelopes and line ends", () => {
  it("an EDIFACT interchange around the Cargo-IMP text: the UNH reference names the message", () => {
    const body = [
      "UNB+IATA:1+REUAIR08DLH:ZZ+REUAGT82SHNK:ZZ+260314:1342+000004711'",
      "UNH+FSU0815+CIMFSU:15:0:IA'",
      "FSU/15",
      "020-12345675FRAJFK/T10K250.0",
      "DEP/LH400/14MAR/FRAJFK/T10K250.0/A1341",
      "UNT+5+FSU0815'",
      "UNZ+1+000004711'",
    ].join("\r\n");
    const report = only(body);
    expect(report).toMatchObject({
      status: "DEP",
      time: at(3, 14, 13, 41),
      sourceAt: { report: { line: 5 } },
    });
    expect(report.message).toEqual({ type: "FSU", version: "15", id: "FSU0815" });
  });

  it("several EDIFACT segments on one line, longer than a Type-B line, are envelope too", () => {
    const body = `UNB+IATA:1+${"A".repeat(40)}:ZZ+${"B".repeat(30)}:ZZ+260314:1342+1'UNH+77+CIMFSU:15:0:IA'\n${FSU}RCS/14MAR0910/FRA/T10\nUNT+4+77'UNZ+1+1'\n`;
    expect(only(body).message.id).toBe("77");
  });

  it("an interchange that runs its segments into the text: UNB'UNH'FSU/12 on one line, the text closed by ' before UNT", () => {
    // EDIFACT needs no line break between segments (each ends with '), as community systems send it.
    const body =
      "UNB+IATA:1+REUAIR08DLH:PIMA+REUAGT82SHNK/FRA01:PIMA+260314:1342+ICREF+0'UNH+MSGREF+CIMFSU:12'FSU/12\r\n" +
      "020-12345675FRAJFK/T10K250.0\r\nRCF/LH400/14MAR1610/JFK/T10K250.0\r\n'UNT+3+MSGREF'UNZ+1+ICREF'";
    const report = only(body);
    expect(report).toMatchObject({ status: "RCF", station: "JFK", time: at(3, 14, 16, 10) });
    expect(report.message).toEqual({ type: "FSU", version: "12", id: "MSGREF" });
    // Only right after a segment terminator: an identifier glued to a segment's data is no message.
    expect(refusal("UNB+IATA:1+A+B+260314:1342+1FSU/12\n020-12345675FRAJFK/T10\n").line).toBe(2);
  });

  it("Type-B priority lines QK and QU, an origin line with the message identity, ZCZC and NNNN", () => {
    const body = `ZCZC\nQK HDQFMLH FRAFMLHX\n.HDQRMXH 141342/REF0042\n${FSU}RCS/14MAR0910/FRA/T10\nNNNN\nQU FRAFMLH\n${FSU}NFD/15MAR0800/JFK/T10\n`;
    const reports = parseCargoImp(body);
    expect(reports.map((r) => r.message)).toEqual([
      { type: "FSU", version: "15", id: "HDQRMXH 141342/REF0042" },
      // A new envelope without an origin line: no reference.
      { type: "FSU", version: "15", id: null },
    ]);
  });

  it("lines ending in CR alone read like LF and CRLF, line numbers kept", () => {
    const lf = `${FSU}RCS/14MAR0910/FRA/T10\nARR/LH400/14MAR1610/JFK/T10\n`;
    const cr = lf.replaceAll("\n", "\r");
    const mixed = `FSU/15\r\n020-12345675FRAJFK/T10K250.0\rRCS/14MAR0910/FRA/T10\nARR/LH400/14MAR1610/JFK/T10\r`;
    expect(parseCargoImp(cr)).toEqual(parseCargoImp(lf));
    expect(parseCargoImp(mixed)).toEqual(parseCargoImp(lf));
    expect(refusal(`${FSU}RCS/14MAR2500/FRA`.replaceAll("\n", "\r")).line).toBe(3);
  });

  it("a line of dots is no origin line: inside an FWB it is skipped with a note naming it", () => {
    const report = only(`FWB/17\n020-12345675BRULAX/T6K120.0\n...\nSPH/NSC\n`);
    expect(report).toMatchObject({ kind: "awb-data", origin: "BRU", destination: "LAX" });
    expect(report.message.skipped).toEqual(["line 3: an elision mark (...), no FWB content"]);
  });
});

describe("flight designators and day change indicators", () => {
  it.each([
    ["LH400", "LH", "400"],
    ["KZ0254", "KZ", "0254"],
    ["RU7771B", "RU", "7771B"],
    ["DNT212", "DNT", "212"],
    ["N4201", "N4", "201"],
    ["P35070", "P3", "5070"],
    ["9W1", "9W", "1"],
  ])("%s is airline %s, flight %s", (value, carrierCode, flightNumber) => {
    expect(splitFlightDesignator(value)).toEqual({ carrierCode, flightNumber });
  });

  it.each(["LH", "LH40012", "12345", "L400X1", "ABCD12"])("%s is no flight designator", (value) => {
    expect(splitFlightDesignator(value)).toBeNull();
  });

  it("P, N, S and T (and A to L) move a time by -1, +1, +2, +3 (+4 to +15) days", () => {
    const body = `${FSU}DEP/LH400/14MAR/FRAJFK/T10/A0015-N/A0800-T\nARR//28MAY2050-P/JFK/T1\nRCF/LH400/03MAY0015-S/JFK/T10\nAWD/05MAY1926-L/JFK/T1\n`;
    expect(parseCargoImp(body).map((r) => (r.kind === "status" ? r.time : null))).toEqual([
      at(3, 14, 0, 15, 1),
      at(5, 28, 20, 50, -1),
      at(5, 3, 0, 15, 2),
      at(5, 5, 19, 26, 15),
    ]);
    expect(refusal(`${FSU}RCS/14MAR0910-X/FRA/T10\n`)).toMatchObject({
      line: 3,
      expected: expect.stringContaining("day change"),
    });
  });
});

describe("day change indicators, property", () => {
  const LETTERS = "PNSTABCDEFGHIJKL";
  const DAYS = [-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
  const pad = (n: number) => String(n).padStart(2, "0");

  it("every indicator on a DEP's actual time and on an ARR's date field moves the time by its days", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (i, hour, minute) => {
          const mark = LETTERS[i] as string;
          const hhmm = `${pad(hour)}${pad(minute)}`;
          const [dep, arr] = parseCargoImp(
            `${FSU}DEP/LH400/14MAR/FRAJFK/T10/A${hhmm}-${mark}
ARR/LH400/14MAR${hhmm}-${mark}/JFK/T10
`,
          );
          const expected = at(3, 14, hour, minute, DAYS[i]);
          expect(dep).toMatchObject({ time: expected });
          expect(arr).toMatchObject({ time: expected });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("status lines as the FSA layout gives them", () => {
  it("a DEP without a time (bulk, or in a ULD) is reported with time null, at receipt", () => {
    const reports = parseCargoImp(
      "FSA/15\n085-12345675BSLBKK/T20\nDEP/SR172/24MAR/ZRHBKK/P2\nDEP/SR172/24MAR/ZRHBKK/P18\nULD/AVM98676SR\n",
    );
    expect(unlocated(reports)).toMatchObject([
      {
        status: "DEP",
        station: "ZRH",
        time: null,
        quantity: qty(2),
        flight: { flightDay: 24, flightMonth: 3 },
      },
      { status: "DEP", station: "ZRH", time: null, quantity: qty(18) },
    ]);
    expect(reports[0]?.message).toEqual({ type: "FSA", version: "15", id: null });
  });

  it("empty time slots are positional: T2//E0230 is an estimated arrival, no departure time", () => {
    expect(only(`${FSU}DEP/SU2137/30APR/ISTROV/T2//E0230\n`)).toMatchObject({ status: "DEP", time: null });
    expect(only(`${FSU}ARR/SU010/29SEP0933/LED/P4K54//A0933\n`)).toMatchObject({
      status: "ARR",
      time: at(9, 29, 9, 33),
      quantity: qty(4, "K", 54),
    });
  });

  it("ARR and RCF give the status's own time from the date field; an empty flight names none", () => {
    expect(only(`${FSU}RCF/SU270/04NOV2002/BKK/T4K29.0//A2000\n`)).toMatchObject({
      time: at(11, 4, 20, 2),
      flight: { carrierCode: "SU", flightNumber: "270" },
    });
    expect(only(`${FSU}ARR//28MAY2050-P/PEE/T1/A0000/A2050\n`)).toMatchObject({
      flight: null,
      station: "PEE",
    });
    // DEP must still name its flight, ARR without its empty field is not the layout.
    expect(refusal(`${FSU}DEP//14MAR/FRAJFK/T10/A1341\n`).expected).toContain("flight");
  });

  it("a BKD with volume after the times, with the carrier alone, and a three-letter airline", () => {
    expect(only(`${FSU}BKD/QR8985/21JUN/ICNDOH/P3K524.00/S0310/S0650/MC4.761\n`)).toMatchObject({
      legs: [
        {
          scheduledDeparture: at(6, 21, 3, 10),
          scheduledArrival: at(6, 21, 6, 50),
          quantity: qty(3, "K", 524, 4.761),
        },
      ],
    });
    expect(only(`${FSU}BKD/TX9806/09NOV/BKKSVO/T1460K26274//E0003/MC10.00\n`)).toMatchObject({
      legs: [{ scheduledDeparture: null, scheduledArrival: at(11, 9, 0, 3) }],
    });
    expect(only(`${FSU}BKD/LH/14MAR/FRAJFK/T10\n`)).toMatchObject({
      legs: [{ carrierCode: "LH", flightNumber: "" }],
    });
    expect(only("FSU/12\n901-00001875LAXNEW/T25\nBKD/DNT212/16DEC/LAXNEW/T25K47500/S1000\n")).toMatchObject({
      total: qty(25),
      legs: [{ carrierCode: "DNT", flightNumber: "212", scheduledDeparture: at(12, 16, 10, 0) }],
    });
  });

  it("a BKD with an actual (A) time keeps its leg without that time, with a note: an A group is no schedule", () => {
    const report = only(`${FSU}BKD/SU270/15SEP/SVOBKK/T8K66.0/A0900/E2220\n`);
    expect(report).toMatchObject({
      kind: "booking",
      legs: [
        {
          carrierCode: "SU",
          flightNumber: "270",
          origin: "SVO",
          destination: "BKK",
          scheduledDeparture: null,
          scheduledArrival: at(9, 15, 22, 20),
        },
      ],
    });
    expect(report.message.skipped).toEqual([
      "line 3: actual departure time in a booking (the manual allows S or E), left out",
    ]);
  });

  it("codes beyond the milestones: MAN and PRE at their flight's departure time, FIW at its own", () => {
    const reports = parseCargoImp(
      `${FSU}MAN/SR1207/18AUG/HKGZRH/T20/S1200/S1900\nFIW/QR8403/20JUN1039/DOH/P2K505.0/S0720/A1008\nPRE///CDGHKG/T18/S2000/S0500-N\nTRM/AA/ORD/T13\n`,
    );
    // PRE without a date and TRM without date or time are knowingly skipped.
    expect(unlocated(reports)).toMatchObject([
      {
        code: "MAN",
        station: "HKG",
        time: at(8, 18, 12, 0),
        flight: { carrierCode: "SR", flightNumber: "1207" },
      },
      { code: "FIW", station: "DOH", time: at(6, 20, 10, 39), pieces: 2 },
    ]);
  });

  it("an FSA repeats the consignment line for each part; the AWB alone answers no record found", () => {
    const reports = parseCargoImp(
      "FSA/15\n085-22240002LHRZRH/P20T30\nRCF/SR803/26MAR0700/ZRH/T20\n085-22240002LHRZRH/P10T30\nTFD/BA/25MAR1100/LHR/T10\n",
    );
    expect(unlocated(reports)).toMatchObject([
      { status: "RCF", total: qty(30) },
      { code: "TFD", station: "LHR", flight: { carrierCode: "BA", flightNumber: null } },
    ]);
    expect(reports[1]?.sourceAt.origin.line).toBe(4);
    expect(parseCargoImp("FSA/15\n057-12345675\nOSI/NO RECORD FOUND\n")).toEqual([]);
    // A status needs the route the AWB alone does not give.
    expect(refusal("FSA/15\n057-12345675\nRCS/14MAR0910/FRA/T10\n")).toMatchObject({
      line: 2,
      expected: expect.stringContaining("origin and destination"),
    });
  });

  it("an FSU carries a status or an OCI line (FSU 5.2); an FSA a status or an OSI line", () => {
    expect(
      parseCargoImp(
        "FSU/15\n057-12345675YYZLYS/T12\nOCI/FR/IMP/M/07FR9876AB88901235\n//HWB/I/ABCD12345678\n",
      ),
    ).toEqual([]);
    expect(refusal("FSU/15\n057-12345675YYZLYS/T12\nOSI/NOTE\n").expected).toContain("status line");
    expect(refusal("FSA/15\n057-12345675YYZLYS/T12\nOCI/FR/IMP/M/07FR9876AB88901235\n").expected).toContain(
      "status line",
    );
  });

  it("a status line's volume and density line, and OCI and OSI after it, are read and skipped", () => {
    const reports = parseCargoImp(
      `${FSU}RCS/02JAN1403/FRA/T6K150/UTEGENOV SERIK\n/MC2.96\nOCI/HK/ISS/RA/28490\n/HK//SS/SPX\nOSI/CHECKED\n/SECOND LINE\n`,
    );
    expect(unlocated(reports)).toMatchObject([{ status: "RCS", station: "FRA", quantity: qty(6, "K", 150) }]);
  });

  it("split and divided quantities with their total, three decimals, density groups", () => {
    expect(only(`${FSU}RCS/14MAR0910/FRA/S2K480.5MC0.60T15\n`)).toMatchObject({
      quantity: qty(2, "K", 480.5, 0.6),
    });
    expect(only(`${FSU}RCS/14MAR0910/FRA/T42K119.605\n`)).toMatchObject({ quantity: qty(42, "K", 119.605) });
    expect(only("FWB/17\n555-64264793SVOREN/T114K2380DG6\n")).toMatchObject({ total: qty(114, "K", 2380) });
  });
});

describe("FWB as airlines send it", () => {
  it("party blocks with NAM/ADR/LOC and contact lines, and the older '/' form; agent, flights, routing", () => {
    const report = only(
      [
        "FWB/17",
        "933-34099074BKKORD/T41K509MC4.69",
        "FLT/KZ0254/19/KZ0132/21",
        "RTG/NRTKZ/ORDKZ",
        "SHP",
        "NAM/YUNEXPRESS THAILAND LTD",
        "ADR/UNIT C NO 12 SOI LASALLE 56",
        "LOC/BANGKOK/NA",
        "/TH/10260/TE/6623010279",
        "CNE",
        "/ECOM EXPRESS INC",
        "/850 N EDGEWOOD AVE UNIT B",
        "AGT//3530029/0001/CAG",
        "/HARPERS FREIGHT INTL AIR CARGO CO",
        "NFY",
        "NAM/ECOM EXPRESS INC",
        "ACC/GEN/FREIGHT PREPAID",
        "CVD/THB/PX/PP/NVD/NCV/XXX",
        "RTD/1/P41/K509/CN/W781.5/R350/T273525",
        "/NC/CONSOLIDATED SHIPMEN",
        "/2/ND//CMT40-50-60/37",
        "OTH/P/MAA610CGC50SCC3126",
        "PPD/WT273525/VC0/TX0",
        "/OA610/OC42251/CT316386",
        "ISU/19JUN26/BKK/KZADMIN",
        "REF/TYOFMKZ",
        "COR/T1",
        "SPH/GEN",
        "OCI/US/SHP/T/0105564148044",
      ].join("\n"),
    );
    expect(unlocated([report])).toMatchObject([
      {
        kind: "awb-data",
        total: qty(41, "K", 509, 4.69),
        agent: { code: "3530029", cass: "0001" },
        legs: [
          { carrierCode: "KZ", flightNumber: "0254", flightDay: 19, origin: "BKK", destination: "NRT" },
          { carrierCode: "KZ", flightNumber: "0132", flightDay: 21, origin: "NRT", destination: "ORD" },
        ],
      },
    ]);
    expect(report.message).toEqual({ type: "FWB", version: "17", id: null });
  });

  it("NAM/ADR/LOC outside a party, an unknown segment and free text without its '/' are skipped with a note", () => {
    expect(only("FWB/17\n020-12345675FRAJFK/T1K10\nNAM/ACME\nXYZ/ABC\n").message.skipped).toEqual([
      "line 3: segment NAM, which the FWB does not have",
      "line 4: segment XYZ, which the FWB does not have",
    ]);
    // The free text keeps the segment it continues: the party's NAM/ADR lines after it stay the party's.
    const report = only(
      [
        "FWB/17",
        "777-12345675RIONRT/T1K48.0",
        "SHP",
        "NAM/AIRPORT PET SHOP",
        "DECLARATION \u2013 1 PACKAGE",
        "ADR/AEROPORTO SANTOS DUMONT",
        "AGT//5710375/0001",
        "SSR/SHIPPERS CERTIFICATION FOR LIVE ANIMALS",
        "ATTACHED",
        "/DO NOT FEED BUT FRESH WATER TO BE PROVIDED",
        "",
      ].join("\n"),
    );
    expect(report).toMatchObject({ kind: "awb-data", agent: { code: "5710375", cass: "0001" } });
    expect(report.message.skipped).toEqual([
      "line 5: free text without its leading / (a continuation of the segment before)",
      "line 9: free text without its leading / (a continuation of the segment before)",
    ]);
  });

  it("what the route map needs stays strict: a malformed FLT, RTG or AGT line is still refused", () => {
    expect(refusal("FWB/17\n020-12345675FRAJFK/T1K10\nFLT/LH400/1A\n").line).toBe(3);
    expect(refusal("FWB/17\n020-12345675FRAJFK/T1K10\nRTG/JF\n").line).toBe(3);
    expect(refusal("FWB/17\n020-12345675FRAJFK/T1K10\nAGT//12345/0001\n").line).toBe(3);
  });

  it("a routing point without its carrier is read with a note: the legs take their carriers from FLT", () => {
    const report = only("FWB/17\n555-64264793SVOREN/T1K10\nFLT/SU1244/01/SU1008/01\nRTG/AMSSU/LGG\n");
    expect(report).toMatchObject({
      legs: [
        { carrierCode: "SU", flightNumber: "1244", origin: "SVO", destination: "AMS" },
        { carrierCode: "SU", flightNumber: "1008", origin: "AMS", destination: "LGG" },
      ],
    });
    expect(report.message.skipped).toEqual(["line 4: routing point LGG without its carrier"]);
  });

  it("the notes travel with the message into its provenance (stored, and in the history's SkippedLines)", () => {
    const body = "FWB/17\n020-12345675FRAJFK/T1K10\nSSR/LIVE ANIMALS\nATTACHED\n";
    const receipt = receiptOf("api", "020", "2026-03-14T12:00:00Z", body);
    const stored = storedProvenance(only(body), receipt);
    expect(stored.s).toEqual([
      "line 4: free text without its leading / (a continuation of the segment before)",
    ]);
    expect(renderProvenance(stored, "020", "FRA").SkippedLines).toEqual(stored.s);
    // A message read in full says nothing of skipped lines.
    const full = storedProvenance(only("FWB/17\n020-12345675FRAJFK/T1K10\n"), receipt);
    expect(full.s).toBeUndefined();
    expect(renderProvenance(full, "020", "FRA").SkippedLines).toEqual([]);
  });

  it("at most five notes per message: the last one counts the lines beyond", () => {
    const lines = Array.from({ length: 8 }, (_, i) => `FREE TEXT ${i}`);
    const report = only(["FWB/17", "020-12345675FRAJFK/T1K10", ...lines, ""].join("\n"));
    expect(report.message.skipped).toHaveLength(5);
    expect(report.message.skipped?.[3]).toMatch(/^line 6: free text/);
    expect(report.message.skipped?.[4]).toBe("and 4 more lines skipped");
  });

  it("an AGT line with an account alone names no IATA agent; with neither it is refused", () => {
    expect(only("FWB/16\n020-12345675FRAJFK/T1K10\nAGT/ACC123\n/ACME\n")).toMatchObject({ agent: null });
    expect(refusal("FWB/16\n020-12345675FRAJFK/T1K10\nAGT//\n").line).toBe(3);
  });
});

const FFM = [
  "FFM/8",
  "5/KZ7134/09APR2215/NRT/N407KZ",
  "ORD//09APR2240",
  "ULD/PMC97589KZ",
  "933-20298670NRTORD/S2K480.5MC0.60T15/CONSOLIDATION A",
  "/EAW/SPX/BSA/GEN",
  "OSI/.",
  "OCI///ST/YAMATO TRANSPORT CO. LTD. HAS",
  "/US/CUS/IA/10.244.75.157",
  "ULD/PMC99432KZ/W-4496.0 C-SH",
  "933-20298670NRTORD/S12K1710.2MC3.26T15/CONSOLIDATION A",
  "205-33450222PEKORD/T145K2280MC12.31/CONSOLIDATION",
  "DIM/K25.5/CMT69-68-70/1",
  "/YYZKL667/19MAR",
  "LAST",
].join("\n");

describe("flight lists: FFM and FBL", () => {
  it("an FFM books every AWB on the manifested leg, pieces of its split lines added, and keeps MAN", () => {
    const reports = parseCargoImp(FFM);
    expect(unlocated(reports)).toEqual([
      {
        kind: "booking",
        source: "FFM",
        awb: awb("20298670", "933"),
        origin: "NRT",
        destination: "ORD",
        total: qty(15),
        wholeItinerary: false,
        legs: [
          {
            carrierCode: "KZ",
            flightNumber: "7134",
            flightDay: 9,
            flightMonth: 4,
            origin: "NRT",
            destination: "ORD",
            scheduledDeparture: at(4, 9, 22, 15),
            scheduledArrival: at(4, 9, 22, 40),
            roadFeeder: null,
            quantity: qty(14, "K", 2190.7),
          },
        ],
      },
      {
        kind: "other-status",
        source: "FFM/MAN",
        code: "MAN",
        awb: awb("20298670", "933"),
        origin: "NRT",
        destination: "ORD",
        total: qty(15),
        station: "NRT",
        time: at(4, 9, 22, 15),
        flight: { carrierCode: "KZ", flightNumber: "7134" },
        pieces: 14,
      },
      expect.objectContaining({
        kind: "booking",
        awb: awb("33450222", "205"),
        origin: "PEK",
        total: qty(145, "K", 2280, 12.31),
      }),
      expect.objectContaining({ kind: "other-status", awb: awb("33450222", "205"), time: at(4, 9, 22, 15) }),
    ]);
    expect(reports[0]?.message).toEqual({ type: "FFM", version: "8", id: null });
    expect(reports[0]?.sourceAt.report.line).toBe(5);
  });

  it("a NIL point of unloading, several points, a header without time: MAN then at receipt (null)", () => {
    expect(parseCargoImp("FFM/8\n1/KL2084/18MAR/AMS\nLHR/NIL\nLAST\n")).toEqual([]);
    const reports = parseCargoImp(
      "FFM/8\n1/CV1234/01APR/LUX\nDXB\n172-00122474CDGDXB/T4K800MC4.8/CLOTHING\nHKG\n172-00123034LHRHKG/T10K400MC1.2/GARMENTS\nLAST",
    );
    expect(unlocated(reports)).toMatchObject([
      { kind: "booking", legs: [{ origin: "LUX", destination: "DXB", scheduledDeparture: null }] },
      { kind: "other-status", code: "MAN", station: "LUX", time: null },
      { kind: "booking", legs: [{ origin: "LUX", destination: "HKG" }] },
      { kind: "other-status", code: "MAN", station: "LUX", time: null },
    ]);
  });

  it("an AWB line with a wrong check digit refuses the whole manifest, naming its line", () => {
    expect(refusal(FFM.replace("933-20298670NRTORD/S12K", "933-20298671NRTORD/S12K"))).toMatchObject({
      line: 11,
      expected: "AWB serial with check digit 0",
    });
  });

  it("consignments before a point of unloading, and anything after LAST, are refused", () => {
    expect(refusal("FFM/8\n1/KL2084/18MAR/AMS\n074-71421280ZRHLIS/T20K54\n").line).toBe(3);
    expect(refusal("FFM/8\n1/KL2084/18MAR/AMS\nLHR/NIL\nLAST\nLHR/NIL\n").line).toBe(5);
  });

  it("an FBL books each AWB (a line may give the destination alone), without MAN", () => {
    const reports = parseCargoImp(
      "FBL/4\n1/KL791/19MAR/ZRH\nLIS\n074-71421280ZRHLIS/T20K54MC0.08/WATCHES\n057-12345675IAH/T1K120MC0.3/NEWSPAPERS\n/VAL\n//SR917/07FEB/AMS/L\nLAST\n",
    );
    expect(unlocated(reports)).toMatchObject([
      { kind: "booking", source: "FBL", origin: "ZRH", destination: "LIS", legs: [{ flightNumber: "791" }] },
      { kind: "booking", source: "FBL", awb: awb("12345675", "057"), origin: "ZRH", destination: "IAH" },
    ]);
  });
});

describe("FHL: checked, and knowingly placing nothing", () => {
  it("reads MBI, HBS with its special handling, TXT, HTS, OCI and the parties", () => {
    const body = [
      "FHL/5",
      "MBI/157-69081003AMSYUL/T1K610",
      "HBS/SAMSA0009420/AMSYUL/1/K610.0//GROUND FLIGHT T",
      "/SPX/EAW",
      "TXT/GROUND FLIGHT TRAINING EQUIPMENT",
      "/9 DIMS 260X140X195 CM X 1",
      "HTS/880529",
      "OCI/NL/EXP/M/26NL4O34OG29FTZDA3",
      "SHP",
      "NAM/SIMZATION BV",
      "ADR/DE WURFT 6B",
      "LOC/WAARLAND/NH",
      "/NL/1738DX",
      "CNE/ECOM EXP INC",
      "/850 N EDGEWOOD AVE UNIT B",
      "CVD/EUR/CC/NVD/NCV/XXX",
    ].join("\r\n");
    expect(parseCargoImp(body)).toEqual([]);
  });

  it("a master with a wrong check digit, a house without its route or pieces: 400 naming the line", () => {
    expect(refusal("FHL/5\nMBI/157-69081004AMSYUL/T1K610\nHBS/H1/AMSYUL/1/K610//X\n").line).toBe(2);
    expect(refusal("FHL/5\nMBI/157-69081003AMSYUL/T1K610\nHBS/H1/AMS/1/K610//X\n").line).toBe(3);
    expect(refusal("FHL/5\nMBI/157-69081003AMSYUL/T1K610\nHBS/H1/AMSYUL/ONE/K610//X\n").line).toBe(3);
    expect(refusal("FHL/5\nMBI/157-69081003AMSYUL/T1K610\n").expected).toContain("house line");
  });
});
