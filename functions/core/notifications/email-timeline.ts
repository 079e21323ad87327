/**
 * The compact timeline of a notification e-mail: the shipment's route map as sections
 * (origin cycle, one per flight with its route and scheduled times, truck legs marked, destination
 * cycle), each milestone with planned and actual local time and zone, its status as text and the
 * verdict ("15 min after schedule · within plan: Ok", verdict-words.ts, as the web app says it). The
 * milestone the e-mail is about is flagged. Rendering to HTML and text is email.ts's; this is only
 * what to show.
 */
import type { MilestoneName } from "../carrier-messages/types.ts";
import type { Flight, Milestone, MilestoneStatus, RouteMap } from "../route-map/spec-types.ts";
import { stationTimeText } from "./email-time.ts";
import { MILESTONE_WORDS, milestoneVerdict, scheduledTimeOf } from "./verdict-words.ts";

export interface TimelineMilestone {
  code: MilestoneName;
  /** "Departed". */
  words: string;
  station: string;
  /** "14 Mar 14:25 CET", null without a plan (Simple route map). */
  planned: string | null;
  /** null: not reported. */
  actual: string | null;
  status: MilestoneStatus;
  /** "15 min after schedule · within plan: Ok", "2 h after plan: Ko"; null when nothing to judge (or Missing). */
  verdict: string | null;
  replanned: boolean;
  /** "6 of 10 pieces" when fewer pieces than the total were reported; null otherwise. */
  pieces: string | null;
  /** The milestone this e-mail is about. */
  current: boolean;
}

export interface TimelineSection {
  /** "Origin FRA", "LH400 FRA → JFK", "Destination JFK". */
  title: string;
  /** Flights: "Truck · scheduled 14 Mar 13:25 CET → 14 Mar 15:55 EDT"; null for the cycles. */
  detail: string | null;
  milestones: TimelineMilestone[];
}

function verdictOf(milestone: Milestone, flight: Flight | null): string | null {
  // Missing already says it: the actual column reads "not reported".
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

function timelineMilestone(
  milestone: Milestone,
  key: string,
  currentKey: string | null,
  totalPieces: number,
  flight: Flight | null = null,
): TimelineMilestone {
  const reportedPieces = milestone.ActualDateTime ? milestone.ActualNoOfPieces : 0;
  return {
    code: milestone.Name,
    words: MILESTONE_WORDS[milestone.Name],
    station: milestone.Station,
    planned: milestone.PlannedDateTime
      ? stationTimeText(milestone.Station, milestone.PlannedDateTime, { withDate: true })
      : null,
    actual: milestone.ActualDateTime
      ? stationTimeText(milestone.Station, milestone.ActualDateTime, { withDate: true })
      : null,
    status: milestone.Status,
    verdict: verdictOf(milestone, flight),
    replanned: milestone.IsReplanned,
    pieces:
      reportedPieces > 0 && totalPieces > 0 && reportedPieces < totalPieces
        ? `${reportedPieces} of ${totalPieces} pieces`
        : null,
    current: currentKey !== null && key === currentKey,
  };
}

/**
 * The sections of a route map. `currentKey`: the event's milestone key (`<leg departure station>:
 * <name>`, DESIGN.md section 9 Itinerary): origin milestones are keyed by the AWB origin, destination
 * ones by the AWB destination, a flight's by its departure station.
 */
export function emailTimeline(routeMap: RouteMap, currentKey: string | null): TimelineSection[] {
  const plan = routeMap.MilestonePlan;
  const { Origin: origin, Destination: destination } = routeMap.Shipment.Routing;
  const total = routeMap.Shipment.Total.NoOfPieces;
  const sections: TimelineSection[] = [
    {
      title: `Origin ${origin}`,
      detail: null,
      milestones: plan.OriginCycle.Milestone.map((m) =>
        timelineMilestone(m, `${origin}:${m.Name}`, currentKey, total),
      ),
    },
  ];
  for (const flight of plan.RoutingCycle.Flight) {
    const info = flight.FlightInfo;
    const from = info.Routing.Origin;
    const to = info.Routing.Destination;
    const departure = info.Scheduled.DepartureDateTime;
    const arrival = info.Scheduled.ArrivalDateTime;
    const scheduled =
      departure && arrival
        ? `scheduled ${stationTimeText(from, departure, { withDate: true })} → ${stationTimeText(to, arrival, { withDate: true })}`
        : null;
    const detail = [info.isRoadFeederService ? "Truck" : null, scheduled].filter(Boolean).join(" · ");
    sections.push({
      title: `${info.CarrierCode}${info.Number} ${from} → ${to}`,
      detail: detail === "" ? null : detail,
      milestones: flight.Milestone.map((m) =>
        timelineMilestone(m, `${from}:${m.Name}`, currentKey, total, flight),
      ),
    });
  }
  sections.push({
    title: `Destination ${destination}`,
    detail: null,
    milestones: plan.DestinationCycle.Milestone.map((m) =>
      timelineMilestone(m, `${destination}:${m.Name}`, currentKey, total),
    ),
  });
  return sections;
}
