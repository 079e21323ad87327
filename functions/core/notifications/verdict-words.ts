/**
 * The words people read about a shipment, in one place: the e-mail (headline and timeline), the web
 * app's timeline and the shared page all say a milestone's verdict, its name and a shipment's status
 * with these functions, so a person never reads two versions of one fact.
 *
 * A verdict states facts first, then the judgement. A flight's departure and arrival are measured
 * against the flight's schedule ("15 min after schedule": what a person compares with the timetable),
 * and the milestone's status against its plan is a second fact ("within plan: Ok"). The plan of a DEP is
 * STD + 1 h (DESIGN.md section 4), so "45 min early" against the plan read like a flight that left
 * before its timetable; the schedule is what people mean by early and late. Milestones without a
 * schedule (RCS, RCF, NFD, DLV, ...) are measured against their plan ("2 h after plan: Ko").
 *
 * Pure and a leaf (type-only imports), so the web app bundles it without the rest of the core.
 */

import type { DateTimePair, Flight, RouteMapStatus } from "../route-map/spec-types.ts";
import type { EventName, MilestoneName } from "../types.ts";

/** What each milestone (and the webhook-only RMP and CAN) means, as people say it. */
export const MILESTONE_WORDS: Record<EventName, string> = {
  FWB: "Air waybill received",
  LAT: "Latest acceptance",
  RCS: "Accepted",
  DEP: "Departed",
  ARR: "Arrived",
  RCF: "Received from flight",
  NFD: "Ready for pick-up",
  AWD: "Documents delivered",
  DLV: "Delivered",
  RMP: "Route map planned",
  CAN: "Cancelled",
};

/** "Departed (DEP)": the name people know, then the code the messages use. */
export const milestoneLabel = (code: EventName): string => `${MILESTONE_WORDS[code]} (${code})`;

/** A shipment's status in words ("At destination"), for chips, filters and summaries. */
export const ROUTE_MAP_STATUS_WORDS: Record<RouteMapStatus, string> = {
  Booked: "Booked",
  Accepted: "Accepted",
  OnAir: "In transit",
  AtDestination: "At destination",
  Cancelled: "Cancelled",
};

/** "15 min", "2 h", "1 h 5 min", "47 h 59 min", "3 d 4 h" (whole minutes; days from 48 h). */
export function durationText(minutes: number): string {
  const total = Math.abs(Math.round(minutes));
  if (total < 60) return `${total} min`;
  if (total < 48 * 60) {
    const hours = Math.floor(total / 60);
    const rest = total % 60;
    return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  }
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  return hours === 0 ? `${days} d` : `${days} d ${hours} h`;
}

/**
 * `actual` against `reference` in whole minutes, rounded away from zero: 30 s after the plan is
 * "1 min after plan" (the milestone is Ko, so the words must not say "on plan" beside it).
 */
export function minutesAfter(reference: DateTimePair, actual: DateTimePair): number | null {
  const difference = Date.parse(actual.Utc) - Date.parse(reference.Utc);
  if (!Number.isFinite(difference)) return null;
  return difference > 0 ? Math.ceil(difference / 60_000) : -Math.ceil(-difference / 60_000);
}

/** "15 min after schedule", "30 min before plan", "on schedule". */
function relation(minutes: number, reference: "schedule" | "plan"): string {
  if (minutes === 0) return `on ${reference}`;
  return `${durationText(minutes)} ${minutes > 0 ? "after" : "before"} ${reference}`;
}

export interface VerdictInput {
  name: MilestoneName;
  /** The milestone's planned time (null: a Simple route map, no plan). */
  planned: DateTimePair | null;
  /** Its reported time (null: not reported, no verdict). */
  actual: DateTimePair | null;
  /** DEP: the flight's scheduled departure (STD); ARR: its scheduled arrival (STA); else null. */
  scheduled?: DateTimePair | null;
}

export interface MilestoneVerdict {
  /** Against the flight's schedule: "15 min after schedule"; null for milestones without one. */
  schedule: string | null;
  /**
   * Against the plan, with the judgement: "within plan: Ok" / "10 min after plan: Ko" beside a
   * schedule; alone "2 h after plan: Ko", "20 min before plan: Ok", "on plan: Ok". null without a plan.
   */
  plan: string | null;
  /** The milestone's status against its plan, as the route map judges it; null without a plan. */
  judgement: "Ok" | "Ko" | null;
  /** Both as one line: "15 min after schedule · within plan: Ok". */
  text: string;
}

/** The verdict of a reported milestone, or null when there is nothing to measure it against. */
export function milestoneVerdict(input: VerdictInput): MilestoneVerdict | null {
  const { planned, actual } = input;
  if (!actual) return null;
  const scheduled = input.scheduled ?? null;
  const fromSchedule = scheduled ? minutesAfter(scheduled, actual) : null;
  const fromPlan = planned ? minutesAfter(planned, actual) : null;
  const schedule = fromSchedule === null ? null : relation(fromSchedule, "schedule");
  let plan: string | null = null;
  let judgement: MilestoneVerdict["judgement"] = null;
  if (fromPlan !== null) {
    judgement = fromPlan > 0 ? "Ko" : "Ok";
    // Beside the schedule, an Ok needs no second distance: the schedule's is the one people use.
    const distance = schedule && judgement === "Ok" ? "within plan" : relation(fromPlan, "plan");
    plan = `${distance}: ${judgement}`;
  }
  if (!schedule && !plan) return null;
  return { schedule, plan, judgement, text: [schedule, plan].filter(Boolean).join(" · ") };
}

/** The schedule a flight's milestone is measured against: STD for its DEP, STA for its ARR. */
export function scheduledTimeOf(name: MilestoneName, flight: Flight | null | undefined): DateTimePair | null {
  if (!flight) return null;
  if (name === "DEP") return flight.FlightInfo.Scheduled.DepartureDateTime ?? null;
  if (name === "ARR") return flight.FlightInfo.Scheduled.ArrivalDateTime ?? null;
  return null;
}
