import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCargoImp } from "../../../functions/core/carrier-messages/cargo-imp.ts";
import { MONTH_ABBREVIATIONS } from "../../../functions/core/carrier-messages/common.ts";
import type {
  CarrierReport,
  Quantity,
  StationTime,
  StatusReport,
} from "../../../functions/core/carrier-messages/types.ts";

// A test-only renderer: generated reports -> FSU text, then the parser must give them back.

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");
const letters = fc.string({
  unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
  minLength: 3,
  maxLength: 3,
});
const awbArb = fc
  .tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 9_999_999 }))
  .map(([prefix, first7]) => ({ prefix: pad(prefix, 3), serial: `${pad(first7, 7)}${first7 % 7}` }));
const dateArb = fc.integer({ min: 1, max: 12 }).chain((month) =>
  fc.record({
    month: fc.constant(month),
    day: fc.integer({ min: 1, max: [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
  }),
);
const quantityArb: fc.Arbitrary<Quantity> = fc
  .record({
    pieces: fc.integer({ min: 1, max: 9999 }),
    weight: fc.option(
      fc.integer({ min: 1, max: 999_999 }).map((w) => w / 10),
      { nil: null },
    ),
    weightCode: fc.constantFrom("K" as const, "L" as const),
  })
  .map(({ pieces, weight, weightCode }) => ({
    pieces,
    weightCode: weight === null ? null : weightCode,
    weight,
    volumeCode: null,
    volume: null,
  }));
const flightArb = fc.record({
  carrierCode: fc.constantFrom("LH", "AF", "9W", "U2", "BA"),
  flightNumber: fc.integer({ min: 1, max: 9999 }).map(String),
});

const statusArb: fc.Arbitrary<StatusReport> = fc
  .record({
    awb: awbArb,
    origin: letters,
    destination: letters,
    total: fc.option(quantityArb, { nil: null }),
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
  })
  .map((g) => {
    const withFlight = g.status === "DEP" || g.status === "ARR" || g.status === "RCF";
    const time: StationTime = { ...g.date, dayOffset: g.status === "DEP" ? g.dayOffset : 0 };
    const deliveredTo =
      g.status === "DLV" && g.deliveredTo !== null && g.deliveredTo.trim() !== ""
        ? g.deliveredTo.trim()
        : null;
    return {
      awb: g.awb,
      origin: g.origin,
      destination: g.destination,
      total: g.total,
      kind: "status",
      status: g.status,
      station: g.station,
      time,
      flight: withFlight ? { ...g.flight, flightDay: g.date.day, flightMonth: g.date.month } : null,
      quantity: g.quantity,
      deliveredTo,
      source: `FSU/${g.status}`,
    };
  });

function renderQuantity(q: Quantity): string {
  return `T${q.pieces}${q.weight === null ? "" : `${q.weightCode}${q.weight}`}`;
}

function renderDate(t: StationTime, withTime: boolean): string {
  const base = `${pad(t.day)}${MONTH_ABBREVIATIONS[t.month - 1]}`;
  return withTime ? `${base}${pad(t.hour)}${pad(t.minute)}` : base;
}

function renderStatus(r: StatusReport): string {
  const q = r.quantity === null ? "" : `/${renderQuantity(r.quantity)}`;
  const f = r.flight === null ? "" : `${r.flight.carrierCode}${r.flight.flightNumber}`;
  switch (r.status) {
    case "DEP": {
      const suffix = r.time.dayOffset === 1 ? "-N" : r.time.dayOffset === -1 ? "-P" : "";
      return `DEP/${f}/${renderDate(r.time, false)}/${r.station}XXX${q}/A${pad(r.time.hour)}${pad(r.time.minute)}${suffix}`;
    }
    case "ARR":
    case "RCF":
      return `${r.status}/${f}/${renderDate(r.time, true)}/${r.station}${q}`;
    default:
      return `${r.status}/${renderDate(r.time, true)}/${r.station}${q}${r.deliveredTo === null ? "" : `/${r.deliveredTo}`}`;
  }
}

function renderFsu(reports: StatusReport[]): string {
  const first = reports[0] as StatusReport;
  const total = first.total === null ? "" : `/${renderQuantity(first.total)}`;
  const head = `FSU/13\n${first.awb.prefix}-${first.awb.serial}${first.origin}${first.destination}${total}`;
  return `${head}\n${reports.map(renderStatus).join("\n")}\n`;
}

/** Several statuses of the same AWB, as one FSU. */
const fsuArb = fc.array(statusArb, { minLength: 1, maxLength: 4 }).map((list) => {
  const first = list[0] as StatusReport;
  return list.map((r) => ({
    ...r,
    awb: first.awb,
    origin: first.origin,
    destination: first.destination,
    total: first.total,
  }));
});

describe("parseCargoImp properties", () => {
  it("round trip: generated FSU statuses -> text -> parse gives them back", () => {
    fc.assert(
      fc.property(fsuArb, (reports) => {
        expect(parseCargoImp(renderFsu(reports))).toEqual(reports);
      }),
      { numRuns: 300 },
    );
  });

  it("envelope lines, CRLF, trailing spaces and blank lines do not change the result", () => {
    const layoutArb = fc.record({
      envelope: fc.boolean(),
      crlf: fc.boolean(),
      trailing: fc.array(fc.constantFrom("", " ", "   ", "\t"), { minLength: 12, maxLength: 12 }),
      blankAfter: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    });
    fc.assert(
      fc.property(fsuArb, layoutArb, (reports, layout) => {
        const plain = renderFsu(reports);
        const lines = plain.trimEnd().split("\n");
        const decorated = lines.flatMap((line, i) => {
          const out = [`${line}${layout.trailing[i % 12]}`];
          // A blank line never goes right after the consignment line's message id in a way that changes meaning.
          if (layout.blankAfter[i % 12]) out.push("");
          return out;
        });
        const withEnvelope = layout.envelope
          ? ["QD HDQFMLH FRAFMLH", ".HDQRMXH 141200", ...decorated]
          : decorated;
        const text = withEnvelope.join(layout.crlf ? "\r\n" : "\n");
        const expected: CarrierReport[] = parseCargoImp(plain);
        expect(parseCargoImp(text)).toEqual(expected);
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
