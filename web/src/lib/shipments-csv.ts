/**
 * The shipment list as CSV (RFC 4180: comma-separated, CRLF, fields quoted when they hold a comma, a
 * quote or a line break), one row per shipment with what the table shows and the next milestone.
 * Times are ISO 8601 UTC, which spreadsheets read as dates; the next milestone's station-local time
 * is a column of its own. A cell starting with = + - @ is prefixed with ' so a spreadsheet never runs
 * it as a formula (the AWB data comes from carriers). Pure.
 */
import { formatAwb } from "./format.ts";
import {
  awbOf,
  exceptionSummary,
  nextMilestone,
  ROUTE_MAP_STATUS_WORDS,
  type RouteMap,
} from "./route-map.ts";

export const CSV_COLUMNS = [
  "AWB",
  "Status",
  "Origin",
  "Destination",
  "Legs",
  "Exceptions",
  "Next milestone",
  "Next station",
  "Next planned (UTC)",
  "Next planned (station local)",
  "Created (UTC)",
  "Last update (UTC)",
] as const;

/** One CSV field: quoted when needed, formula-looking text defused. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** "LH400, Truck LH9350": a shipment's legs as the table lists them. */
export const legsText = (map: RouteMap): string =>
  map.MilestonePlan.RoutingCycle.Flight.map(
    (flight) =>
      `${flight.FlightInfo.isRoadFeederService ? "Truck " : ""}${flight.FlightInfo.CarrierCode}${flight.FlightInfo.Number}`,
  ).join(", ");

export function shipmentRow(map: RouteMap): string[] {
  const next = nextMilestone(map);
  return [
    formatAwb(awbOf(map)),
    ROUTE_MAP_STATUS_WORDS[map.Status] ?? map.Status,
    map.Shipment.Routing.Origin,
    map.Shipment.Routing.Destination,
    legsText(map),
    exceptionSummary(map),
    next?.label ?? "",
    next?.station ?? "",
    next?.planned?.Utc ?? "",
    next?.planned?.Local ?? "",
    map.CreationDate.Utc,
    map.LastUpdate,
  ];
}

export function shipmentsCsv(maps: readonly RouteMap[]): string {
  const lines = [CSV_COLUMNS, ...maps.map(shipmentRow)].map((row) => row.map(csvField).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** "shipments-2026-03-14T2354Z.csv": the file name, stamped with the export's UTC time. */
export const csvFileName = (at: Date) => `shipments-${at.toISOString().slice(0, 16).replace(":", "")}Z.csv`;
