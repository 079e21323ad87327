/**
 * Cargo-XML XFFM (IATA Flight Manifest, `rsm:FlightManifest`) read like a Cargo-IMP FFM:
 *   LogisticsTransportMovement: ID (the flight), ModeCode (3 road), DepartureEvent with
 *     DepartureOccurrenceDateTime (its DepartureDateTimeTypeCode) and OccurrenceDepartureLocation/ID:
 *     the point of loading
 *   ArrivalEvent* (one per point of unloading): OccurrenceArrivalLocation/ID, ArrivalOccurrenceDateTime,
 *     AssociatedTransportCargo* (bulk or a ULD) with IncludedMasterConsignment*: the AWB
 *     (TransportContractDocument/ID), its OriginLocation and FinalDestinationLocation, the pieces on
 *     this flight (PieceQuantity, else TotalPieceQuantity), GrossWeightMeasure, GrossVolumeMeasure
 * Reports, as for an FFM: for every AWB under a point of unloading, a booking of this leg (its pieces
 * and weight added up over ULDs) and MAN at the point of loading, kept in the history. Like the FFM's,
 * the manifest's times are local wall-clock times read without their year (the core reads them in the
 * year nearest receipt): a scheduled departure (type S or none) is the leg's and MAN's time, a
 * scheduled arrival the leg's arrival.
 */
import type {
  AwbId,
  BookingReport,
  CarrierReport,
  OtherStatusReport,
  Quantity,
  StationTime,
} from "../types.ts";
import { child, children, type ElementLocator, pathText, type XmlElement } from "./document.ts";
import {
  readAirport,
  readAwbText,
  readDateTime,
  readFlightDesignator,
  readMessageOrigin,
  readQuantity,
} from "./fields.ts";

interface ManifestEntry {
  awb: AwbId;
  consignment: XmlElement;
  /** Which IncludedMasterConsignment it is in the document (for its line). */
  occurrence: number;
  unloading: string;
  unloadingOccurrence: number;
  arrival: StationTime | null;
  quantity: Quantity | null;
}

/** The local wall-clock time of a date-time element, without year or offset (as Cargo-IMP gives it). */
function wallClock(
  event: XmlElement | undefined,
  timeElement: string,
  typeElement: string,
  errors: ElementLocator,
  element: string,
  occurrence: number,
): StationTime | null {
  const text = pathText(event, timeElement);
  const type = pathText(event, typeElement);
  if (text === undefined || (type !== undefined && type !== "S")) return null;
  const t = readDateTime(text, element, errors, occurrence, null);
  return { month: t.month, day: t.day, hour: t.hour, minute: t.minute, dayOffset: 0 };
}

/** Reads an XFFM from its root element (FlightManifest). */
export function readXffm(root: XmlElement, errors: ElementLocator): CarrierReport[] {
  const movement = child(root, "LogisticsTransportMovement");
  if (movement === undefined)
    errors.fail("FlightManifest", "a LogisticsTransportMovement element", "nothing");
  const flight = readFlightDesignator(movement, errors, false);
  if (flight === null) errors.fail("LogisticsTransportMovement", "a flight ID such as LH400", "nothing");
  const departure = child(movement, "DepartureEvent");
  const loading = readAirport(
    pathText(departure, "OccurrenceDepartureLocation", "ID"),
    "OccurrenceDepartureLocation",
    errors,
  );
  const dateText = pathText(departure, "DepartureOccurrenceDateTime");
  if (dateText === undefined)
    errors.fail("DepartureEvent", "the flight's DepartureOccurrenceDateTime", "nothing");
  const date = readDateTime(dateText, "DepartureEvent", errors, 0, null);
  const scheduled = wallClock(
    departure,
    "DepartureOccurrenceDateTime",
    "DepartureDateTimeTypeCode",
    errors,
    "DepartureEvent",
    0,
  );
  const mode = pathText(movement, "ModeCode");
  const message = readMessageOrigin(root, "XFFM");

  const entries = new Map<string, ManifestEntry>();
  let consignments = 0;
  children(root, "ArrivalEvent").forEach((arrival, arrivalIndex) => {
    const unloading = readAirport(
      pathText(arrival, "OccurrenceArrivalLocation", "ID"),
      "OccurrenceArrivalLocation",
      errors,
      arrivalIndex,
    );
    const arrivalTime = wallClock(
      arrival,
      "ArrivalOccurrenceDateTime",
      "ArrivalDateTimeTypeCode",
      errors,
      "ArrivalEvent",
      arrivalIndex,
    );
    for (const cargo of children(arrival, "AssociatedTransportCargo")) {
      for (const consignment of children(cargo, "IncludedMasterConsignment")) {
        const occurrence = consignments++;
        const awbText = pathText(consignment, "TransportContractDocument", "ID");
        const quantity = readQuantity(
          consignment,
          pathText(consignment, "PieceQuantity") === undefined ? "TotalPieceQuantity" : "PieceQuantity",
          "GrossWeightMeasure",
          errors,
        );
        const awb = readAwbText(awbText, "TransportContractDocument", errors);
        const key = `${awb.prefix}-${awb.serial}>${unloading}`;
        const known = entries.get(key);
        if (known === undefined) {
          entries.set(key, {
            awb,
            consignment,
            occurrence,
            unloading,
            unloadingOccurrence: arrivalIndex,
            arrival: arrivalTime,
            quantity,
          });
        } else if (known.quantity !== null && quantity !== null) {
          known.quantity = addQuantities(known.quantity, quantity);
        }
      }
    }
  });

  const reports: CarrierReport[] = [];
  for (const entry of entries.values()) {
    const origin = readAirport(
      pathText(entry.consignment, "OriginLocation", "ID"),
      "OriginLocation",
      errors,
      entry.occurrence,
    );
    const destination = readAirport(
      pathText(entry.consignment, "FinalDestinationLocation", "ID"),
      "FinalDestinationLocation",
      errors,
      entry.occurrence,
    );
    const totalPieces = pathText(entry.consignment, "TotalPieceQuantity");
    const at = errors.at(
      "IncludedMasterConsignment",
      "ArrivalEvent/AssociatedTransportCargo/IncludedMasterConsignment",
      entry.occurrence,
    );
    const base = {
      awb: entry.awb,
      origin,
      destination,
      total:
        totalPieces === undefined
          ? null
          : { pieces: Number(totalPieces), weightCode: null, weight: null, volumeCode: null, volume: null },
      message,
      sourceAt: {
        report: at,
        origin: errors.at("OriginLocation", "IncludedMasterConsignment/OriginLocation/ID", entry.occurrence),
        destination: errors.at(
          "FinalDestinationLocation",
          "IncludedMasterConsignment/FinalDestinationLocation/ID",
          entry.occurrence,
        ),
      },
    };
    const booking: BookingReport = {
      ...base,
      kind: "booking",
      source: "XFFM",
      wholeItinerary: false,
      legs: [
        {
          ...flight,
          flightDay: date.day,
          flightMonth: date.month,
          origin: loading,
          destination: entry.unloading,
          scheduledDeparture: scheduled,
          scheduledArrival: entry.arrival,
          roadFeeder: mode === "3" ? true : mode === "4" ? false : null,
          quantity: entry.quantity,
          at: errors.at(
            "ArrivalEvent",
            `ArrivalEvent[${entry.unloadingOccurrence + 1}]`,
            entry.unloadingOccurrence,
          ),
        },
      ],
    };
    const manifested: OtherStatusReport = {
      ...base,
      kind: "other-status",
      source: "XFFM/MAN",
      code: "MAN",
      station: loading,
      time: scheduled,
      flight: { carrierCode: flight.carrierCode, flightNumber: flight.flightNumber },
      pieces: entry.quantity?.pieces ?? null,
    };
    reports.push(booking, manifested);
  }
  return reports;
}

function addQuantities(a: Quantity, b: Quantity): Quantity {
  const sameWeight = a.weightCode === b.weightCode && a.weight !== null && b.weight !== null;
  return {
    pieces: a.pieces + b.pieces,
    weightCode: sameWeight ? a.weightCode : null,
    weight: sameWeight ? Math.round(((a.weight as number) + (b.weight as number)) * 1000) / 1000 : null,
    volumeCode: a.volume !== null && b.volume !== null ? "CM" : null,
    volume: a.volume !== null && b.volume !== null ? Math.round((a.volume + b.volume) * 1000) / 1000 : null,
  };
}
