import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCargoImp } from "../../../functions/core/carrier-messages/cargo-imp/index.ts";
import { MONTH_ABBREVIATIONS } from "../../../functions/core/carrier-messages/common.ts";
import type {
  AgentRef,
  AwbId,
  CarrierReport,
  FlightLeg,
  Quantity,
  SourceRef,
  StationTime,
  StatusReport,
} from "../../../functions/core/carrier-messages/types.ts";

// Test-only renderers: generated messages -> Cargo-IMP text, and the reports the parser must give
// back for them, including the line each report and leg was read from.

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const letters = fc.string({
  unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
  minLength: 3,
  maxLength: 3,
});
const digits = (length: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: length, maxLength: length });
const awbArb: fc.Arbitrary<AwbId> = fc
  .tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 9_999_999 }))
  .map(([prefix, first7]) => ({ prefix: pad(prefix, 3), serial: `${pad(first7, 7)}${first7 % 7}` }));
const dayMonthArb = fc
  .integer({ min: 1, max: 12 })
  .chain((month) =>
    fc.record({ month: fc.constant(month), day: fc.integer({ min: 1, max: DAYS[month - 1] as number }) }),
  );
const dateArb = fc.record({
  dayMonth: dayMonthArb,
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
});
const quantityArb: fc.Arbitrary<Quantity> = fc
  .record({
    pieces: fc.integer({ min: 1, max: 9999 }),
    weight: fc.option(
      fc.integer({ min: 1, max: 999_999 }).map((w) => w / 10),
      { nil: null },
    ),
    weightCode: fc.constantFrom("K" as const, "L" as const),
    // Cargo-IMP MC (cubic metres) becomes CM with the same amount.
    volume: fc.option(
      fc.integer({ min: 1, max: 9_999_999 }).map((v) => v / 100),
      { nil: null },
    ),
  })
  .map(({ pieces, weight, weightCode, volume }) => ({
    pieces,
    weightCode: weight === null ? null : weightCode,
    weight,
    volumeCode: volume === null ? null : ("CM" as const),
    volume,
  }));
const flightArb = fc.record({
  carrierCode: fc.constantFrom("LH", "AF", "9W", "U2", "BA"),
  flightNumber: fc.integer({ min: 1, max: 9999 }).map(String),
});
/** S or E time group (a booking's schedule), with a day change -N / -P or none. */
const timeGroupArb = fc.record({
  kind: fc.constantFrom("S", "E"),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  dayOffset: fc.constantFrom(-1, 0, 1),
});
type TimeGroup = { kind: string; hour: number; minute: number; dayOffset: number };

function renderQuantity(q: Quantity): string {
  const weight = q.weight === null ? "" : `${q.weightCode}${q.weight}`;
  return `T${q.pieces}${weight}${q.volume === null ? "" : `MC${q.volume}`}`;
}

function renderDayMonth(d: { day: number; month: number }): string {
  return `${pad(d.day)}${MONTH_ABBREVIATIONS[d.month - 1]}`;
}

function renderGroup(g: TimeGroup): string {
  const suffix = g.dayOffset === 1 ? "-N" : g.dayOffset === -1 ? "-P" : "";
  return `/${g.kind}${pad(g.hour)}${pad(g.minute)}${suffix}`;
}

function groupTime(g: TimeGroup | undefined, d: { day: number; month: number }): StationTime | null {
  return g === undefined
    ? null
    : { month: d.month, day: d.day, hour: g.hour, minute: g.minute, dayOffset: g.dayOffset };
}

const lineAt = (line: number): SourceRef => ({ line, path: null });

function consignmentLine(awb: AwbId, origin: string, destination: string, q: Quantity | null): string {
  return `${awb.prefix}-${awb.serial}${origin}${destination}${q === null ? "" : `/${renderQuantity(q)}`}`;
}

/** A message: its lines, and the reports it must parse into when its first line is `start`. */
interface Rendered {
  lines: string[];
  expected(start: number): CarrierReport[];
}

// FSU status lines ------------------------------------------------------------------------------

const statusArb = fc.record({
  status: fc.constantFrom(
    "RCS" as const,
    "DEP" as const,
    "ARR" as const,
    "RCF" as const,
    "NFD" as const,
    "AWD" as const,
    "DLV" as const,
  ),
  station: letters,
  date: dateArb,
  dayOffset: fc.constantFrom(-1, 0, 1),
  flight: flightArb,
  quantity: fc.option(quantityArb, { nil: null }),
  deliveredTo: fc.option(
    fc.string({ unit: fc.constantFrom(..."ACMELOGISTICS "), minLength: 1, maxLength: 20 }),
    { nil: null },
  ),
});
type GeneratedStatus = typeof statusArb extends fc.Arbitrary<infer T> ? T : never;

function renderStatus(g: GeneratedStatus): string {
  const q = g.quantity === null ? "" : `/${renderQuantity(g.quantity)}`;
  const f = `${g.flight.carrierCode}${g.flight.flightNumber}`;
  const date = renderDayMonth(g.date.dayMonth);
  const hhmm = `${pad(g.date.hour)}${pad(g.date.minute)}`;
  switch (g.status) {
    case "DEP": {
      const suffix = g.dayOffset === 1 ? "-N" : g.dayOffset === -1 ? "-P" : "";
      return `DEP/${f}/${date}/${g.station}XXX${q}/A${hhmm}${suffix}`;
    }
    case "ARR":
    case "RCF":
      return `${g.status}/${f}/${date}${hhmm}/${g.station}${q}`;
    default: {
      const name = g.status === "DLV" ? deliveredTo(g) : null;
      return `${g.status}/${date}${hhmm}/${g.station}${q}${name === null ? "" : `/${name}`}`;
    }
  }
}

function deliveredTo(g: GeneratedStatus): string | null {
  return g.deliveredTo !== null && g.deliveredTo.trim() !== "" ? g.deliveredTo.trim() : null;
}

const fsuStatusesArb: fc.Arbitrary<Rendered> = fc
  .record({
    awb: awbArb,
    origin: letters,
    destination: letters,
    total: fc.option(quantityArb, { nil: null }),
    statuses: fc.array(statusArb, { minLength: 1, maxLength: 4 }),
  })
  .map((m) => ({
    lines: [
      "FSU/13",
      consignmentLine(m.awb, m.origin, m.destination, m.total),
      ...m.statuses.map(renderStatus),
    ],
    expected: (start) =>
      m.statuses.map((g, i): StatusReport => {
        const withFlight = g.status === "DEP" || g.status === "ARR" || g.status === "RCF";
        const { day, month } = g.date.dayMonth;
        return {
          awb: m.awb,
          origin: m.origin,
          destination: m.destination,
          total: m.total,
          kind: "status",
          status: g.status,
          station: g.station,
          time: {
            month,
            day,
            hour: g.date.hour,
            minute: g.date.minute,
            dayOffset: g.status === "DEP" ? g.dayOffset : 0,
          },
          flight: withFlight ? { ...g.flight, flightDay: day, flightMonth: month } : null,
          quantity: g.quantity,
          deliveredTo: g.status === "DLV" ? deliveredTo(g) : null,
          source: `FSU/${g.status}`,
          message: { type: "FSU", version: "13", id: null },
          sourceAt: {
            report: lineAt(start + 2 + i),
            origin: lineAt(start + 1),
            destination: lineAt(start + 1),
          },
        };
      }),
  }));

// FSU/BKD ---------------------------------------------------------------------------------------

const bkdLegArb = fc.record({
  flight: flightArb,
  date: dayMonthArb,
  origin: letters,
  destination: letters,
  quantity: fc.option(quantityArb, { nil: null }),
  groups: fc.array(timeGroupArb, { maxLength: 2 }),
});

const bkdArb: fc.Arbitrary<Rendered> = fc
  .record({
    awb: awbArb,
    origin: letters,
    destination: letters,
    total: fc.option(quantityArb, { nil: null }),
    legs: fc.array(bkdLegArb, { minLength: 1, maxLength: 4 }),
  })
  .map((m) => ({
    lines: [
      "FSU/13",
      consignmentLine(m.awb, m.origin, m.destination, m.total),
      ...m.legs.map(
        (l) =>
          `BKD/${l.flight.carrierCode}${l.flight.flightNumber}/${renderDayMonth(l.date)}/${l.origin}${l.destination}${
            l.quantity === null ? "" : `/${renderQuantity(l.quantity)}`
          }${l.groups.map(renderGroup).join("")}`,
      ),
    ],
    expected: (start) => [
      {
        awb: m.awb,
        origin: m.origin,
        destination: m.destination,
        total: m.total,
        kind: "booking",
        source: "FSU/BKD",
        message: { type: "FSU", version: "13", id: null },
        // One BKD line upserts a leg; several state the whole itinerary.
        wholeItinerary: m.legs.length > 1,
        sourceAt: { report: lineAt(start + 2), origin: lineAt(start + 1), destination: lineAt(start + 1) },
        legs: m.legs.map(
          (l, i): FlightLeg => ({
            ...l.flight,
            flightDay: l.date.day,
            flightMonth: l.date.month,
            origin: l.origin,
            destination: l.destination,
            scheduledDeparture: groupTime(l.groups[0], l.date),
            scheduledArrival: groupTime(l.groups[1], l.date),
            roadFeeder: null,
            quantity: l.quantity,
            at: lineAt(start + 2 + i),
          }),
        ),
      },
    ],
  }));

// FWB -------------------------------------------------------------------------------------------

const fltFlightArb = fc
  .record({ flight: flightArb, month: fc.integer({ min: 0, max: 12 }) })
  .chain(({ flight, month }) =>
    fc.record({
      flight: fc.constant(flight),
      // Month 0: the FLT line gives the day only.
      month: fc.constant(month),
      day: fc.integer({ min: 1, max: month === 0 ? 31 : (DAYS[month - 1] as number) }),
    }),
  );

const agentArb = fc.record({
  code: digits(7),
  cass: fc.option(digits(4), { nil: null }),
  participant: fc.option(letters, { nil: null }),
  joined: fc.boolean(),
});

const fwbArb: fc.Arbitrary<Rendered> = fc
  .record({
    awb: awbArb,
    origin: letters,
    destination: letters,
    total: quantityArb,
    flights: fc.array(fltFlightArb, { maxLength: 4 }),
    flightsPerLine: fc.integer({ min: 1, max: 2 }),
    routing: fc.constantFrom("points", "none", "one-too-many"),
    points: fc.array(fc.record({ station: letters, carrier: fc.constantFrom("LH", "AF", "9W") }), {
      minLength: 5,
      maxLength: 5,
    }),
    agent: fc.option(agentArb, { nil: null }),
    shipper: fc.boolean(),
  })
  .map((m) => {
    const lines = ["FWB/16", consignmentLine(m.awb, m.origin, m.destination, m.total)];
    const fltLine: number[] = [];
    for (let i = 0; i < m.flights.length; i += m.flightsPerLine) {
      const chunk = m.flights.slice(i, i + m.flightsPerLine);
      for (const _ of chunk) fltLine.push(lines.length);
      const parts = chunk.map(
        (f) =>
          `${f.flight.carrierCode}${f.flight.flightNumber}/${pad(f.day)}${
            f.month === 0 ? "" : MONTH_ABBREVIATIONS[f.month - 1]
          }`,
      );
      lines.push(`FLT/${parts.join("/")}`);
    }
    const pointCount =
      m.routing === "points" ? m.flights.length : m.routing === "one-too-many" ? m.flights.length + 1 : 0;
    const points = m.points.slice(0, pointCount);
    if (points.length > 0) lines.push(`RTG/${points.map((p) => `${p.station}${p.carrier}`).join("/")}`);
    if (m.shipper) lines.push("SHP", "/ACME EXPORTS GMBH", "/FRANKFURT");
    let agent: AgentRef | null = null;
    if (m.agent !== null) {
      const a = m.agent;
      if (a.joined && a.cass !== null) {
        lines.push(`AGT//${a.code}${a.cass}`);
        agent = { code: a.code, cass: a.cass };
      } else {
        const participant = a.cass !== null && a.participant !== null ? `/${a.participant}` : "";
        lines.push(`AGT//${a.code}${a.cass === null ? "" : `/${a.cass}`}${participant}`, "/ACME FORWARDING");
        agent = a.cass === null ? null : { code: a.code, cass: a.cass };
      }
    }
    // Legs only when FLT and RTG line up (or one flight and no RTG): none rather than invented ones.
    const legPoints =
      points.length === m.flights.length && points.length > 0
        ? points.map((p) => p.station)
        : points.length === 0 && m.flights.length === 1
          ? [m.destination]
          : null;
    return {
      lines,
      expected: (start: number): CarrierReport[] => [
        {
          awb: m.awb,
          origin: m.origin,
          destination: m.destination,
          total: m.total,
          kind: "awb-data",
          source: "FWB",
          message: { type: "FWB", version: "16", id: null },
          sourceAt: { report: lineAt(start), origin: lineAt(start + 1), destination: lineAt(start + 1) },
          agent,
          productCode: null,
          legs:
            legPoints === null
              ? []
              : m.flights.map((f, i) => ({
                  ...f.flight,
                  flightDay: f.day,
                  flightMonth: f.month,
                  origin: i === 0 ? m.origin : (legPoints[i - 1] as string),
                  destination: legPoints[i] as string,
                  scheduledDeparture: null,
                  scheduledArrival: null,
                  roadFeeder: null,
                  quantity: null,
                  at: lineAt(start + (fltLine[i] as number)),
                })),
        },
      ],
    };
  });

// FFR / FFA -------------------------------------------------------------------------------------

const KEPT = ["KK", "NN", "HK", "SS"];
const REFUSED = ["UU", "NO", "UC"];
const flightLineArb = fc.record({
  flight: flightArb,
  date: dayMonthArb,
  origin: letters,
  destination: letters,
  code: fc.constantFrom(...KEPT, ...REFUSED, "XX"),
  allotment: fc.option(fc.constantFrom("ALLOT", "QX1", "KL7"), { nil: null }),
  groups: fc.array(timeGroupArb, { maxLength: 2 }),
});

const bookingMessageArb: fc.Arbitrary<Rendered> = fc
  .record({
    type: fc.constantFrom("FFR" as const, "FFA" as const),
    awb: awbArb,
    origin: letters,
    destination: letters,
    total: quantityArb,
    nature: fc.option(fc.constantFrom("CONSOLIDATION", "MACHINE PARTS"), { nil: null }),
    specialHandling: fc.boolean(),
    flights: fc.array(flightLineArb, { minLength: 1, maxLength: 4 }),
  })
  .map((m) => {
    const consignment = consignmentLine(m.awb, m.origin, m.destination, m.total);
    const lines = [
      m.type === "FFR" ? "FFR/8" : "FFA/4",
      m.nature === null ? consignment : `${consignment}/${m.nature}`,
      ...(m.specialHandling ? ["/EAP/PER"] : []),
    ];
    const first = lines.length;
    for (const f of m.flights) {
      const allotment = f.allotment === null ? "" : `/${f.allotment}`;
      lines.push(
        `${f.flight.carrierCode}${f.flight.flightNumber}/${renderDayMonth(f.date)}/${f.origin}${f.destination}/${f.code}${allotment}${f.groups
          .map(renderGroup)
          .join("")}`,
      );
    }
    return {
      lines,
      expected: (start: number): CarrierReport[] => {
        const base = {
          awb: m.awb,
          origin: m.origin,
          destination: m.destination,
          total: m.total,
          source: m.type,
          message: { type: m.type, version: m.type === "FFR" ? "8" : "4", id: null },
          sourceAt: { report: lineAt(start), origin: lineAt(start + 1), destination: lineAt(start + 1) },
        };
        // Every flight XX: the booking is cancelled. Refused flights are dropped.
        if (m.flights.every((f) => f.code === "XX"))
          return [{ ...base, kind: "cancellation", time: null, station: null }];
        const legs = m.flights.flatMap((f, i): FlightLeg[] =>
          KEPT.includes(f.code)
            ? [
                {
                  ...f.flight,
                  flightDay: f.date.day,
                  flightMonth: f.date.month,
                  origin: f.origin,
                  destination: f.destination,
                  scheduledDeparture: groupTime(f.groups[0], f.date),
                  scheduledArrival: groupTime(f.groups[1], f.date),
                  roadFeeder: null,
                  quantity: m.total,
                  at: lineAt(start + first + i),
                },
              ]
            : [],
        );
        return legs.length === 0 ? [] : [{ ...base, kind: "booking", legs, wholeItinerary: true }];
      },
    };
  });

/** Several messages in one body, optionally separated by blank lines. */
function body(
  messages: readonly Rendered[],
  blankBetween: boolean,
): { text: string; expected: CarrierReport[] } {
  const lines: string[] = [];
  const expected: CarrierReport[] = [];
  for (const message of messages) {
    if (blankBetween && lines.length > 0) lines.push("");
    expected.push(...message.expected(lines.length + 1));
    lines.push(...message.lines);
  }
  return { text: `${lines.join("\n")}\n`, expected };
}

describe("parseCargoImp properties", () => {
  const roundTrip = (arb: fc.Arbitrary<Rendered>, numRuns: number) =>
    fc.assert(
      fc.property(arb, (message) => {
        const { text, expected } = body([message], false);
        expect(parseCargoImp(text)).toEqual(expected);
      }),
      { numRuns },
    );

  it("round trip: generated FSU statuses -> text -> parse gives them back", () => {
    roundTrip(fsuStatusesArb, 300);
  });

  it("round trip: BKD lines with S/E time groups and -N/-P day changes", () => {
    roundTrip(bkdArb, 300);
  });

  it("round trip: FWB with FLT (day with or without month), RTG, AGT with CASS, volume MC", () => {
    roundTrip(fwbArb, 300);
  });

  it("round trip: FFR/FFA flight lines with space codes, allotments and time groups", () => {
    roundTrip(bookingMessageArb, 300);
  });

  it("round trip: several messages of every kind in one body name their own lines", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fsuStatusesArb, bkdArb, fwbArb, bookingMessageArb), { minLength: 2, maxLength: 4 }),
        fc.boolean(),
        (messages, blankBetween) => {
          const { text, expected } = body(messages, blankBetween);
          expect(parseCargoImp(text)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("envelope lines, CRLF, trailing spaces and blank lines change nothing but the line numbers", () => {
    const layoutArb = fc.record({
      envelope: fc.boolean(),
      crlf: fc.boolean(),
      trailing: fc.array(fc.constantFrom("", " ", "   ", "\t"), { minLength: 12, maxLength: 12 }),
      blankAfter: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    });
    // The envelope's origin line names the message (its identity), checked below.
    const withoutLines = (reports: CarrierReport[]) =>
      reports.map(({ sourceAt: _sourceAt, message, ...r }) => ({
        ...("legs" in r ? { ...r, legs: r.legs.map(({ at: _at, ...leg }) => leg) } : r),
        message: { ...message, id: null },
      }));
    fc.assert(
      fc.property(fc.oneof(fsuStatusesArb, bkdArb), layoutArb, (message, layout) => {
        const plain = body([message], false).text;
        const lines = plain.trimEnd().split("\n");
        const decorated = lines.flatMap((line, i) => {
          const out = [`${line}${layout.trailing[i % 12]}`];
          if (layout.blankAfter[i % 12]) out.push("");
          return out;
        });
        const withEnvelope = layout.envelope
          ? ["QD HDQFMLH FRAFMLH", ".HDQRMXH 141200", ...decorated]
          : decorated;
        const text = withEnvelope.join(layout.crlf ? "\r\n" : "\n");
        const parsed = parseCargoImp(text);
        expect(withoutLines(parsed)).toEqual(withoutLines(parseCargoImp(plain)));
        // The lines named are where the reports now are: each report's line starts with its code.
        const textLines = withEnvelope;
        for (const report of parsed) {
          expect(report.message.id).toBe(layout.envelope ? "HDQRMXH 141200" : null);
          const line = textLines[report.sourceAt.report.line - 1] ?? "";
          const code = report.kind === "booking" ? "BKD" : report.source.slice(4);
          expect(line.startsWith(code)).toBe(true);
          expect(textLines[report.sourceAt.origin.line - 1]).toContain(
            `${report.awb.prefix}-${report.awb.serial}`,
          );
        }
      }),
      { numRuns: 200 },
    );
  });

  it("never throws anything but MessageParseError on arbitrary printable input", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(..."FSUWBR/0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZ \n."),
          maxLength: 200,
        }),
        (text) => {
          try {
            parseCargoImp(`FSU/13\n${text}`);
          } catch (error) {
            expect((error as Error).name).toBe("MessageParseError");
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
