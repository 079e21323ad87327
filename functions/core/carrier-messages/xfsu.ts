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
 * Date-times are station-local with a year (`2026-03-14T13:41:00`). One sent with `Z` or an offset
 * (`+01:00`) names an exact instant: it is converted to the station's local time, keeping the
 * station's offset so the UTC instant stays exact. A flight is identified by its scheduled departure
 * date (ScheduledOccurrenceDateTime before DepartureOccurrenceDateTime), as the booking names it.
 * Several movements in a BKD state the whole itinerary, like a multi-line FSU/BKD. Standard codes we
 * do not track (FOH, MAN, ...) are skipped. Errors and reports carry the line of their element (the
 * n-th occurrence of that element name) and its path, e.g. `MasterConsignment/ReportedStatus[2]`.
 * Weights and volumes must be plausible (common.ts: 0, or 0.001 up to 1,000 t / 100,000 m³); times
 * with a year must lie near receipt (plausible-times.ts, checked by the caller with the receipt time).
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { MessageParseError, UnknownStationError } from "../errors.ts";
import { stationTimeAt } from "../time/station-time.ts";
import {
  awbCheckDigit,
  daysInMonth,
  EXPECT_AT_MOST_LEGS,
  isAirportCode,
  isCarrierCode,
  isFlightNumber,
  MAX_ITINERARY_LEGS,
  splitFlightDesignator,
  toCubicMetres,
  truncateFound,
  UNTRACKED_FSU_CODES,
  volumeProblem,
  weightProblem,
} from "./common.ts";
import type {
  AwbId,
  BookingReport,
  CarrierReport,
  FlightLeg,
  Quantity,
  ReportedStatusCode,
  SourceRef,
  StationTime,
  StatusReport,
} from "./types.ts";

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
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))?$/;
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

const OPENING_TAG_RE = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s>/]/g;

/** Locates elements (for errors and for the reports' source lines): the line of the n-th opening tag with a local name. */
class XfsuErrors {
  private linesByName: Map<string, number[]> | null = null;

  constructor(private readonly xml: string) {}

  /** 1 when there is no such element. */
  lineOf(localName: string, occurrence = 0): number {
    return this.index().get(localName)?.[occurrence] ?? 1;
  }

  at(localName: string, path: string, occurrence = 0): SourceRef {
    return { line: this.lineOf(localName, occurrence), path };
  }

  /** One pass over the document, on first use: the lines of every opening tag by local name. */
  private index(): Map<string, number[]> {
    if (this.linesByName !== null) return this.linesByName;
    const byName = new Map<string, number[]>();
    const re = new RegExp(OPENING_TAG_RE.source, "g");
    let line = 1;
    let scanned = 0;
    for (let match = re.exec(this.xml); match !== null; match = re.exec(this.xml)) {
      for (; scanned < match.index; scanned++) if (this.xml.charCodeAt(scanned) === 10) line++;
      const name = match[1] as string;
      const lines = byName.get(name);
      if (lines === undefined) byName.set(name, [line]);
      else lines.push(line);
    }
    this.linesByName = byName;
    return byName;
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

type LocatedBase = Pick<StatusReport, "awb" | "origin" | "destination" | "total" | "sourceAt">;

function readStatus(
  code: string,
  asc: XmlElement,
  base: LocatedBase,
  ascPath: string,
  counter: { movements: number },
  errors: XfsuErrors,
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
  errors: XfsuErrors,
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

function readFlightDesignator(
  movement: XmlElement,
  errors: XfsuErrors,
  optional: boolean,
  occurrence = 0,
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
  return errors.fail("SpecifiedLogisticsTransportMovement", "a flight ID such as LH400", id, occurrence);
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

function readAirport(value: string | undefined, element: string, errors: XfsuErrors, occurrence = 0): string {
  if (value === undefined || !isAirportCode(value)) {
    errors.fail(element, "a 3-letter airport code such as FRA", value, occurrence);
  }
  return value;
}

/**
 * A date-time at `station`. Without offset it is the station's local time as sent. With `Z` or an
 * offset it is an exact instant, turned into the station's local time (and offset) here; when the
 * station is not named (null) or unknown, the local part is taken as written.
 */
function readDateTime(
  value: string | undefined,
  element: string,
  errors: XfsuErrors,
  occurrence: number,
  station: string | null,
): StationTime {
  const m = value === undefined ? null : DATE_TIME_RE.exec(value);
  if (m === null) errors.fail(element, "a local date-time such as 2026-03-14T13:41:00", value, occurrence);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(month, year) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    errors.fail(element, "a valid local date-time such as 2026-03-14T13:41:00", value, occurrence);
  }
  const written: StationTime = { year, month, day, hour, minute, dayOffset: 0 };
  if (m[7] === undefined || station === null) return written;
  let offsetMinutes = 0;
  if (m[7] !== "Z") {
    const offsetHours = Number(m[9]);
    const offsetRest = Number(m[10]);
    if (offsetHours > 14 || offsetRest > 59) {
      errors.fail(element, "a UTC offset between -14:00 and +14:00", value, occurrence);
    }
    offsetMinutes = (m[8] === "-" ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const instantMs = Date.UTC(year, month - 1, day, hour, minute, Number(m[6] ?? 0)) - offsetMinutes * 60_000;
  try {
    return stationTimeAt(station, instantMs);
  } catch (error) {
    // The station itself is refused before anything is stored (naming its element), not here.
    if (error instanceof UnknownStationError) return written;
    throw error;
  }
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
  const weight = Number(text);
  const problem = weightProblem(weight, weightCode);
  if (problem !== null) errors.fail(element, problem, text);
  return { weight, weightCode };
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
    const problem = volumeProblem(volume);
    if (problem !== null) errors.fail("GrossVolumeMeasure", problem, volumeText);
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
