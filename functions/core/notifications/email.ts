/**
 * E-mail of an Email-channel rule (an e-mail a person reads). Subject from HeaderItems in the
 * order given (DESIGN.md section 4, e.g. `AWB 020-12345675 | MIL DEP | NTF Event`), unchanged. The body,
 * as HTML (tables and inline styles, which e-mail clients keep; every value escaped) and as a
 * text/plain alternative with the same content:
 *   - a headline with the verdict ("LH400 departed FRA 15 min after schedule · within plan: Ok"),
 *     email-headline.ts (the words of verdict-words.ts);
 *   - the shipment in one line (AWB, route, pieces, weight);
 *   - a link to the route map (the web app's page, or a share link per the rule) and to the alerts page;
 *   - the compact timeline (email-timeline.ts) with local times and zone abbreviations;
 *   - the notification's details (type, event status, agent, message id) and why it was sent.
 */

import type { DateTimePair, RouteMap } from "../route-map/spec-types.ts";
import type { HeaderItemCode } from "./common.ts";
import {
  awbText,
  emailHeadline,
  flightText,
  type HeadlineTone,
  plannedPair,
  reportedPair,
} from "./email-headline.ts";
import type { EmailLinks } from "./email-links.ts";
import { stationTimeText } from "./email-time.ts";
import { emailTimeline, type TimelineMilestone, type TimelineSection } from "./email-timeline.ts";
import type { EventPayload } from "./payload.ts";
import { scheduledTimeOf } from "./verdict-words.ts";

export interface EmailContext {
  /** Product name in the footer. */
  serviceName?: string;
  /** The shipment's route map as of sending (for the timeline); absent or null: no timeline. */
  routeMap?: RouteMap | null;
  /** The event's milestone key (`<leg departure station>:<name>`), to flag it in the timeline. */
  milestoneKey?: string | null;
  /** Absent or null when the web app's address is not known: the e-mail then has no links. */
  links?: EmailLinks | null;
  /** The rule that sent it (named in the footer). */
  ruleId?: number;
  /** A ProActive rule's interval, for its headline. */
  proActiveMinutes?: number;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** Subject values: CR/LF and other control characters removed so nothing can inject a header. */
const headerSafe = (text: string) => text.replace(/\p{Cc}+/gu, " ").trim();

/** The value each subject item shows (RMT: "RM" for a planned route map, "Simple" without a plan). */
function headerItemText(code: HeaderItemCode, payload: EventPayload): string {
  switch (code) {
    case "AWB":
      return `AWB ${payload.AirWaybillPrefix}-${payload.AirWaybillNumber}`;
    case "MIL":
      return `MIL ${payload.Event}`;
    case "NTF":
      return `NTF ${payload.Type}`;
    case "STN":
      return `STN ${payload.AirportOfEvent}`;
    case "RTG":
      return `RTG ${payload.AirportOfOrigin}-${payload.AirportOfDestination}`;
    case "RMT":
      return `RMT ${payload.isRM ? "RM" : "Simple"}`;
    case "AGT":
      return `AGT ${payload.AgentCode}`;
    case "BRA":
      return `BRA ${payload.AgentStation}`;
  }
}

export function emailSubject(payload: EventPayload, headerItems: readonly HeaderItemCode[]): string {
  return headerSafe(headerItems.map((code) => headerItemText(code, payload)).join(" | "));
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** One line of plain text: line breaks inside a value would break the text part's layout. */
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, " ");

const ALERT_KIND: Record<EventPayload["Type"], string> = {
  Event: "Event alert",
  Missed: "Missed-event alert",
  ProActive: "Pro-active alert",
};

/** "UTC 2026-03-21 12:42" from an ISO instant: a share link's expiry, the same for every reader. */
const utcText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** "AWB 020-12345675 · FRA → JFK · 10 pieces · 250 K". */
function shipmentLine(payload: EventPayload, routeMap: RouteMap | null): string {
  const total = routeMap?.Shipment.Total;
  const pieces = total?.NoOfPieces || payload.TotalShipmentPieces;
  const weight =
    total?.Weight != null
      ? `${total.Weight} ${total.WeightCode ?? ""}`.trim()
      : payload.WeightReported !== null
        ? `${payload.WeightReported} ${payload.WeightCode ?? ""}`.trim()
        : null;
  return [
    `AWB ${awbText(payload)}`,
    `${payload.AirportOfOrigin} → ${payload.AirportOfDestination}`,
    pieces > 0 ? `${pieces} ${pieces === 1 ? "piece" : "pieces"}` : null,
    weight,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The notification's facts that the headline and timeline do not already show. */
function detailRows(payload: EventPayload): [string, string][] {
  const flight = flightText(payload);
  const at = (pair: DateTimePair | null) =>
    pair ? stationTimeText(payload.AirportOfEvent, pair, { withDate: true }) : "–";
  return [
    ["Notification", `${ALERT_KIND[payload.Type]} · ${payload.Event} · ${payload.EventStatus}`],
    ["Station", payload.AirportOfEvent],
    ["Flight", flight ?? "–"],
    ["Planned", at(plannedPair(payload))],
    ["Reported", at(reportedPair(payload))],
    ["Pieces reported", `${payload.PiecesReported} of ${payload.TotalShipmentPieces}`],
    ["Agent", `${payload.AgentCode}/${payload.AgentCass} ${payload.AgentStation}`],
    ["Message id", payload.IdMessage],
  ];
}

/**
 * "planned 14 Mar 14:25 CET · actual 14 Mar 14:40 CET · 1 h 15 min after schedule · 15 min after
 * plan: Ko · replanned": the verdict ends in the status it judges; without one, the status alone.
 */
function milestoneFacts(milestone: TimelineMilestone): string {
  return [
    milestone.planned ? `planned ${milestone.planned}` : "no plan",
    milestone.actual ? `actual ${milestone.actual}` : "not reported",
    milestone.verdict ?? milestone.status,
    milestone.pieces,
    milestone.replanned ? "replanned" : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

// ---- text/plain --------------------------------------------------------------------------------

function textTimeline(sections: readonly TimelineSection[]): string[] {
  const lines = ["Timeline"];
  for (const section of sections) {
    lines.push("", section.detail ? `${section.title} (${section.detail})` : section.title);
    for (const milestone of section.milestones) {
      const mark = milestone.current ? "▶ " : "  ";
      lines.push(
        `${mark}${milestone.words} (${milestone.code}), ${milestone.station}: ${milestoneFacts(milestone)}`,
      );
    }
  }
  return lines;
}

function textBody(input: BodyInput): string {
  const { payload, headline, links, sections, context } = input;
  const lines = [headline, "", shipmentLine(payload, input.routeMap)];
  if (links) {
    const route = links.routeMap;
    lines.push(
      "",
      route.kind === "share"
        ? `Route map (share link, no sign-in, valid until ${utcText(route.expiresAt)}): ${route.url}`
        : `Route map: ${route.url}`,
    );
  }
  if (sections.length > 0) lines.push("", ...textTimeline(sections));
  lines.push("", ...detailRows(payload).map(([label, value]) => `${label}: ${value}`));
  lines.push("", whySent(context));
  if (links) lines.push(`Manage your alerts: ${links.manageRule}`);
  lines.push("", context.serviceName ?? DEFAULT_SERVICE_NAME, "");
  return lines.map(oneLine).join("\n");
}

const DEFAULT_SERVICE_NAME = "Route Map Tracker";

const whySent = (context: EmailContext) =>
  context.ruleId === undefined
    ? "You receive this e-mail because one of your alert rules matched."
    : `You receive this e-mail because your alert rule ${context.ruleId} matched.`;

// ---- HTML --------------------------------------------------------------------------------------

const FONT = "font-family:Arial,Helvetica,sans-serif;";
const MUTED = "#475467";
const TONE_COLOUR: Record<HeadlineTone, string> = {
  late: "#b42318",
  missing: "#b42318",
  ok: "#067647",
  info: "#1d4ed8",
};
/** Status as colour and text (never colour alone). */
const STATUS_STYLE: Record<TimelineMilestone["status"], string> = {
  Ok: "color:#067647;background:#ecfdf3;",
  Ko: "color:#b42318;background:#fef3f2;",
  Missing: "color:#ffffff;background:#b42318;",
  Planned: "color:#344054;background:#f2f4f7;",
};

function htmlTimeline(sections: readonly TimelineSection[]): string {
  const cell = `style="padding:6px 8px 6px 0;border-bottom:1px solid #eaecf0;vertical-align:top;${FONT}font-size:13px;"`;
  const rows: string[] = [
    `<tr><th align="left" ${cell}>Milestone</th><th align="left" ${cell}>Planned</th><th align="left" ${cell}>Actual</th><th align="left" ${cell}>Status</th></tr>`,
  ];
  for (const section of sections) {
    const detail = section.detail
      ? ` <span style="font-weight:normal;color:${MUTED};">${escapeHtml(section.detail)}</span>`
      : "";
    rows.push(
      `<tr><th colspan="4" align="left" style="padding:14px 0 4px;border-bottom:2px solid #d0d5dd;${FONT}font-size:14px;">${escapeHtml(section.title)}${detail}</th></tr>`,
    );
    for (const milestone of section.milestones) {
      const background = milestone.current ? "background:#fffaeb;" : "";
      const here = milestone.current ? " ▶ this alert" : "";
      const notes = [milestone.verdict, milestone.pieces, milestone.replanned ? "replanned" : null]
        .filter(Boolean)
        .map((note) => escapeHtml(note ?? ""))
        .join("<br>");
      rows.push(
        `<tr style="${background}">` +
          `<td ${cell}><span style="font-weight:bold;">${escapeHtml(milestone.words)}</span> (${escapeHtml(milestone.code)})<br><span style="color:${MUTED};">${escapeHtml(milestone.station)}${escapeHtml(here)}</span></td>` +
          `<td ${cell}>${escapeHtml(milestone.planned ?? "no plan")}</td>` +
          `<td ${cell}>${escapeHtml(milestone.actual ?? "not reported")}</td>` +
          `<td ${cell}><span style="${STATUS_STYLE[milestone.status]}padding:1px 6px;border-radius:3px;font-weight:bold;">${escapeHtml(milestone.status)}</span>${notes ? `<br>${notes}` : ""}</td>` +
          "</tr>",
      );
    }
  }
  return [
    `<h2 style="margin:0 0 4px;${FONT}font-size:16px;">Timeline</h2>`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;">',
    ...rows,
    "</table>",
  ].join("");
}

function htmlBody(input: BodyInput): string {
  const { payload, headline, tone, links, sections, context, subject } = input;
  const button = (url: string, label: string) =>
    `<a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold;${FONT}font-size:14px;">${escapeHtml(label)}</a>`;
  const routeLink = links
    ? links.routeMap.kind === "share"
      ? `${button(links.routeMap.url, "Open the route map")}<p style="margin:6px 0 0;color:${MUTED};${FONT}font-size:12px;">A share link: opens without sign-in, valid until ${escapeHtml(utcText(links.routeMap.expiresAt))}.</p>`
      : button(links.routeMap.url, "Open the route map")
    : "";
  const details = detailRows(payload)
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0;color:${MUTED};font-weight:normal;${FONT}font-size:12px;">${escapeHtml(label)}</th><td style="padding:2px 0;${FONT}font-size:12px;">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  const manage = links
    ? ` <a href="${escapeHtml(links.manageRule)}" style="color:#1d4ed8;">Manage your alerts</a>`
    : "";
  const section = (content: string, padding = "12px 24px") =>
    `<tr><td style="padding:${padding};">${content}</td></tr>`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>',
    escapeHtml(subject || headline),
    "</title></head>",
    `<body style="margin:0;padding:0;background:#f2f4f7;color:#101828;${FONT}">`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f2f4f7;"><tr><td align="center" style="padding:16px 8px;">',
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:680px;background:#ffffff;border:1px solid #d0d5dd;border-top:4px solid ${TONE_COLOUR[tone]};">`,
    section(
      `<p style="margin:0 0 6px;color:${TONE_COLOUR[tone]};${FONT}font-size:12px;font-weight:bold;text-transform:uppercase;letter-spacing:0.04em;">${escapeHtml(ALERT_KIND[payload.Type])}</p>` +
        `<h1 style="margin:0;${FONT}font-size:20px;line-height:1.3;color:#101828;">${escapeHtml(headline)}</h1>` +
        `<p style="margin:8px 0 0;color:${MUTED};${FONT}font-size:14px;">${escapeHtml(shipmentLine(payload, input.routeMap))}</p>`,
      "20px 24px 8px",
    ),
    routeLink ? section(routeLink) : "",
    sections.length > 0 ? section(htmlTimeline(sections)) : "",
    section(
      `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;">${details}</table>`,
    ),
    section(
      `<p style="margin:0;color:${MUTED};${FONT}font-size:12px;">${escapeHtml(whySent(context))}${manage}</p>` +
        `<p style="margin:8px 0 0;color:${MUTED};${FONT}font-size:12px;">${escapeHtml(context.serviceName ?? DEFAULT_SERVICE_NAME)}</p>`,
      "12px 24px 20px",
    ),
    "</table></td></tr></table></body></html>",
  ].join("");
}

interface BodyInput {
  payload: EventPayload;
  subject: string;
  headline: string;
  tone: HeadlineTone;
  links: EmailLinks | null;
  routeMap: RouteMap | null;
  sections: TimelineSection[];
  context: EmailContext;
}

/**
 * The flight schedule an event's DEP or ARR is measured against: its leg in the route map as of
 * sending (the milestone key names the leg's departure station); null for other events or without one.
 */
function scheduleOfEvent(
  payload: EventPayload,
  routeMap: RouteMap | null,
  milestoneKey: string | null,
): DateTimePair | null {
  if (!routeMap || !milestoneKey || (payload.Event !== "DEP" && payload.Event !== "ARR")) return null;
  const from = milestoneKey.split(":")[0];
  const flight = routeMap.MilestonePlan.RoutingCycle.Flight.find((f) => f.FlightInfo.Routing.Origin === from);
  return scheduledTimeOf(payload.Event, flight);
}

export function renderEmail(
  payload: EventPayload,
  headerItems: readonly HeaderItemCode[],
  context: EmailContext = {},
): RenderedEmail {
  const subject = emailSubject(payload, headerItems);
  const routeMap = context.routeMap ?? null;
  const headline = emailHeadline(payload, {
    ...(context.proActiveMinutes === undefined ? {} : { proActiveMinutes: context.proActiveMinutes }),
    scheduled: scheduleOfEvent(payload, routeMap, context.milestoneKey ?? null),
  });
  const input: BodyInput = {
    payload,
    subject,
    headline: oneLine(headline.text),
    tone: headline.tone,
    links: context.links ?? null,
    routeMap,
    sections: routeMap ? emailTimeline(routeMap, context.milestoneKey ?? null) : [],
    context,
  };
  return { subject, html: htmlBody(input), text: textBody(input) };
}
