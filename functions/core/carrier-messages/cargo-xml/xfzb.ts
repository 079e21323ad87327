/**
 * Cargo-XML XFZB (IATA House Waybill, `rsm:HouseWaybill`): a house consignment under its master AWB.
 * Like a Cargo-IMP FHL it is read and checked (the master's TransportContractDocument/ID with its
 * check digit, its origin and destination) and knowingly places nothing: the route map is the
 * master's, and a house says nothing of its flights or statuses.
 */
import type { CarrierReport } from "../types.ts";
import { child, type ElementLocator, pathText, type XmlElement } from "./document.ts";
import { readAirport, readAwbText } from "./fields.ts";

/** Reads an XFZB from its root element (HouseWaybill); it yields no report. */
export function readXfzb(root: XmlElement, errors: ElementLocator): CarrierReport[] {
  const master = child(root, "MasterConsignment");
  if (master === undefined) errors.fail("HouseWaybill", "a MasterConsignment element", "nothing");
  readAwbText(pathText(master, "TransportContractDocument", "ID"), "TransportContractDocument", errors);
  readAirport(pathText(master, "OriginLocation", "ID"), "OriginLocation", errors);
  readAirport(pathText(master, "FinalDestinationLocation", "ID"), "FinalDestinationLocation", errors);
  if (child(master, "IncludedHouseConsignment") === undefined)
    errors.fail("MasterConsignment", "an IncludedHouseConsignment element", "nothing");
  return [];
}
