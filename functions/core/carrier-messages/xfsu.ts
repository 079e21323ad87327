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
 * Date-times are station-local with a year (`2026-03-14T13:41:00`); an offset, if sent, is ignored
 * because the local part is what the station reported. Several movements in a BKD state the whole
 * itinerary, like a multi-line FSU/BKD. Standard codes we do not track (FOH, MAN, ...) are skipped.
 * Errors carry the line of the offending element (first occurrence of that element name).
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  awbCheckDigit,
  daysInMonth,
  isAirportCode,
  isCarrierCode,
  isFlightNumber,
  splitFlightDesignator,
  toCubicMetres,
  truncateFound,
  UNTRACKED_FSU_CODES,
} from "./common.ts";
import type {
  AwbId,
  BookingReport,
  CarrierReport,
  FlightLeg,
  Quantity,
  ReportedStatusCode,
  StationTime,
  StatusReport,
} from "./types.ts";
import { MessageParseError } from "./types.ts";

const ARRAY_ELEMENTS: ReadonlySet<string> = new Set([
  "ReportedStatus",
  "AssociatedStatusConsignment",
  "SpecifiedLogisticsTransportMovement",
  "SpecifiedEvent",
]);

const xmlParser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // No DOCTYPE entity expansion: a status message never needs it and it is an attack surface.
  processEntities: false,
  isArray: (name) => ARRAY_ELEMENTS.has(name),
});

const AWB_RE = /^(\d{3})-?(\d{8})$/;
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const NUMBER_RE = /^\d{1,9}(?:\.\d{1,6})?$/;
const INTEGER_RE = /^\d{1,6}$/;
const STATUS_CODE_RE = /^[A-Z]{3}$/;

const TRACKED_STATUS_CODES: ReadonlySet<string> = new Set(["RCS", "DEP", "ARR", "RCF", "NFD", "AWD", "DLV"]);

/** A parsed XML element: text, or an object of children / attributes (`@_name`) / text (`#text`). */
type XmlElement = string | { [name: string]: unknown };

function isElement(value: unknown): value is XmlElement {
  return typeof value === "string" || (typeof value === "object" && value !== null && !Array.isArray(value));
}

function children(node: XmlElement | undefined, name: string): XmlElement[] {
  if (node === undefined || typeof node === "string") return [];
  const value = node[name];
  if (Array.isArray(value)) return value.filter(isElement);
  return isElement(value) ? [value] : [];
}

function child(node: XmlElement | undefined, name: string): XmlElement | undefined {
  return children(node, name)[0];
}

function textOf(node: XmlElement | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (typeof node === "string") return node === "" ? undefined : node;
  const text = node["#text"];
  return typeof text === "string" && text !== "" ? text : undefined;
}

function attribute(node: XmlElement | undefined, name: string): string | undefined {
  if (node === undefined || typeof node === "string") return undefined;
  const value = node[`@_${name}`];
  return typeof value === "string" ? value : undefined;
}

function pathText(node: XmlElement | undefined, ...path: string[]): string | undefined {
  let current = node;
  for (const name of path) current = child(current, name);
  return textOf(current);
}

/** Locates errors: the line of the n-th opening tag with this local name (1 when absent). */
class XfsuErrors {
  constructor(private readonly xml: string) {}

  lineOf(localName: string, occurrence = 0): number {
    const re = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${localName}[\\s>/]`, "g");
    let match: RegExpExecArray | null = null;
    for (let i = 0; i <= occurrence; i++) {
      match = re.exec(this.xml);
      if (match === null) return 1;
    }
    if (match === null) return 1;
    let line = 1;
    for (let i = 0; i < match.index; i++) if (this.xml.charCodeAt(i) === 10) line++;
    return line;
  }

  fail(element: string, expected: string, found: string | undefined, occurrence = 0): never {
    throw new MessageParseError(
      this.lineOf(element, occurrence),
      expected,
      truncateFound(found ?? "nothing"),
    );
  }
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parses one XFSU document. */
export function parseXfsu(xml: string): CarrierReport[] {
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    throw new MessageParseError(validation.err.line, "well-formed XML", truncateFound(validation.err.msg));
  }
  // Document type declarations (and with them entities, internal or external) have no place in an
  // XFSU: refuse them outright rather than let the parser decide what to expand.
  const doctype = /<!DOCTYPE/i.exec(xml);
  if (doctype) {
    throw new MessageParseError(
      lineOf(xml, doctype.index),
      "an XFSU document without a DOCTYPE declaration",
      "<!DOCTYPE",
    );
  }
  const errors: XfsuErrors = new XfsuErrors(xml);
  let parsed: unknown;
  try {
    parsed = xmlParser.parse(xml);
  } catch (error) {
    throw new MessageParseError(
      1,
      "well-formed XML",
      truncateFound(error instanceof Error ? error.message : String(error)),
    );
  }
  const root = isElement(parsed) ? child(parsed, "StatusMessage") : undefined;
  if (root === undefined) {
    const found =
      isElement(parsed) && typeof parsed !== "string" ? Object.keys(parsed).find((k) => k !== "?xml") : "";
    throw new MessageParseError(1, "an XFSU StatusMessage document", truncateFound(found ?? "nothing"));
  }
  const consignment = child(root, "MasterConsignment");
  if (consignment === undefined) errors.fail("StatusMessage", "a MasterConsignment element", "nothing");
  const base = {
    awb: readAwb(consignment, errors),
    origin: readAirport(pathText(consignment, "OriginLocation", "ID"), "OriginLocation", errors),
    destination: readAirport(
      pathText(consignment, "FinalDestinationLocation", "ID"),
      "FinalDestinationLocation",
      errors,
    ),
    total: readTotal(consignment, errors),
  };
  const statuses = children(consignment, "ReportedStatus");
  if (statuses.length === 0) errors.fail("MasterConsignment", "a ReportedStatus element", "nothing");
  const reports: CarrierReport[] = [];
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
    for (const asc of consignments) {
      const report = readStatus(code, asc, base, errors);
      if (report !== null) reports.push(report);
    }
  });
  return reports;
}

type ReportBase = Pick<StatusReport, "awb" | "origin" | "destination" | "total">;

function readStatus(
  code: string,
  asc: XmlElement,
  base: ReportBase,
  errors: XfsuErrors,
): CarrierReport | null {
  const movements = children(asc, "SpecifiedLogisticsTransportMovement");
  const quantity = readQuantity(asc, "PieceQuantity", "GrossWeightMeasure", errors);
  if (code === "BKD") {
    if (movements.length === 0) {
      errors.fail(
        "AssociatedStatusConsignment",
        "a SpecifiedLogisticsTransportMovement for the booked flight",
        "nothing",
      );
    }
    const legs = movements.map((m, i) => readLeg(m, i, quantity, errors));
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
    const station =
      pathText(asc, "SpecifiedLocation", "ID") ?? pathText(movements[0], "SpecifiedLocation", "ID");
    return {
      ...base,
      kind: "cancellation",
      time: event === undefined ? null : readDateTime(eventTime(event), "SpecifiedEvent", errors),
      station: station === undefined ? null : readAirport(station, "SpecifiedLocation", errors),
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
  const time = readDateTime(timeText, timeElement, errors);
  let flight: StatusReport["flight"] = null;
  if (movement !== undefined && (status === "DEP" || status === "ARR" || status === "RCF")) {
    const designator = readFlightDesignator(movement, errors, true);
    if (designator !== null) {
      // The flight date is its departure date when sent, else the event's date (best effort).
      const dateText =
        pathText(departure, "DepartureOccurrenceDateTime") ??
        pathText(departure, "ScheduledOccurrenceDateTime");
      const date = dateText === undefined ? time : readDateTime(dateText, "DepartureEvent", errors);
      flight = { ...designator, flightDay: date.day, flightMonth: date.month };
    }
  }
  const deliveredTo = status === "DLV" ? (pathText(asc, "DeliveryParty", "Name") ?? null) : null;
  return {
    ...base,
    kind: "status",
    status,
    station: readAirport(stationText, "SpecifiedLocation", errors),
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
  quantity: Quantity | null,
  errors: XfsuErrors,
): FlightLeg {
  const designator = readFlightDesignator(movement, errors, false);
  if (designator === null) {
    errors.fail("SpecifiedLogisticsTransportMovement", "a flight ID such as LH400", "nothing", index);
  }
  const departure = child(movement, "DepartureEvent");
  const arrival = child(movement, "ArrivalEvent");
  const departureText =
    pathText(departure, "ScheduledOccurrenceDateTime") ?? pathText(departure, "DepartureOccurrenceDateTime");
  const arrivalText =
    pathText(arrival, "ScheduledOccurrenceDateTime") ?? pathText(arrival, "ArrivalOccurrenceDateTime");
  const scheduledDeparture =
    departureText === undefined ? null : readDateTime(departureText, "DepartureEvent", errors, index);
  const scheduledArrival =
    arrivalText === undefined ? null : readDateTime(arrivalText, "ArrivalEvent", errors, index);
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
    origin: readAirport(
      pathText(departure, "OccurrenceDepartureLocation", "ID"),
      "OccurrenceDepartureLocation",
      errors,
    ),
    destination: readAirport(
      pathText(arrival, "OccurrenceArrivalLocation", "ID"),
      "OccurrenceArrivalLocation",
      errors,
    ),
    scheduledDeparture,
    scheduledArrival,
    // UN/ECE Rec. 19 transport mode: 3 road (trucked leg), 4 air.
    roadFeeder: mode === "3" ? true : mode === "4" ? false : null,
    quantity,
  };
}

function readFlightDesignator(
  movement: XmlElement,
  errors: XfsuErrors,
  optional: boolean,
): { carrierCode: string; flightNumber: string } | null {
  const id = pathText(movement, "ID");
  if (id === undefined) return null;
  const compact = id.replace(" ", "");
  const whole = splitFlightDesignator(compact);
  if (whole !== null) return whole;
  const carrier = pathText(movement, "CarrierParty", "PrimaryID");
  if (carrier !== undefined && isCarrierCode(carrier) && isFlightNumber(compact)) {
    return { carrierCode: carrier, flightNumber: compact };
  }
  if (optional && compact === "") return null;
  return errors.fail("SpecifiedLogisticsTransportMovement", "a flight ID such as LH400", id);
}

function readAwb(consignment: XmlElement, errors: XfsuErrors): AwbId {
  const id = pathText(consignment, "TransportContractDocument", "ID");
  if (id === undefined) {
    errors.fail(
      "MasterConsignment",
      "a TransportContractDocument ID with the AWB number such as 020-12345675",
      "nothing",
    );
  }
  const m = AWB_RE.exec(id);
  if (m === null) errors.fail("TransportContractDocument", "an AWB number such as 020-12345675", id);
  const serial = m[2] as string;
  const check = awbCheckDigit(serial);
  if (Number(serial[7]) !== check)
    errors.fail("TransportContractDocument", `AWB serial with check digit ${check}`, id);
  return { prefix: m[1] as string, serial };
}

function readAirport(value: string | undefined, element: string, errors: XfsuErrors): string {
  if (value === undefined || !isAirportCode(value)) {
    errors.fail(element, "a 3-letter airport code such as FRA", value);
  }
  return value;
}

function readDateTime(
  value: string | undefined,
  element: string,
  errors: XfsuErrors,
  occurrence = 0,
): StationTime {
  const m = value === undefined ? null : DATE_TIME_RE.exec(value);
  if (m === null) errors.fail(element, "a local date-time such as 2026-03-14T13:41:00", value, occurrence);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(month, year) || hour > 23 || minute > 59) {
    errors.fail(element, "a valid local date-time such as 2026-03-14T13:41:00", value, occurrence);
  }
  return { year, month, day, hour, minute, dayOffset: 0 };
}

function readWeight(
  node: XmlElement | undefined,
  errors: XfsuErrors,
  element: string,
): { weight: number | null; weightCode: "K" | "L" | null } {
  const text = textOf(node);
  if (text === undefined) return { weight: null, weightCode: null };
  if (!NUMBER_RE.test(text)) errors.fail(element, "a weight such as 250.5", text);
  const unit = attribute(node, "unitCode");
  const weightCode: "K" | "L" | null =
    unit === "LBR" || unit === "L" ? "L" : unit === "KGM" || unit === "K" || unit === undefined ? "K" : null;
  if (weightCode === null) errors.fail(element, "a weight unitCode KGM or LBR", unit);
  return { weight: Number(text), weightCode };
}

function readQuantity(
  node: XmlElement,
  piecesElement: string,
  weightElement: string,
  errors: XfsuErrors,
): Quantity | null {
  const piecesText = pathText(node, piecesElement);
  if (piecesText === undefined) return null;
  if (!INTEGER_RE.test(piecesText)) errors.fail(piecesElement, "a number of pieces such as 10", piecesText);
  const { weight, weightCode } = readWeight(child(node, weightElement), errors, weightElement);
  const volumeNode = child(node, "GrossVolumeMeasure");
  const volumeText = textOf(volumeNode);
  let volume: number | null = null;
  if (volumeText !== undefined) {
    if (!NUMBER_RE.test(volumeText)) errors.fail("GrossVolumeMeasure", "a volume such as 1.5", volumeText);
    volume = toCubicMetres(Number(volumeText), attribute(volumeNode, "unitCode") ?? "MTQ");
    if (volume === null)
      errors.fail("GrossVolumeMeasure", "a volume unitCode such as MTQ", attribute(volumeNode, "unitCode"));
  }
  return {
    pieces: Number(piecesText),
    weightCode,
    weight,
    volumeCode: volume === null ? null : "CM",
    volume,
  };
}

function readTotal(consignment: XmlElement, errors: XfsuErrors): Quantity | null {
  const totalPieces = pathText(consignment, "TotalPieceQuantity") !== undefined;
  const totalWeight = child(consignment, "TotalGrossWeightMeasure") !== undefined;
  return readQuantity(
    consignment,
    totalPieces ? "TotalPieceQuantity" : "PieceQuantity",
    totalWeight ? "TotalGrossWeightMeasure" : "GrossWeightMeasure",
    errors,
  );
}
