/**
 * Cargo-XML XFWB (IATA Waybill, `rsm:Waybill`, TypeCode 740 air waybill or 741 master) into one
 * awb-data report, read like a Cargo-IMP FWB:
 *   BusinessHeaderDocument/ID (or MasterConsignment/TransportContractDocument/ID)   the AWB
 *   MasterConsignment
 *     OriginLocation/ID, FinalDestinationLocation/ID                              AWB origin, destination
 *     TotalPieceQuantity, IncludedTareGrossWeightMeasure (or GrossWeightMeasure), GrossVolumeMeasure
 *     FreightForwarderParty: CargoAgentID (7 digits) and SpecifiedCargoAgentLocation/ID (the CASS
 *       address, 4 digits): the agent, as the FWB's AGT line names it
 *     SpecifiedLogisticsTransportMovement*: ID (the flight), ModeCode (3 road), the DepartureEvent's
 *       OccurrenceDepartureLocation and ScheduledOccurrenceDateTime, the ArrivalEvent's
 *       OccurrenceArrivalLocation: the booked legs
 * The waybill books a flight for a day, as the FWB's FLT line does (AWB box 19): a leg takes the day
 * and month of its scheduled departure, without year or time, and the core reads them in the year
 * nearest the receipt. Everything else (parties, rating, charges, customs notes) is read and not kept.
 */
import { EXPECT_AT_MOST_LEGS, MAX_ITINERARY_LEGS } from "../common.ts";
import type { AgentRef, AwbDataReport, FlightLeg } from "../types.ts";
import { child, children, type ElementLocator, pathText, type XmlElement } from "./document.ts";
import {
  readAirport,
  readAwbText,
  readDateTime,
  readFlightDesignator,
  readMessageOrigin,
  readQuantity,
} from "./fields.ts";

const AGENT_CODE_RE = /^\d{7}$/;
const CASS_RE = /^\d{4}$/;

/** Reads an XFWB from its root element (Waybill). */
export function readXfwb(root: XmlElement, errors: ElementLocator): AwbDataReport[] {
  const consignment = child(root, "MasterConsignment");
  if (consignment === undefined) errors.fail("Waybill", "a MasterConsignment element", "nothing");
  const awbText =
    pathText(consignment, "TransportContractDocument", "ID") ??
    pathText(root, "BusinessHeaderDocument", "ID");
  const awbElement =
    pathText(consignment, "TransportContractDocument", "ID") === undefined
      ? "BusinessHeaderDocument"
      : "TransportContractDocument";
  const awb = readAwbText(awbText, awbElement, errors);
  const origin = readAirport(pathText(consignment, "OriginLocation", "ID"), "OriginLocation", errors);
  const destination = readAirport(
    pathText(consignment, "FinalDestinationLocation", "ID"),
    "FinalDestinationLocation",
    errors,
  );
  const total = readQuantity(
    consignment,
    "TotalPieceQuantity",
    child(consignment, "IncludedTareGrossWeightMeasure") === undefined
      ? "GrossWeightMeasure"
      : "IncludedTareGrossWeightMeasure",
    errors,
  );
  const movements = children(consignment, "SpecifiedLogisticsTransportMovement");
  if (movements.length > MAX_ITINERARY_LEGS) {
    errors.fail(
      "SpecifiedLogisticsTransportMovement",
      EXPECT_AT_MOST_LEGS,
      `${movements.length} movements`,
      MAX_ITINERARY_LEGS,
    );
  }
  return [
    {
      awb,
      origin,
      destination,
      total,
      kind: "awb-data",
      source: "XFWB",
      message: readMessageOrigin(root, "XFWB"),
      sourceAt: {
        report: errors.at("MasterConsignment", "MasterConsignment"),
        origin: errors.at("OriginLocation", "MasterConsignment/OriginLocation/ID"),
        destination: errors.at("FinalDestinationLocation", "MasterConsignment/FinalDestinationLocation/ID"),
      },
      agent: readAgent(child(consignment, "FreightForwarderParty"), errors),
      productCode: null,
      legs: movements.map((movement, i) => readBookedLeg(movement, i, errors)),
    },
  ];
}

/** The forwarder's IATA agent code and CASS address; null when either is not given. */
function readAgent(party: XmlElement | undefined, errors: ElementLocator): AgentRef | null {
  const code = pathText(party, "CargoAgentID");
  const cass = pathText(party, "SpecifiedCargoAgentLocation", "ID");
  if (code === undefined || cass === undefined) return null;
  if (!AGENT_CODE_RE.test(code)) errors.fail("CargoAgentID", "a 7-digit IATA cargo agent numeric code", code);
  if (!CASS_RE.test(cass)) errors.fail("SpecifiedCargoAgentLocation", "a 4-digit CASS address", cass);
  return { code, cass };
}

/** A booked leg: the flight, its airports, and the day and month of its scheduled departure. */
function readBookedLeg(movement: XmlElement, index: number, errors: ElementLocator): FlightLeg {
  const designator = readFlightDesignator(movement, errors, false, index);
  if (designator === null)
    errors.fail("SpecifiedLogisticsTransportMovement", "a flight ID such as LH400", "nothing", index);
  const departure = child(movement, "DepartureEvent");
  const origin = readAirport(
    pathText(departure, "OccurrenceDepartureLocation", "ID"),
    "OccurrenceDepartureLocation",
    errors,
    index,
  );
  const destination = readAirport(
    pathText(child(movement, "ArrivalEvent"), "OccurrenceArrivalLocation", "ID"),
    "OccurrenceArrivalLocation",
    errors,
    index,
  );
  const dateText =
    pathText(departure, "ScheduledOccurrenceDateTime") ?? pathText(departure, "DepartureOccurrenceDateTime");
  if (dateText === undefined) {
    errors.fail("DepartureEvent", "the flight's ScheduledOccurrenceDateTime", "nothing", index);
  }
  const date = readDateTime(dateText, "DepartureEvent", errors, index, null);
  const mode = pathText(movement, "ModeCode");
  return {
    ...designator,
    flightDay: date.day,
    flightMonth: date.month,
    origin,
    destination,
    scheduledDeparture: null,
    scheduledArrival: null,
    // UN/ECE Rec. 19 transport mode: 3 road (trucked leg), 4 air.
    roadFeeder: mode === "3" ? true : mode === "4" ? false : null,
    quantity: null,
    at: errors.at(
      "SpecifiedLogisticsTransportMovement",
      `MasterConsignment/SpecifiedLogisticsTransportMovement[${index + 1}]`,
      index,
    ),
  };
}
