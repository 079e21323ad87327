/**
 * The fields Cargo-XML messages share: the AWB of a TransportContractDocument, airports, a
 * transport movement's flight, date-times and the quantity measures. Each refuses with a 400 naming
 * the element's line.
 *
 * Date-times are station-local with a year (`2026-03-14T13:41:00`). One sent with `Z` or an offset
 * (`+01:00`) names an exact instant: it is converted to the station's local time, keeping the
 * station's offset so the UTC instant stays exact. Weights and volumes must be plausible (common.ts:
 * 0, or 0.001 up to 1,000 t / 100,000 m³).
 */
import { UnknownStationError } from "../../errors.ts";
import { stationTimeAt } from "../../time/station-time.ts";
import {
  awbCheckDigit,
  daysInMonth,
  isAirportCode,
  isCarrierCode,
  isFlightNumber,
  splitFlightDesignator,
  toCubicMetres,
  volumeProblem,
  weightProblem,
} from "../common.ts";
import type { AwbId, MessageOrigin, Quantity, StationTime } from "../types.ts";
import { attribute, child, type ElementLocator, pathText, textOf, type XmlElement } from "./document.ts";

const AWB_RE = /^(\d{3})-?(\d{8})$/;
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|([+-])(\d{2}):?(\d{2}))?$/;
const NUMBER_RE = /^\d{1,9}(?:\.\d{1,6})?$/;
const INTEGER_RE = /^\d{1,6}$/;

/** A movement's flight: `ID` LH400, or the number with CarrierParty/PrimaryID; null without an ID. */
export function readFlightDesignator(
  movement: XmlElement,
  errors: ElementLocator,
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

/** The AWB of TransportContractDocument/ID (`020-12345675` or `02012345675`), check digit checked. */
export function readAwb(consignment: XmlElement, errors: ElementLocator): AwbId {
  const id = pathText(consignment, "TransportContractDocument", "ID");
  if (id === undefined) {
    errors.fail(
      "MasterConsignment",
      "a TransportContractDocument ID with the AWB number such as 020-12345675",
      "nothing",
    );
  }
  return readAwbText(id, "TransportContractDocument", errors);
}

/** An AWB number written in `element` (`020-12345675` or `02012345675`), check digit checked. */
export function readAwbText(id: string | undefined, element: string, errors: ElementLocator): AwbId {
  const m = id === undefined ? null : AWB_RE.exec(id);
  if (m === null) errors.fail(element, "an AWB number such as 020-12345675", id);
  const serial = m[2] as string;
  const check = awbCheckDigit(serial);
  if (Number(serial[7]) !== check) errors.fail(element, `AWB serial with check digit ${check}`, id);
  return { prefix: m[1] as string, serial };
}

/** A 3-letter airport code, refused naming `element` (its `occurrence`-th one). */
export function readAirport(
  value: string | undefined,
  element: string,
  errors: ElementLocator,
  occurrence = 0,
): string {
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
export function readDateTime(
  value: string | undefined,
  element: string,
  errors: ElementLocator,
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
  errors: ElementLocator,
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

/** Pieces, weight and volume of `node` (volume in cubic metres); null when it gives no pieces. */
export function readQuantity(
  node: XmlElement,
  piecesElement: string,
  weightElement: string,
  errors: ElementLocator,
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

/** The consignment total: the Total... elements when sent, else PieceQuantity and GrossWeightMeasure. */
export function readTotal(consignment: XmlElement, errors: ElementLocator): Quantity | null {
  const totalPieces = pathText(consignment, "TotalPieceQuantity") !== undefined;
  const totalWeight = child(consignment, "TotalGrossWeightMeasure") !== undefined;
  return readQuantity(
    consignment,
    totalPieces ? "TotalPieceQuantity" : "PieceQuantity",
    totalWeight ? "TotalGrossWeightMeasure" : "GrossWeightMeasure",
    errors,
  );
}

/**
 * The message a Cargo-XML document is: its type (XFSU, XFWB, ...), the schema version its
 * MessageHeaderDocument names (VersionID, e.g. "3.00") and its message id (ID), when given.
 */
export function readMessageOrigin(root: XmlElement, type: string): MessageOrigin {
  return {
    type,
    version: pathText(root, "MessageHeaderDocument", "VersionID") ?? null,
    id: pathText(root, "MessageHeaderDocument", "ID") ?? null,
  };
}
