/** CarrierReport builders for route-map tests (independent of the parsers). */
import type {
  AwbDataReport,
  BookingReport,
  CancellationReport,
  FlightLeg,
  Quantity,
  ReportedStatusCode,
  StationTime,
  StatusReport,
} from "../../../functions/core/carrier-messages/types.ts";

export const NOW = "2026-11-22T12:00:00Z";

/** Where a built report "was read": the route-map core only uses it to name a line in a 400. */
const LINE_1 = { line: 1, path: null };
const SOURCE_AT = { report: LINE_1, origin: LINE_1, destination: LINE_1 };
const AWB = { prefix: "020", serial: "12345675" };

export function qty(pieces: number, weight: number | null = 250, volume: number | null = null): Quantity {
  return {
    pieces,
    weightCode: weight === null ? null : "K",
    weight,
    volumeCode: volume === null ? null : "CM",
    volume,
  };
}

/** Station-local time without year, as Cargo-IMP sends it. */
export function at(day: number, month: number, hhmm: string, dayOffset = 0): StationTime {
  return { month, day, hour: Number(hhmm.slice(0, 2)), minute: Number(hhmm.slice(2, 4)), dayOffset };
}

export function leg(
  carrierCode: string,
  flightNumber: string,
  origin: string,
  destination: string,
  std: StationTime | null,
  sta: StationTime | null,
  extra: Partial<FlightLeg> = {},
): FlightLeg {
  return {
    carrierCode,
    flightNumber,
    flightDay: std?.day ?? 22,
    flightMonth: std?.month ?? 11,
    origin,
    destination,
    scheduledDeparture: std,
    scheduledArrival: sta,
    roadFeeder: null,
    quantity: null,
    at: LINE_1,
    ...extra,
  };
}

/** The message the reports built here came from (the parsers name theirs). */
const FSU_15 = { type: "FSU", version: "15", id: null };

export function booking(
  legs: FlightLeg[],
  total: Quantity | null = qty(10),
  wholeItinerary = legs.length > 1,
): BookingReport {
  return {
    kind: "booking",
    awb: AWB,
    origin: "FRA",
    destination: "JFK",
    total,
    source: wholeItinerary ? "FFR" : "FSU/BKD",
    message: wholeItinerary ? { type: "FFR", version: "8", id: null } : FSU_15,
    sourceAt: SOURCE_AT,
    legs,
    wholeItinerary,
  };
}

export function fwb(extra: Partial<AwbDataReport> = {}): AwbDataReport {
  return {
    kind: "awb-data",
    awb: AWB,
    origin: "FRA",
    destination: "JFK",
    total: qty(10, 250, 1.5),
    source: "FWB",
    message: { type: "FWB", version: "17", id: null },
    sourceAt: SOURCE_AT,
    agent: { code: "1234567", cass: "1234" },
    productCode: "GEN",
    legs: [],
    ...extra,
  };
}

export function status(
  code: ReportedStatusCode,
  station: string,
  time: StationTime,
  flight: { carrierCode: string; flightNumber: string; day?: number; month?: number } | null = null,
  pieces: number | null = 10,
): StatusReport {
  return {
    kind: "status",
    awb: AWB,
    origin: "FRA",
    destination: "JFK",
    total: qty(10),
    source: `FSU/${code}`,
    message: FSU_15,
    sourceAt: SOURCE_AT,
    status: code,
    station,
    time,
    flight: flight
      ? {
          carrierCode: flight.carrierCode,
          flightNumber: flight.flightNumber,
          flightDay: flight.day ?? 22,
          flightMonth: flight.month ?? 11,
        }
      : null,
    quantity: pieces === null ? null : qty(pieces),
    deliveredTo: code === "DLV" ? "ACME LOGISTICS" : null,
  };
}

export function cancellation(): CancellationReport {
  return {
    kind: "cancellation",
    awb: AWB,
    origin: "FRA",
    destination: "JFK",
    total: null,
    source: "FSU/DIS",
    message: FSU_15,
    sourceAt: SOURCE_AT,
    time: null,
    station: null,
  };
}

/** The acceptance itinerary: a road-feeder truck FRA->CGN, then LH400 CGN->JFK, on 22 November. */
export const TRUCK = leg("LH", "9350", "FRA", "CGN", at(22, 11, "0800"), at(22, 11, "1000"), {
  roadFeeder: true,
  quantity: qty(10),
});
export const FLIGHT = leg("LH", "400", "CGN", "JFK", at(22, 11, "1300"), at(22, 11, "1600"), {
  quantity: qty(10),
});
