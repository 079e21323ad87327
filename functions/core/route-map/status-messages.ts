/**
 * The history's `StatusMessages` (our documented extension of the history response): the status
 * messages beyond the route-map milestones (FOH, MAN, TFD, ...) a shipment keeps, newest first, with
 * the route map's date-time pair format. Optional members are left out when the message did not give
 * them, and Provenance (where it came from) for one kept before provenance was.
 */
import { toPair } from "../time/station-time.ts";
import { renderProvenance } from "./provenance.ts";
import type { ShipmentState } from "./shipment-state.ts";
import type { StatusMessage } from "./spec-types.ts";

export function renderStatusMessages(state: ShipmentState): StatusMessage[] {
  return [...(state.otherStatuses ?? [])].reverse().map((o) => ({
    Code: o.code,
    Station: o.station,
    DateTime: toPair(o.station, o.atUtc),
    ...(o.flightNumber !== null ? { FlightNumber: o.flightNumber } : {}),
    ...(o.carrierCode !== null ? { CarrierCode: o.carrierCode } : {}),
    ...(o.pieces !== null ? { Pieces: o.pieces } : {}),
    ...(o.p ? { Provenance: renderProvenance(o.p, state.awb.prefix, o.station) } : {}),
  }));
}
