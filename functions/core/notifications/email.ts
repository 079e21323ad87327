/**
 * E-mail of an Email-channel rule: subject from HeaderItems in the order given (DESIGN.md section 4,
 * e.g. `AWB 020-12345675 | MIL DEP | NTF Event`) and an HTML body with every value escaped.
 */
import type { HeaderItemCode } from "./common.ts";
import type { EventPayload } from "./payload.ts";

export interface EmailContext {
  /** Product name in the greeting line and footer. */
  serviceName?: string;
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

const NOTIFICATION_WORDING: Record<EventPayload["Type"], string> = {
  Event: "was reported",
  Missed: "is missing: its planned time has passed without a report",
  ProActive: "has not been reported within the pro-active interval after its planned time",
};

const orDash = (value: string | null) => (value === null || value === "" ? "–" : value);

function detailRows(payload: EventPayload): [string, string][] {
  const weight =
    payload.WeightReported === null ? null : `${payload.WeightReported} ${payload.WeightCode ?? ""}`.trim();
  return [
    ["AWB", `${payload.AirWaybillPrefix}-${payload.AirWaybillNumber}`],
    ["Milestone", payload.Event],
    ["Notification type", payload.Type],
    ["Event status", payload.EventStatus],
    ["Station", payload.AirportOfEvent],
    ["Routing", `${payload.AirportOfOrigin}-${payload.AirportOfDestination}`],
    ["Route map type", payload.isRM ? "RM" : "Simple"],
    [
      "Flight",
      orDash(payload.CarrierCode === null ? null : `${payload.CarrierCode}${payload.FlightNumber ?? ""}`),
    ],
    ["Planned (local)", orDash(payload.PlannedLocalTimeStamp)],
    ["Planned (UTC)", orDash(payload.PlannedUtcTimeStamp)],
    ["Actual (local)", orDash(payload.MilestoneReportedLocalTimeStamp)],
    ["Actual (UTC)", orDash(payload.MilestoneReportedUtcTimeStamp)],
    ["Pieces", `${payload.PiecesReported} of ${payload.TotalShipmentPieces}`],
    ["Weight", orDash(weight)],
    ["Agent", `${payload.AgentCode}/${payload.AgentCass} ${payload.AgentStation}`],
    ["Message id", payload.IdMessage],
  ];
}

export function renderEmail(
  payload: EventPayload,
  headerItems: readonly HeaderItemCode[],
  context: EmailContext = {},
): RenderedEmail {
  const serviceName = context.serviceName ?? "Route Map Tracker";
  const awb = `${payload.AirWaybillPrefix}-${payload.AirWaybillNumber}`;
  const headline = `${payload.Event} of AWB ${awb} ${NOTIFICATION_WORDING[payload.Type]}.`;
  const rows = detailRows(payload);
  const html = [
    "<!DOCTYPE html>",
    '<html><head><meta charset="utf-8"><title>',
    escapeHtml(emailSubject(payload, headerItems) || headline),
    "</title></head><body>",
    `<p>${escapeHtml(headline)}</p>`,
    '<table border="1" cellpadding="4" cellspacing="0">',
    ...rows.map(
      ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    "</table>",
    `<p>${escapeHtml(serviceName)}</p>`,
    "</body></html>",
  ].join("");
  const text = [
    headline,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    serviceName,
    "",
  ].join("\n");
  return { subject: emailSubject(payload, headerItems), html, text };
}
