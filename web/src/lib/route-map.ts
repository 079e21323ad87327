/**
 * Pure readings of a route map for the app: the timeline's sections and each milestone's verdict,
 * whether a shipment is an exception, what it expects next, and what changed between two snapshots.
 * Types come from the service's own spec types (type-only imports); the words are the core's wording
 * module (functions/core/notifications/verdict-words.ts, a leaf), so the app says what the e-mails say.
 */
import {
  MILESTONE_WORDS,
  milestoneLabel,
  milestoneVerdict,
  ROUTE_MAP_STATUS_WORDS,
  scheduledTimeOf,
} from "../../../functions/core/notifications/verdict-words.ts";
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

export { MILESTONE_WORDS, milestoneLabel, ROUTE_MAP_STATUS_WORDS };

/** The zone label of a station-local time ("CET", else "UTC+1"): the zone loader's zoneLabel. */
export type ZoneLabel = (station: string, pair: DateTimePair) => string;

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

/**
 * A reported milestone's verdict in the words of the e-mails: a flight's DEP and ARR against its
 * schedule, then the plan ("15 min after schedule · within plan: Ok"); others against the plan. null
 * for a Missing milestone (its status says it) and when there is nothing to measure against.
 */
export function milestoneVerdictText(milestone: Milestone, flight: Flight | null): string | null {
  if (milestone.Status === "Missing") return null;
  return (
    milestoneVerdict({
      name: milestone.Name,
      planned: milestone.PlannedDateTime,
      actual: milestone.ActualDateTime,
      scheduled: scheduledTimeOf(milestone.Name, flight),
    })?.text ?? null
  );
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

/** What a shipment expects next: the first milestone, in the order they happen, not reported yet. */
export interface NextMilestone {
  milestone: Milestone;
  /** "Departed (DEP)". */
  label: string;
  station: string;
  /** Its planned time (null on a Simple route map). */
  planned: DateTimePair | null;
  /** The leg it belongs to ("LH400 FRA → JFK"), null for the origin and destination cycles. */
  leg: string | null;
}

/**
 * The next milestone: the first not reported after the last one reported, in the order they happen
 * (an earlier one left unreported, such as an RCS never sent, is behind the shipment, not ahead of
 * it). A Missing one counts: an overdue departure is still what the desk waits for. LAT is a deadline
 * judged by the RCS, never reported itself, so it is skipped. null once the last milestone is
 * reported, and for a cancelled shipment.
 */
export function nextMilestone(map: RouteMap): NextMilestone | null {
  if (map.Status === "Cancelled") return null;
  const ordered = timelineSections(map).flatMap((section) =>
    section.milestones.map((milestone) => ({ milestone, section })),
  );
  let start = 0;
  ordered.forEach(({ milestone }, index) => {
    if (milestone.ActualDateTime) start = index + 1;
  });
  const next = ordered.slice(start).find(({ milestone }) => milestone.Name !== "LAT");
  if (!next) return null;
  const { milestone, section } = next;
  return {
    milestone,
    label: milestoneLabel(milestone.Name),
    station: milestone.Station,
    planned: milestone.PlannedDateTime,
    leg: section.flight ? section.title : null,
  };
}

/** "14:25 CET, 14 Mar" as the timeline writes a station-local time; "none" without one. */
const timeIn = (zoneLabel: ZoneLabel, station: string, pair: DateTimePair | null) =>
  pair ? `${pair.Local.slice(11, 16)} ${zoneLabel(station, pair)}, ${dayOf(pair.Local)}` : "none";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const dayOf = (local: string) =>
  `${Number(local.slice(8, 10))} ${MONTHS[Number(local.slice(5, 7)) - 1] ?? ""}`;
/** Two times are the same when their instants are (the words may differ only by the zone data). */
const sameTime = (a: DateTimePair | null, b: DateTimePair | null) => (a?.Utc ?? null) === (b?.Utc ?? null);

/**
 * What changed from `before` to `after`, one sentence each: the shipment's status, legs added or
 * removed, and each milestone's status, planned and actual time, pieces and replan mark. Times are
 * written as the timeline writes them: the station's local time with its zone and day ("11:30 CET,
 * 14 Mar"); milestones by name and code ("Departed (DEP)").
 */
export function routeMapChanges(before: RouteMap, after: RouteMap, zoneLabel: ZoneLabel): string[] {
  const changes: string[] = [];
  const status = (value: RouteMapStatus) => ROUTE_MAP_STATUS_WORDS[value] ?? value;
  if (before.Status !== after.Status)
    changes.push(`Status ${status(before.Status)} → ${status(after.Status)}`);
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
      const { Origin: from, Destination: to } = section.flight.FlightInfo.Routing;
      if (!sameTime(was.DepartureDateTime, now.DepartureDateTime))
        changes.push(
          `${section.title}: scheduled departure ${timeIn(zoneLabel, from, was.DepartureDateTime)} → ${timeIn(zoneLabel, from, now.DepartureDateTime)}`,
        );
      if (!sameTime(was.ArrivalDateTime, now.ArrivalDateTime))
        changes.push(
          `${section.title}: scheduled arrival ${timeIn(zoneLabel, to, was.ArrivalDateTime)} → ${timeIn(zoneLabel, to, now.ArrivalDateTime)}`,
        );
    }
    const oldMilestones = new Map(old.milestones.map((milestone) => [milestone.Name, milestone]));
    for (const milestone of section.milestones) {
      const label = section.flight
        ? `${section.title} · ${milestoneLabel(milestone.Name)}`
        : `${milestoneLabel(milestone.Name)} at ${milestone.Station}`;
      const at = (pair: DateTimePair | null) => timeIn(zoneLabel, milestone.Station, pair);
      const was = oldMilestones.get(milestone.Name);
      if (!was) {
        changes.push(`${label} added`);
        continue;
      }
      if (was.Status !== milestone.Status) changes.push(`${label}: ${was.Status} → ${milestone.Status}`);
      if (!sameTime(was.ActualDateTime, milestone.ActualDateTime))
        changes.push(`${label}: actual ${at(was.ActualDateTime)} → ${at(milestone.ActualDateTime)}`);
      if (!sameTime(was.PlannedDateTime, milestone.PlannedDateTime))
        changes.push(`${label}: planned ${at(was.PlannedDateTime)} → ${at(milestone.PlannedDateTime)}`);
      if (was.ActualNoOfPieces !== milestone.ActualNoOfPieces)
        changes.push(`${label}: pieces ${was.ActualNoOfPieces} → ${milestone.ActualNoOfPieces}`);
      if (!was.IsReplanned && milestone.IsReplanned) changes.push(`${label}: replanned`);
    }
    const names = new Set(section.milestones.map((milestone) => milestone.Name));
    for (const milestone of old.milestones)
      if (!names.has(milestone.Name))
        changes.push(`${section.title} · ${milestoneLabel(milestone.Name)} removed`);
  }
  return changes;
}
