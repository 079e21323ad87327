/**
 * The route map exactly as the interface spec names it, derived from the shipment state at `now`.
 */
import type { MilestoneName, Quantity } from "../carrier-messages/types.ts";
import { samePlace } from "../time/places.ts";
import { normaliseUtc, toPair } from "../time/station-time.ts";
import {
  actualsByKey,
  DESTINATION_MILESTONES,
  displayLegs,
  judgeMilestone,
  type MilestoneActual,
  milestoneKey,
  ORIGIN_MILESTONES,
  ROUTING_MILESTONES,
  whereReported,
} from "./derive.ts";
import type { PlannedLeg, ShipmentState } from "./shipment-state.ts";
import type {
  CycleStatus,
  DateTimePair,
  Flight,
  Milestone,
  RouteMap,
  RouteMapStatus,
  Totals,
} from "./spec-types.ts";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** "14MAR": the flight date as carriers write it. */
function flightDate(day: number, month: number): string {
  return `${String(day).padStart(2, "0")}${MONTHS[month - 1] ?? "???"}`;
}

function toTotals(quantity: Quantity | null): Totals {
  return {
    NoOfPieces: quantity?.pieces ?? 0,
    WeightCode: quantity?.weightCode ?? null,
    Weight: quantity?.weight ?? null,
    VolumeCode: quantity?.volumeCode ?? null,
    Volume: quantity?.volume ?? null,
  };
}

/**
 * What flew on a leg, falling back to what was booked: a status line rarely carries a volume, and one
 * without any keeps the booked VolumeCode/Volume (no value is dropped, none invented).
 */
function withVolume(flown: Quantity | null, booked: Quantity | null): Quantity | null {
  if (!flown) return booked;
  if (flown.volume !== null || !booked || booked.volume === null) return flown;
  return { ...flown, volumeCode: booked.volumeCode, volume: booked.volume };
}

function pairOrNull(station: string, utc: string | null | undefined): DateTimePair | null {
  return utc ? toPair(station, utc) : null;
}

interface MilestoneContext {
  state: ShipmentState;
  actuals: Map<string, MilestoneActual>;
  now: string;
}

function renderMilestone(
  ctx: MilestoneContext,
  key: string,
  name: MilestoneName,
  station: string,
): Milestone {
  const planned = ctx.state.planned[key] ?? null;
  const actual = ctx.actuals.get(key) ?? null;
  const shownStation = whereReported(planned?.station ?? station, actual?.status?.station);
  const status = judgeMilestone(planned?.plannedUtc ?? null, actual?.atUtc ?? null, ctx.now);
  return {
    Status: status,
    ArchivedStatus: planned?.archivedStatus ?? status,
    Name: name,
    Station: shownStation,
    PlannedDateTime: pairOrNull(shownStation, planned?.plannedUtc),
    ActualDateTime: pairOrNull(shownStation, actual?.atUtc),
    IsReplanned: planned?.isReplanned ?? false,
    ActualNoOfPieces: actual ? (actual.pieces ?? ctx.state.total?.pieces ?? 0) : 0,
  };
}

function cycleStatus(milestones: readonly Milestone[]): CycleStatus {
  const reported = milestones.filter((m) => m.ActualDateTime !== null).length;
  if (reported === 0) return "Planned";
  return reported === milestones.length ? "Completed" : "Partial";
}

/** 0 all fine, 1 some Ko, 2 some Missing (Missing outweighs Ko). */
function cycleState(milestones: readonly Milestone[]): number {
  if (milestones.some((m) => m.Status === "Missing")) return 2;
  if (milestones.some((m) => m.Status === "Ko")) return 1;
  return 0;
}

function renderFlight(ctx: MilestoneContext, leg: PlannedLeg): Flight {
  const milestones = ROUTING_MILESTONES.map((name) =>
    renderMilestone(ctx, milestoneKey(leg.origin, name), name, name === "DEP" ? leg.origin : leg.destination),
  );
  const dep = ctx.actuals.get(milestoneKey(leg.origin, "DEP")) ?? null;
  const arr = ctx.actuals.get(milestoneKey(leg.origin, "ARR")) ?? null;
  // What flew on this leg: the DEP (else ARR) report's quantity, else the booking, else the consignment.
  const flown = dep?.status?.quantity ?? arr?.status?.quantity ?? null;
  return {
    FlightInfo: {
      CarrierCode: leg.carrierCode,
      Number: leg.flightNumber,
      Date: flightDate(leg.flightDay, leg.flightMonth),
      Scheduled: {
        DepartureDateTime: pairOrNull(leg.origin, leg.stdUtc),
        ArrivalDateTime: pairOrNull(leg.destination, leg.staUtc),
      },
      Actual:
        dep || arr
          ? {
              DepartureDateTime: pairOrNull(leg.origin, dep?.atUtc),
              ArrivalDateTime: pairOrNull(leg.destination, arr?.atUtc),
            }
          : null,
      Routing: { Origin: leg.origin, Destination: leg.destination },
      isRoadFeederService: leg.roadFeeder,
    },
    Total: toTotals(withVolume(flown, leg.bookedQuantity ?? ctx.state.total)),
    PlannedTotal: leg.bookedQuantity ? toTotals(leg.bookedQuantity) : null,
    Milestone: milestones,
  };
}

/** Booked -> Accepted (RCS) -> OnAir (first DEP) -> AtDestination (arrived at the final destination). */
function routeMapStatus(state: ShipmentState): RouteMapStatus {
  if (state.cancelled) return "Cancelled";
  const reported = (code: string, station?: string) =>
    state.statuses.some((s) => s.status === code && (station === undefined || samePlace(s.station, station)));
  if (
    reported("ARR", state.destination) ||
    reported("RCF", state.destination) ||
    DESTINATION_MILESTONES.some((name) => reported(name))
  ) {
    return "AtDestination";
  }
  if (reported("DEP")) return "OnAir";
  if (reported("RCS")) return "Accepted";
  return "Booked";
}

/** Renders the route map at `now` (ISO UTC): Missing is judged against it. */
export function renderRouteMap(state: ShipmentState, now: string): RouteMap {
  const legs = displayLegs(state);
  const ctx: MilestoneContext = { state, actuals: actualsByKey(state, legs), now: normaliseUtc(now) };
  const originMilestones = ORIGIN_MILESTONES.map((name) =>
    renderMilestone(ctx, milestoneKey(state.origin, name), name, state.origin),
  );
  const flights = legs.map((leg) => renderFlight(ctx, leg));
  const routingMilestones = flights.flatMap((f) => f.Milestone);
  const destinationMilestones = DESTINATION_MILESTONES.map((name) =>
    renderMilestone(ctx, milestoneKey(state.destination, name), name, state.destination),
  );
  const rcs = ctx.actuals.get(milestoneKey(state.origin, "RCS"));
  const nfd = ctx.actuals.get(milestoneKey(state.destination, "NFD"));
  const anyReplanned = (ms: readonly Milestone[]) => ms.some((m) => m.IsReplanned);

  return {
    MilestonePlan: {
      OriginCycle: {
        Milestone: originMilestones,
        Status: cycleStatus(originMilestones),
        isReplanned: anyReplanned(originMilestones),
      },
      RoutingCycle: {
        Flight: flights,
        Status: cycleStatus(routingMilestones),
        isReplanned: anyReplanned(routingMilestones),
      },
      DestinationCycle: {
        Milestone: destinationMilestones,
        Status: cycleStatus(destinationMilestones),
        isReplanned: anyReplanned(destinationMilestones),
      },
    },
    LastUpdate: normaliseUtc(state.lastUpdate),
    Shipment: {
      AirlinePrefix: state.awb.prefix,
      AwbNumber: state.awb.serial,
      Routing: { Origin: state.origin, Destination: state.destination },
      Total: toTotals(state.total),
    },
    DeliveryDate: pairOrNull(state.destination, nfd?.atUtc),
    ReceiptDate: pairOrNull(state.origin, rcs?.atUtc),
    ProductCode: state.productCode,
    IsRoadFeederService: legs.some((leg) => leg.roadFeeder),
    Status: routeMapStatus(state),
    IsReplanned: state.isReplanned,
    RoutingIsReplanned: state.routingIsReplanned,
    OriginState: cycleState(originMilestones),
    RoutingState: cycleState(routingMilestones),
    DestinationState: cycleState(destinationMilestones),
    Origin: null,
    Routing: null,
    Destination: null,
    CreationDate: toPair(state.origin, state.createdAt),
  };
}
