/**
 * The logistics objects of one route map, shaped as the shipment-tracking good practice shapes a
 * tracking server's: a Waybill (MASTER) pointing to its Shipment and its departure and arrival
 * Locations, the Shipment with its totals, one TransportMovement per flight leg
 * (`transportIdentifier` LH400/14MAR2027, scheduled and actual movement times) and Locations by IATA
 * code. Links are `{ "@id" }` references; `embedded` writes the linked objects in place instead.
 */
import type { AwbId } from "../carrier-messages/types.ts";
import type { Flight, RouteMap, Totals } from "../route-map/spec-types.ts";
import { objectId } from "./ids.ts";
import { CONTEXT, dateTime, type JsonLd, ref, unitIri } from "./vocabulary.ts";

/** Where the objects live: `{base}/logistics-objects/{id}`. */
export interface Links {
  /** The ONE Record base URL, e.g. https://api.example.com/onerecord (no trailing slash). */
  base: string;
}

export const objectUrl = (links: Links, id: string) => `${links.base}/logistics-objects/${id}`;
export const locationUrl = (links: Links, code: string) => objectUrl(links, code);

export function awbOf(map: RouteMap): AwbId {
  return { prefix: map.Shipment.AirlinePrefix, serial: map.Shipment.AwbNumber };
}

export function location(links: Links, code: string): JsonLd {
  return {
    "@id": locationUrl(links, code),
    "@type": "cargo:Location",
    "cargo:locationCodes": [
      { "@type": "cargo:CodeListElement", "cargo:code": code, "cargo:codeListName": "IATA airport codes" },
    ],
    "cargo:locationType": "Airport",
  };
}

const linkOrEmbed = (links: Links, code: string, embedded: boolean) =>
  embedded ? location(links, code) : ref(locationUrl(links, code));

function value(amount: number, unit: string): JsonLd {
  return { "@type": "cargo:Value", "cargo:numericalValue": amount, "cargo:unit": ref(unitIri(unit)) };
}

const WEIGHT_UNITS: Record<string, string> = { K: "KGM", L: "LBR" };

function totals(total: Totals): JsonLd {
  const out: JsonLd = { "rmt:totalPieceCount": total.NoOfPieces };
  if (total.Weight !== null)
    out["cargo:totalGrossWeight"] = value(total.Weight, WEIGHT_UNITS[total.WeightCode ?? "K"] ?? "KGM");
  // The route map keeps volumes in cubic metres (VolumeCode MC).
  if (total.Volume !== null) out["cargo:totalVolume"] = value(total.Volume, "MTQ");
  return out;
}

/** LH400/14MAR2027: the flight and its scheduled departure date at the departure station. */
export function transportIdentifier(flight: Flight): string {
  const info = flight.FlightInfo;
  const local = info.Scheduled.DepartureDateTime?.Local;
  const year = local ? local.slice(0, 4) : "";
  return `${info.CarrierCode}${info.Number}/${info.Date}${year}`;
}

export function waybill(links: Links, map: RouteMap, embedded = false): JsonLd {
  const awb = awbOf(map);
  const { Origin, Destination } = map.Shipment.Routing;
  return {
    "@id": objectUrl(links, objectId("Waybill", awb)),
    "@type": "cargo:Waybill",
    "cargo:waybillPrefix": awb.prefix,
    "cargo:waybillNumber": awb.serial,
    "cargo:waybillType": ref("cargo:MASTER"),
    "cargo:departureLocation": linkOrEmbed(links, Origin, embedded),
    "cargo:arrivalLocation": linkOrEmbed(links, Destination, embedded),
    "cargo:shipment": embedded
      ? shipment(links, map, false)
      : ref(objectUrl(links, objectId("Shipment", awb))),
  };
}

/** A Shipment links only back to its Waybill, so embedding changes nothing in it. */
export function shipment(links: Links, map: RouteMap, _embedded = false): JsonLd {
  const awb = awbOf(map);
  return {
    "@id": objectUrl(links, objectId("Shipment", awb)),
    "@type": "cargo:Shipment",
    ...totals(map.Shipment.Total),
    "cargo:waybill": ref(objectUrl(links, objectId("Waybill", awb))),
  };
}

function movementTimes(flight: Flight): JsonLd[] {
  const times: JsonLd[] = [];
  const add = (utc: string | undefined, direction: "OUTBOUND" | "INBOUND", type: "SCHEDULED" | "ACTUAL") => {
    if (utc === undefined) return;
    times.push({
      "@type": "cargo:MovementTime",
      "cargo:direction": ref(`cargo:${direction}`),
      "cargo:movementTimeType": ref(`cargo:${type}`),
      "cargo:movementTimestamp": dateTime(utc),
    });
  };
  const { Scheduled, Actual } = flight.FlightInfo;
  add(Scheduled.DepartureDateTime?.Utc, "OUTBOUND", "SCHEDULED");
  add(Scheduled.ArrivalDateTime?.Utc, "INBOUND", "SCHEDULED");
  add(Actual?.DepartureDateTime?.Utc, "OUTBOUND", "ACTUAL");
  add(Actual?.ArrivalDateTime?.Utc, "INBOUND", "ACTUAL");
  return times;
}

/** The flights of the route, in order (leg 1 first). */
export const flightsOf = (map: RouteMap): Flight[] => map.MilestonePlan.RoutingCycle.Flight;

export function transportMovement(links: Links, map: RouteMap, leg: number, embedded = false): JsonLd | null {
  const flight = flightsOf(map)[leg - 1];
  if (flight === undefined) return null;
  const { Origin, Destination } = flight.FlightInfo.Routing;
  return {
    "@id": objectUrl(links, objectId("TransportMovement", awbOf(map), leg)),
    "@type": "cargo:TransportMovement",
    "cargo:transportIdentifier": transportIdentifier(flight),
    "cargo:modeCode": flight.FlightInfo.isRoadFeederService ? "ROAD" : "AIR",
    "cargo:departureLocation": linkOrEmbed(links, Origin, embedded),
    "cargo:arrivalLocation": linkOrEmbed(links, Destination, embedded),
    "cargo:movementTimes": movementTimes(flight),
  };
}

/** A document: the object with the context in front. */
export const document = (object: JsonLd): JsonLd => ({ "@context": CONTEXT, ...object });
