/**
 * Pure readings of a route map for the app: the timeline's sections, whether a shipment is an
 * exception, and what changed between two snapshots. Types come from the service's own spec types
 * (type-only imports: nothing of the core is bundled).
 */
import type {
  DateTimePair,
  Flight,
  Milestone,
  RouteMap,
  RouteMapHistory,
  RouteMapSearchResult,
  RouteMapStatus,
} from "../../../functions/core/route-map/spec-types.ts";

export type {
  DateTimePair,
  Flight,
  Milestone,
  RouteMap,
  RouteMapHistory,
  RouteMapSearchResult,
  RouteMapStatus,
};

export const ROUTE_MAP_STATUSES: readonly RouteMapStatus[] = [
  "Booked",
  "Accepted",
  "OnAir",
  "AtDestination",
  "Cancelled",
];

/** The 11-digit AWB of a route map ("02012345675"). */
export const awbOf = (map: RouteMap): string => `${map.Shipment.AirlinePrefix}${map.Shipment.AwbNumber}`;

/** "LH400 FRA → JFK"; a road-feeder leg is "Truck LH9350 HAJ → FRA". */
export function flightTitle(flight: Flight): string {
  const info = flight.FlightInfo;
  const title = `${info.CarrierCode}${info.Number} ${info.Routing.Origin} → ${info.Routing.Destination}`;
  return info.isRoadFeederService ? `Truck ${title}` : title;
}

export interface TimelineSection {
  /** Stable key across snapshots: "origin", "flight:LH400:FRA:JFK", "destination". */
  key: string;
  title: string;
  flight: Flight | null;
  milestones: Milestone[];
  replanned: boolean;
}

export function timelineSections(map: RouteMap): TimelineSection[] {
  const plan = map.MilestonePlan;
  return [
    {
      key: "origin",
      title: "Origin",
      flight: null,
      milestones: plan.OriginCycle.Milestone,
      replanned: plan.OriginCycle.isReplanned,
    },
    ...plan.RoutingCycle.Flight.map((flight) => ({
      key: `flight:${flight.FlightInfo.CarrierCode}${flight.FlightInfo.Number}:${flight.FlightInfo.Routing.Origin}:${flight.FlightInfo.Routing.Destination}`,
      title: flightTitle(flight),
      flight,
      milestones: flight.Milestone,
      replanned: flight.Milestone.some((milestone) => milestone.IsReplanned),
    })),
    {
      key: "destination",
      title: "Destination",
      flight: null,
      milestones: plan.DestinationCycle.Milestone,
      replanned: plan.DestinationCycle.isReplanned,
    },
  ];
}

export const allMilestones = (map: RouteMap): Milestone[] =>
  timelineSections(map).flatMap((section) => section.milestones);

/** What makes a shipment an exception: its Ko and Missing milestones, and whether it was replanned. */
export function exceptionsOf(map: RouteMap): { ko: number; missing: number; replanned: boolean } {
  const milestones = allMilestones(map);
  return {
    ko: milestones.filter((milestone) => milestone.Status === "Ko").length,
    missing: milestones.filter((milestone) => milestone.Status === "Missing").length,
    replanned: map.IsReplanned || map.RoutingIsReplanned || milestones.some((m) => m.IsReplanned),
  };
}

export function isException(map: RouteMap): boolean {
  const found = exceptionsOf(map);
  return found.ko > 0 || found.missing > 0 || found.replanned;
}

/** "2 Ko, 1 Missing, replanned", or "" when none. */
export function exceptionSummary(map: RouteMap): string {
  const { ko, missing, replanned } = exceptionsOf(map);
  return [ko ? `${ko} Ko` : "", missing ? `${missing} Missing` : "", replanned ? "replanned" : ""]
    .filter(Boolean)
    .join(", ");
}

const timeText = (pair: DateTimePair | null) => (pair ? pair.Local.slice(0, 16).replace("T", " ") : "none");

/**
 * What changed from `before` to `after`, one sentence each: the shipment's status, legs added or
 * removed, and each milestone's status, planned and actual time, pieces and replan mark. Times are the
 * station's local wall clock (the same on both sides, so no zone data is needed here).
 */
export function routeMapChanges(before: RouteMap, after: RouteMap): string[] {
  const changes: string[] = [];
  if (before.Status !== after.Status) changes.push(`Status ${before.Status} → ${after.Status}`);
  if (before.Shipment.Total.NoOfPieces !== after.Shipment.Total.NoOfPieces)
    changes.push(`Total pieces ${before.Shipment.Total.NoOfPieces} → ${after.Shipment.Total.NoOfPieces}`);
  const beforeSections = new Map(timelineSections(before).map((section) => [section.key, section]));
  const afterSections = timelineSections(after);
  const afterKeys = new Set(afterSections.map((section) => section.key));
  for (const section of beforeSections.values())
    if (!afterKeys.has(section.key)) changes.push(`${section.title} removed`);
  for (const section of afterSections) {
    const old = beforeSections.get(section.key);
    if (!old) {
      changes.push(`${section.title} added`);
      continue;
    }
    if (section.flight && old.flight) {
      const was = old.flight.FlightInfo.Scheduled;
      const now = section.flight.FlightInfo.Scheduled;
      if (timeText(was.DepartureDateTime) !== timeText(now.DepartureDateTime))
        changes.push(
          `${section.title}: scheduled departure ${timeText(was.DepartureDateTime)} → ${timeText(now.DepartureDateTime)}`,
        );
      if (timeText(was.ArrivalDateTime) !== timeText(now.ArrivalDateTime))
        changes.push(
          `${section.title}: scheduled arrival ${timeText(was.ArrivalDateTime)} → ${timeText(now.ArrivalDateTime)}`,
        );
    }
    const oldMilestones = new Map(old.milestones.map((milestone) => [milestone.Name, milestone]));
    for (const milestone of section.milestones) {
      const label = section.flight
        ? `${section.title} ${milestone.Name}`
        : `${milestone.Name} ${milestone.Station}`;
      const was = oldMilestones.get(milestone.Name);
      if (!was) {
        changes.push(`${label} added`);
        continue;
      }
      if (was.Status !== milestone.Status) changes.push(`${label}: ${was.Status} → ${milestone.Status}`);
      if (timeText(was.ActualDateTime) !== timeText(milestone.ActualDateTime))
        changes.push(
          `${label}: actual ${timeText(was.ActualDateTime)} → ${timeText(milestone.ActualDateTime)}`,
        );
      if (timeText(was.PlannedDateTime) !== timeText(milestone.PlannedDateTime))
        changes.push(
          `${label}: planned ${timeText(was.PlannedDateTime)} → ${timeText(milestone.PlannedDateTime)}`,
        );
      if (was.ActualNoOfPieces !== milestone.ActualNoOfPieces)
        changes.push(`${label}: pieces ${was.ActualNoOfPieces} → ${milestone.ActualNoOfPieces}`);
      if (!was.IsReplanned && milestone.IsReplanned) changes.push(`${label}: replanned`);
    }
    const names = new Set(section.milestones.map((milestone) => milestone.Name));
    for (const milestone of old.milestones)
      if (!names.has(milestone.Name)) changes.push(`${section.title} ${milestone.Name} removed`);
  }
  return changes;
}
