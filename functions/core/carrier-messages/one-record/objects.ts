/**
 * The logistics objects a LogisticsEvent points to, read for its report:
 *   eventFor         the Waybill, or a Shipment with its `waybill`, or a Piece with `ofShipment`,
 *                    embedded with `waybillPrefix`, `waybillNumber` (mod-7 check digit) and the
 *                    waybill's `departureLocation` / `arrivalLocation` (the AWB origin and destination).
 *   Location         its `locationCodes` hold the 3-letter IATA airport code (or the location is the code).
 *   recordedPieceCount, recordedWeight (Value: numericalValue + unit KGM/LBR), recordedVolume
 *                    (StatusUpdateEvent): the report's pieces and weight.
 *   transportMovementReference  a TransportMovement: `transportIdentifier` (LH400) names the flight,
 *                    dated by its OUTBOUND SCHEDULED movement time.
 */
import {
  awbCheckDigit,
  isAirportCode,
  splitFlightDesignator,
  toCubicMetres,
  volumeProblem,
  weightProblem,
} from "../common.ts";
import type { AwbId, Quantity, SourceRef, StationTime } from "../types.ts";
import {
  asNode,
  CARGO_NS,
  expandIri,
  isObject,
  type Json,
  type Located,
  literal,
  type Node,
  property,
  type Reader,
} from "./json-ld.ts";
import { codeOf, readDateTime, readValue } from "./terms.ts";

/** How far `eventFor` is followed: Piece -> Shipment -> Waybill. */
const MAX_WAYBILL_HOPS = 3;

interface WaybillRead {
  awb: AwbId;
  origin: string;
  destination: string;
  originAt: SourceRef;
  destinationAt: SourceRef;
}

const WAYBILL_EXPECTED =
  "an embedded Waybill (or Shipment with its waybill, or Piece with ofShipment) with waybillPrefix and waybillNumber";

/** The AWB of `eventFor`: the node with waybillPrefix/waybillNumber, following waybill and ofShipment. */
export function readWaybill(event: Node, reader: Reader): WaybillRead {
  // An event for no object, or for one named only by IRI or without its waybill, is well-formed ONE
  // Record the service cannot place on a per-AWB route map: 422, not a parse error.
  const forAt = property(event, "eventFor");
  if (forAt === undefined) return reader.unplaceable(event.path, WAYBILL_EXPECTED, undefined);
  return waybillOfObject(asNode(forAt), forAt, reader);
}

/** The AWB of a Waybill, or of a Shipment with its waybill, or a Piece with ofShipment. */
export function waybillOfObject(start: Node | null, forAt: Located, reader: Reader): WaybillRead {
  let node = start;
  for (let hop = 0; node !== null && hop < MAX_WAYBILL_HOPS; hop++) {
    const prefixAt = property(node, "waybillPrefix");
    const numberAt = property(node, "waybillNumber");
    if (prefixAt !== undefined || numberAt !== undefined) return waybillOf(node, prefixAt, numberAt, reader);
    const next = property(node, "waybill") ?? property(node, "ofShipment");
    node = next === undefined ? null : asNode(next);
  }
  return reader.unplaceable(
    forAt.path,
    WAYBILL_EXPECTED,
    isObject(forAt.value) ? (forAt.value["@id"] ?? "") : forAt.value,
  );
}

function waybillOf(
  node: Node,
  prefixAt: Located | undefined,
  numberAt: Located | undefined,
  reader: Reader,
): WaybillRead {
  const prefix = prefixAt === undefined ? null : literal(prefixAt);
  if (typeof prefix !== "string" || !/^\d{3}$/.test(prefix))
    reader.fail(prefixAt?.path ?? node.path, "a waybillPrefix of 3 digits such as 020", prefixAt?.value);
  const serial = numberAt === undefined ? null : literal(numberAt);
  if (typeof serial !== "string" || !/^\d{8}$/.test(serial))
    return reader.fail(
      numberAt?.path ?? node.path,
      "a waybillNumber of 8 digits such as 12345675",
      numberAt?.value,
    );
  const check = awbCheckDigit(serial);
  if (Number(serial[7]) !== check)
    reader.fail(numberAt?.path ?? node.path, `AWB serial with check digit ${check}`, serial);
  const departure = property(node, "departureLocation");
  const arrival = property(node, "arrivalLocation");
  // A waybill without its airports cannot be placed either (there is no route to put it on).
  if (departure === undefined)
    return reader.unplaceable(
      node.path,
      "the waybill's departureLocation (AWB origin airport code)",
      undefined,
    );
  if (arrival === undefined)
    return reader.unplaceable(
      node.path,
      "the waybill's arrivalLocation (AWB destination airport code)",
      undefined,
    );
  return {
    awb: { prefix: prefix as string, serial },
    origin: locationCode(departure, reader, "departureLocation"),
    destination: locationCode(arrival, reader, "arrivalLocation"),
    originAt: reader.at(departure.path),
    destinationAt: reader.at(arrival.path),
  };
}

/** The 3-letter IATA code of a Location (its locationCodes), or a location given as the code itself. */
export function locationCode(located: Located, reader: Reader, what: string): string {
  const expected = `an IATA airport code (3 letters) in ${what}'s locationCodes`;
  if (typeof located.value === "string") {
    const code = codeOf(located);
    if (code !== null && isAirportCode(code)) return code;
    return reader.fail(located.path, expected, located.value);
  }
  const node = asNode(located);
  if (node === null) return reader.fail(located.path, expected, located.value);
  for (const [key, value] of Object.entries(node.value)) {
    // Data model 3.x names the list locationCodes; the shipment-tracking good practice's Location
    // objects write a single locationCode.
    const name = expandIri(key, node.ctx, true);
    if (name !== `${CARGO_NS}locationCodes` && name !== `${CARGO_NS}locationCode`) continue;
    const list = Array.isArray(value) ? value : [value];
    for (let i = 0; i < list.length; i++) {
      const code = codeOf({ value: list[i] as Json, path: [...node.path, key, i], ctx: node.ctx });
      if (code !== null && isAirportCode(code)) return code;
    }
    return reader.fail([...node.path, key], expected, value);
  }
  return reader.fail(located.path, expected, node.value["@id"] ?? "no locationCodes");
}

/** StatusUpdateEvent's recordedPieceCount / recordedWeight / recordedVolume, when the pieces are given. */
export function readQuantity(event: Node, reader: Reader): Quantity | null {
  const piecesAt = property(event, "recordedPieceCount");
  if (piecesAt === undefined) return null;
  const pieces = literal(piecesAt);
  const count = typeof pieces === "string" && /^\d{1,4}$/.test(pieces) ? Number(pieces) : pieces;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0 || count > 9999)
    reader.fail(piecesAt.path, "a recordedPieceCount from 0 to 9999", piecesAt.value);
  let weight: number | null = null;
  let weightCode: "K" | "L" | null = null;
  const weightAt = property(event, "recordedWeight");
  const weightValue = weightAt === undefined ? null : readValue(weightAt, reader, "recordedWeight");
  if (weightValue !== null && weightAt !== undefined) {
    weightCode = weightValue.unit === "LBR" ? "L" : weightValue.unit === "KGM" ? "K" : null;
    if (weightCode === null) reader.fail(weightAt.path, "a weight unit KGM or LBR", weightValue.unit);
    const problem = weightProblem(weightValue.amount, weightCode);
    if (problem !== null) reader.fail(weightAt.path, problem, String(weightValue.amount));
    weight = weightValue.amount;
  }
  let volume: number | null = null;
  const volumeAt = property(event, "recordedVolume");
  const volumeValue = volumeAt === undefined ? null : readValue(volumeAt, reader, "recordedVolume");
  if (volumeValue !== null && volumeAt !== undefined) {
    volume = toCubicMetres(volumeValue.amount, volumeValue.unit);
    if (volume === null) reader.fail(volumeAt.path, "a volume unit such as MTQ", volumeValue.unit);
    const problem = volumeProblem(volume);
    if (problem !== null) reader.fail(volumeAt.path, problem, String(volumeValue.amount));
  }
  return {
    pieces: count as number,
    weightCode,
    weight,
    volumeCode: volume === null ? null : "CM",
    volume,
  };
}

interface MovementRead {
  carrierCode: string;
  flightNumber: string;
  scheduledDeparture: StationTime | null;
}

/** The flight of transportMovementReference (an embedded TransportMovement), or null. */
export function readMovement(event: Node, reader: Reader): MovementRead | null {
  const at = property(event, "transportMovementReference");
  const node = at === undefined ? null : asNode(at);
  if (node === null) return null;
  const idAt = property(node, "transportIdentifier");
  if (idAt === undefined) return null;
  const id = literal(idAt);
  const designator = typeof id === "string" ? splitFlightDesignator(id.replace(" ", "")) : null;
  if (designator === null) return reader.fail(idAt.path, "a transportIdentifier such as LH400", idAt.value);
  const departureAt = property(node, "departureLocation");
  const departure = departureAt === undefined ? null : locationCode(departureAt, reader, "departureLocation");
  let scheduledDeparture: StationTime | null = null;
  for (const [key, value] of Object.entries(node.value)) {
    if (expandIri(key, node.ctx, true) !== `${CARGO_NS}movementTimes`) continue;
    const list = Array.isArray(value) ? value : [value];
    list.forEach((item, i) => {
      const timeNode = asNode({ value: item, path: [...node.path, key, i], ctx: node.ctx });
      if (timeNode === null || scheduledDeparture !== null) return;
      const direction = property(timeNode, "direction");
      const type = property(timeNode, "movementTimeType");
      const stamp = property(timeNode, "movementTimestamp");
      if (direction === undefined || type === undefined || stamp === undefined) return;
      if (codeOf(direction) !== "OUTBOUND" || codeOf(type) !== "SCHEDULED") return;
      // The flight is named by its date at the departure station.
      scheduledDeparture = readDateTime(stamp, departure, reader);
    });
  }
  return { ...designator, scheduledDeparture };
}
