/**
 * The first line of a notification e-mail: what happened and the verdict, in words, e.g.
 * "LH400 departed FRA 15 min after schedule · within plan: Ok", "DEP of 020-12345675 is missing:
 * planned 14:25 CET at FRA", "Shipment 020-12345675 ready for pick-up at JFK 2 h after plan: Ko". Built
 * from the event payload, plus the flight's schedule for a DEP or ARR (the payload has none), so it
 * says the same whatever else the route map says by the time the e-mail goes out.
 *
 * The verdict is verdict-words.ts's, the words the timeline and the web app use: a flight against its
 * schedule, then the milestone against its plan (the Ok/Ko the timeline shows beside it).
 */
import type { DateTimePair } from "../route-map/spec-types.ts";
import { durationText, stationTimeText } from "./email-time.ts";
import type { EventPayload } from "./payload.ts";
import { MILESTONE_WORDS, milestoneVerdict } from "./verdict-words.ts";

export { MILESTONE_WORDS };

/** How the headline reads: "late" and "missing" are trouble, "ok" is not, "info" judges nothing. */
export type HeadlineTone = "late" | "missing" | "ok" | "info";

export interface Headline {
  text: string;
  tone: HeadlineTone;
}

export const awbText = (payload: Pick<EventPayload, "AirWaybillPrefix" | "AirWaybillNumber">) =>
  `${payload.AirWaybillPrefix}-${payload.AirWaybillNumber}`;

/** "LH400", or null when the event names no flight. */
export const flightText = (payload: Pick<EventPayload, "CarrierCode" | "FlightNumber">) =>
  payload.CarrierCode && payload.FlightNumber ? `${payload.CarrierCode}${payload.FlightNumber}` : null;

/** What happened, without the verdict: "LH400 departed FRA". */
function happened(payload: EventPayload): string {
  const awb = awbText(payload);
  const station = payload.AirportOfEvent;
  const flight = flightText(payload);
  switch (payload.Event) {
    case "FWB":
      return `Air waybill ${awb} received`;
    case "LAT":
      return `Shipment ${awb} handed in at ${station} for its latest acceptance time`;
    case "RCS":
      return `Shipment ${awb} accepted at ${station}`;
    case "DEP":
      return flight ? `${flight} departed ${station}` : `Shipment ${awb} departed ${station}`;
    case "ARR":
      return flight ? `${flight} arrived at ${station}` : `Shipment ${awb} arrived at ${station}`;
    case "RCF":
      return flight
        ? `Shipment ${awb} received from ${flight} at ${station}`
        : `Shipment ${awb} received from its flight at ${station}`;
    case "NFD":
      return `Shipment ${awb} ready for pick-up at ${station}`;
    case "AWD":
      return `Documents of ${awb} delivered at ${station}`;
    case "DLV":
      return `Shipment ${awb} delivered at ${station}`;
    case "RMP":
      return `Route map of ${awb} ${payload.EventStatus === "Replan" ? "replanned" : "planned"}: ${payload.AirportOfOrigin} → ${payload.AirportOfDestination}`;
    case "CAN":
      return `Booking of ${awb} cancelled`;
  }
}

/** A payload stamp ("…+00:00") and its local twin as a date-time pair, or null when either is missing. */
function pairOf(utc: string | null, local: string | null): DateTimePair | null {
  return utc && local ? { Utc: utc.replace(/\+00:00$/, "Z"), Local: local } : null;
}

/** The payload's planned time, or null (a Simple route map has none; RMP/CAN neither). */
export const plannedPair = (payload: EventPayload) =>
  pairOf(payload.PlannedUtcTimeStamp, payload.PlannedLocalTimeStamp);

/** The payload's reported time, or null (Missed/ProActive report nothing). */
export const reportedPair = (payload: EventPayload) =>
  pairOf(payload.MilestoneReportedUtcTimeStamp, payload.MilestoneReportedLocalTimeStamp);

/**
 * The headline of one notification. `proActiveMinutes`: the interval of the rule that raised a
 * ProActive alert (its e-mail says how long past the planned time the milestone still is unreported).
 * `scheduled`: the flight's STD for a DEP, STA for an ARR (from the route map), which the verdict
 * measures the flight against.
 */
export function emailHeadline(
  payload: EventPayload,
  options: { proActiveMinutes?: number; scheduled?: DateTimePair | null } = {},
): Headline {
  const awb = awbText(payload);
  const station = payload.AirportOfEvent;
  const planned = plannedPair(payload);
  const plannedText = planned
    ? `planned ${stationTimeText(station, planned)} at ${station}`
    : `at ${station}`;
  if (payload.Type === "Missed") {
    return { text: `${payload.Event} of ${awb} is missing: ${plannedText}`, tone: "missing" };
  }
  if (payload.Type === "ProActive") {
    const minutes = options.proActiveMinutes ?? 0;
    const overdue = minutes > 0 ? `${durationText(minutes)} after ` : "yet: ";
    return { text: `${payload.Event} of ${awb} not reported ${overdue}${plannedText}`, tone: "missing" };
  }
  const what = happened(payload);
  if (payload.Event === "RMP" || payload.Event === "CAN") return { text: what, tone: "info" };
  const reported = reportedPair(payload);
  const verdict = milestoneVerdict({
    name: payload.Event,
    planned,
    actual: reported,
    scheduled: options.scheduled ?? null,
  });
  if (!verdict) {
    const at = reported ? ` at ${stationTimeText(station, reported)}` : "";
    return { text: `${what}${at}`, tone: "info" };
  }
  const tone = verdict.judgement === "Ko" ? "late" : verdict.judgement === "Ok" ? "ok" : "info";
  return { text: `${what} ${verdict.text}`, tone };
}
