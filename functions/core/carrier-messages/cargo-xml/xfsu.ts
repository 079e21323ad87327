/**
 * Cargo-XML XFSU (IATA Status Message, `rsm:StatusMessage`) into `CarrierReport[]`.
 *
 * Read (namespace prefixes ignored):
 *   StatusMessage/MasterConsignment
 *     TransportContractDocument/ID                AWB, `020-12345675` or `02012345675`
 *     OriginLocation/ID, FinalDestinationLocation/ID
 *     TotalPieceQuantity|PieceQuantity, TotalGrossWeightMeasure|GrossWeightMeasure, GrossVolumeMeasure
 *     ReportedStatus*                                one report per status (BKD: one booking)
 *       ReasonCode                                   BKD RCS DEP ARR RCF NFD AWD DLV CAN
 *       AssociatedStatusConsignment
 *         PieceQuantity, GrossWeightMeasure@unitCode (KGM, LBR), GrossVolumeMeasure@unitCode (MTQ, ...)
 *         SpecifiedLogisticsTransportMovement*       a flight or truck
 *           ID (LH400, or the number with CarrierParty/PrimaryID), ModeCode (3 road -> roadFeeder, 4 air)
 *           DepartureEvent: DepartureOccurrenceDateTime, DepartureDateTimeTypeCode (S/E/A),
 *                           ScheduledOccurrenceDateTime, OccurrenceDepartureLocation/ID
 *           ArrivalEvent:   ArrivalOccurrenceDateTime, ArrivalDateTimeTypeCode, ScheduledOccurrenceDateTime,
 *                           OccurrenceArrivalLocation/ID
 *           SpecifiedLocation/ID, SpecifiedEvent (OccurrenceDateTime|ActualOccurrenceDateTime, DateTimeTypeCode)
 *         SpecifiedLocation/ID, SpecifiedEvent       also accepted directly on the status consignment
 *         DeliveryParty/Name                         DLV: who took delivery
 * A flight is identified by its scheduled departure date (ScheduledOccurrenceDateTime before
 * DepartureOccurrenceDateTime), as the booking names it. Several movements in a BKD state the whole
 * itinerary, like a multi-line FSU/BKD. Standard codes we do not track (FOH, MAN, ...) are skipped.
 * Errors and reports carry the line of their element (the n-th occurrence of that element name) and
 * its path, e.g. `MasterConsignment/ReportedStatus[2]`. Times and quantities: fields.ts; times with
 * a year must lie near receipt (plausible-times.ts, checked by the caller with the receipt time).
 */
import { EXPECT_AT_MOST_LEGS, MAX_ITINERARY_LEGS, UNTRACKED_FSU_CODES } from "../common.ts";
import type {
  BookingReport,
  CarrierReport,
  FlightLeg,
  Quantity,
  ReportedStatusCode,
  SourceRef,
  StatusReport,
} from "../types.ts";
import { child, children, type ElementLocator, pathText, type XmlElement } from "./document.ts";
import {
  readAirport,
  readAwb,
  readDateTime,
  readFlightDesignator,
  readMessageOrigin,
  readQuantity,
  readTotal,
} from "./fields.ts";

const STATUS_CODE_RE = /^[A-Z]{3}$/;

const TRACKED_STATUS_CODES: ReadonlySet<string> = new Set(["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]);

/** Reads an XFSU from its root element (StatusMessage). */
export function readXfsu(root: XmlElement, errors: ElementLocator): CarrierReport[] {
  const consignment = child(root, "MasterConsignment");
  if (consignment === undefined) errors.fail("StatusMessage", "a MasterConsignment element", "nothing");
  const base: ReportBase = {
    awb: readAwb(consignment, errors),
    origin: readAirport(pathText(consignment, "OriginLocation", "ID"), "OriginLocation", errors),
    destination: readAirport(
      pathText(consignment, "FinalDestinationLocation", "ID"),
      "FinalDestinationLocation",
      errors,
    ),
    total: readTotal(consignment, errors),
    originAt: errors.at("OriginLocation", "MasterConsignment/OriginLocation/ID"),
    destinationAt: errors.at("FinalDestinationLocation", "MasterConsignment/FinalDestinationLocation/ID"),
  };
  const message = readMessageOrigin(root, "XFSU");
  const statuses = children(consignment, "ReportedStatus");
  if (statuses.length === 0) errors.fail("MasterConsignment", "a ReportedStatus element", "nothing");
  const reports: CarrierReport[] = [];
  // Movements are counted through the whole document, so each names the line of its own element.
  const counter = { movements: 0 };
  statuses.forEach((status, statusIndex) => {
    const code = pathText(status, "ReasonCode");
    if (code === undefined || !STATUS_CODE_RE.test(code)) {
      errors.fail("ReportedStatus", "a ReasonCode such as DEP", code, statusIndex);
    }
    if (
      !TRACKED_STATUS_CODES.has(code) &&
      !UNTRACKED_FSU_CODES.has(code) &&
      code !== "BKD" &&
      code !== "CAN"
    ) {
      errors.fail(
        "ReasonCode",
        "a status code such as BKD, RCS, DEP, ARR, RCF, NFD, AWD or DLV",
        code,
        statusIndex,
      );
    }
    const associated = children(status, "AssociatedStatusConsignment");
    const consignments = associated.length > 0 ? associated : [{}];
    const statusPath = `MasterConsignment/ReportedStatus[${statusIndex + 1}]`;
    const located = {
      awb: base.awb,
      origin: base.origin,
      destination: base.destination,
      total: base.total,
      message,
      sourceAt: {
        report: errors.at("ReportedStatus", statusPath, statusIndex),
        origin: base.originAt,
        destination: base.destinationAt,
      },
    };
    consignments.forEach((asc, ascIndex) => {
      const ascPath = `${statusPath}/AssociatedStatusConsignment[${ascIndex + 1}]`;
      const report = readStatus(code, asc, located, ascPath, counter, errors);
      if (report !== null) reports.push(report);
    });
  });
  return reports;
}

interface ReportBase extends Pick<StatusReport, "awb" | "origin" | "destination" | "total"> {
  originAt: SourceRef;
  destinationAt: SourceRef;
}

type LocatedBase = Pick<StatusReport, "awb" | "origin" | "destination" | "total" | "sourceAt" | "message">;

function readStatus(
  code: string,
  asc: XmlElement,
  base: LocatedBase,
  ascPath: string,
  counter: { movements: number },
  errors: ElementLocator,
): CarrierReport | null {
  const movements = children(asc, "SpecifiedLogisticsTransportMovement");
  const firstMovement = counter.movements;
  counter.movements += movements.length;
  const quantity = readQuantity(asc, "PieceQuantity", "GrossWeightMeasure", errors);
  if (code === "BKD") {
    if (movements.length === 0) {
      errors.fail(
        "AssociatedStatusConsignment",
        "a SpecifiedLogisticsTransportMovement for the booked flight",
        "nothing",
      );
    }
    if (movements.length > MAX_ITINERARY_LEGS) {
      errors.fail(
        "SpecifiedLogisticsTransportMovement",
        EXPECT_AT_MOST_LEGS,
        `${movements.length} movements`,
        firstMovement + MAX_ITINERARY_LEGS,
      );
    }
    const legs = movements.map((m, i) =>
      readLeg(
        m,
        firstMovement + i,
        `${ascPath}/SpecifiedLogisticsTransportMovement[${i + 1}]`,
        quantity,
        errors,
      ),
    );
    const booking: BookingReport = {
      ...base,
      kind: "booking",
      legs,
      wholeItinerary: legs.length > 1,
      source: "XFSU/BKD",
    };
    return booking;
  }
  if (code === "CAN") {
    const event = pickEvent([
      ...children(asc, "SpecifiedEvent"),
      ...movements.flatMap((m) => children(m, "SpecifiedEvent")),
    ]);
    const stationText =
      pathText(asc, "SpecifiedLocation", "ID") ?? pathText(movements[0], "SpecifiedLocation", "ID");
    const station = stationText === undefined ? null : readAirport(stationText, "SpecifiedLocation", errors);
    return {
      ...base,
      kind: "cancellation",
      time:
        event === undefined
          ? null
          : readDateTime(eventTime(event), "SpecifiedEvent", errors, 0, station ?? base.origin),
      station,
      source: "XFSU/CAN",
    };
  }
  if (!TRACKED_STATUS_CODES.has(code)) return null;
  const status = code as ReportedStatusCode;
  const movement = movements[0];
  const departure = child(movement, "DepartureEvent");
  const arrival = child(movement, "ArrivalEvent");
  const event = pickEvent([...children(asc, "SpecifiedEvent"), ...children(movement, "SpecifiedEvent")]);
  let stationText = pathText(asc, "SpecifiedLocation", "ID") ?? pathText(movement, "SpecifiedLocation", "ID");
  let timeText = event === undefined ? undefined : eventTime(event);
  let timeElement = "SpecifiedEvent";
  if (status === "DEP") {
    stationText = pathText(departure, "OccurrenceDepartureLocation", "ID") ?? stationText;
    if (timeText === undefined || eventKind(departure, "DepartureDateTimeTypeCode") === "A") {
      timeText = pathText(departure, "DepartureOccurrenceDateTime") ?? timeText;
      timeElement = "DepartureEvent";
    }
  } else if (status === "ARR" || status === "RCF") {
    stationText = pathText(arrival, "OccurrenceArrivalLocation", "ID") ?? stationText;
    if (timeText === undefined || eventKind(arrival, "ArrivalDateTimeTypeCode") === "A") {
      timeText = pathText(arrival, "ArrivalOccurrenceDateTime") ?? timeText;
      timeElement = "ArrivalEvent";
    }
  }
  if (stationText === undefined) {
    errors.fail("AssociatedStatusConsignment", `the ${status} station (SpecifiedLocation ID)`, "nothing");
  }
  const station = readAirport(stationText, "SpecifiedLocation", errors);
  const time = readDateTime(timeText, timeElement, errors, 0, station);
  let flight: StatusReport["flight"] = null;
  if (movement !== undefined && (status === "DEP" || status === "ARR" || status === "RCF")) {
    const designator = readFlightDesignator(movement, errors, true);
    if (designator !== null) {
      // A flight is named by its scheduled departure date (the booking's), else its actual departure
      // date, else the event's own date: an ARR after midnight then names the next day, which the
      // core matches to the flight that departed the day before.
      const dateText =
        pathText(departure, "ScheduledOccurrenceDateTime") ??
        pathText(departure, "DepartureOccurrenceDateTime");
      const departureStation =
        status === "DEP" ? station : pathText(departure, "OccurrenceDepartureLocation", "ID");
      const date =
        dateText === undefined
          ? time
          : readDateTime(dateText, "DepartureEvent", errors, 0, departureStation ?? null);
      flight = { ...designator, flightDay: date.day, flightMonth: date.month };
    }
  }
  const deliveredTo = status === "DLV" ? (pathText(asc, "DeliveryParty", "Name") ?? null) : null;
  return {
    ...base,
    kind: "status",
    status,
    station,
    time,
    flight,
    quantity,
    deliveredTo,
    source: `XFSU/${status}`,
  };
}

function eventTime(event: XmlElement): string | undefined {
  return pathText(event, "OccurrenceDateTime") ?? pathText(event, "ActualOccurrenceDateTime");
}

function eventKind(event: XmlElement | undefined, codeElement: string): string | undefined {
  return pathText(event, codeElement);
}

/** Prefers the actual (A) event when several are sent. */
function pickEvent(events: XmlElement[]): XmlElement | undefined {
  return events.find((e) => pathText(e, "DateTimeTypeCode") === "A") ?? events[0];
}

function readLeg(
  movement: XmlElement,
  index: number,
  path: string,
  quantity: Quantity | null,
  errors: ElementLocator,
): FlightLeg {
  const designator = readFlightDesignator(movement, errors, false, index);
  if (designator === null) {
    errors.fail("SpecifiedLogisticsTransportMovement", "a flight ID such as LH400", "nothing", index);
  }
  const departure = child(movement, "DepartureEvent");
  const arrival = child(movement, "ArrivalEvent");
  const origin = readAirport(
    pathText(departure, "OccurrenceDepartureLocation", "ID"),
    "OccurrenceDepartureLocation",
    errors,
    index,
  );
  const destination = readAirport(
    pathText(arrival, "OccurrenceArrivalLocation", "ID"),
    "OccurrenceArrivalLocation",
    errors,
    index,
  );
  const departureText =
    pathText(departure, "ScheduledOccurrenceDateTime") ?? pathText(departure, "DepartureOccurrenceDateTime");
  const arrivalText =
    pathText(arrival, "ScheduledOccurrenceDateTime") ?? pathText(arrival, "ArrivalOccurrenceDateTime");
  const scheduledDeparture =
    departureText === undefined ? null : readDateTime(departureText, "DepartureEvent", errors, index, origin);
  const scheduledArrival =
    arrivalText === undefined ? null : readDateTime(arrivalText, "ArrivalEvent", errors, index, destination);
  const dateSource = scheduledDeparture ?? scheduledArrival;
  if (dateSource === null) {
    errors.fail(
      "SpecifiedLogisticsTransportMovement",
      "a DepartureEvent with the flight's date-time",
      "nothing",
      index,
    );
  }
  const mode = pathText(movement, "ModeCode");
  return {
    ...designator,
    flightDay: dateSource.day,
    flightMonth: dateSource.month,
    origin,
    destination,
    scheduledDeparture,
    scheduledArrival,
    // UN/ECE Rec. 19 transport mode: 3 road (trucked leg), 4 air.
    roadFeeder: mode === "3" ? true : mode === "4" ? false : null,
    quantity,
    at: errors.at("SpecifiedLogisticsTransportMovement", path, index),
  };
}
