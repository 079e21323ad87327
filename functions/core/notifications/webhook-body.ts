/**
 * Webhook bodies per Type (DESIGN.md section 5): json, xml, text. All three carry exactly the payload
 * fields in spec order.
 */
import { EVENT_PAYLOAD_FIELDS, type EventPayload } from "./payload.ts";
import type { WebhookPayloadType } from "./webhooks.ts";

export interface RenderedBody {
  contentType: string;
  body: string;
}

const WEBHOOK_CONTENT_TYPES: Record<WebhookPayloadType, string> = {
  json: "application/json",
  xml: "application/xml",
  // Exactly as DESIGN.md section 5 names them: existing receivers compare the header as a string.
  // The bytes are UTF-8 in all three (the XML declaration says so; JSON is UTF-8 by definition).
  text: "text/plain",
};

const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

/** Escapes text for element content and attribute values; drops characters XML 1.0 forbids. */
function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function scalarText(value: string | number | boolean): string {
  return typeof value === "string" ? value : String(value);
}

/**
 * XML decision: root `<Event>` (one element per field, in order, so the `Event` field is a child
 * `<Event>` of the root); null is `<Field xsi:nil="true"/>`, which tells "no value" apart from "".
 */
function renderXml(payload: EventPayload): string {
  const children = EVENT_PAYLOAD_FIELDS.map((field) => {
    const value = payload[field];
    return value === null
      ? `<${field} xsi:nil="true"/>`
      : `<${field}>${escapeXml(scalarText(value))}</${field}>`;
  }).join("");
  return `<?xml version="1.0" encoding="UTF-8"?><Event xmlns:xsi="${XSI_NAMESPACE}">${children}</Event>`;
}

/** One `Field: value` line per field (CRLF-free values, so a line is always one field; null is empty). */
function renderText(payload: EventPayload): string {
  return EVENT_PAYLOAD_FIELDS.map((field) => {
    const value = payload[field];
    const text = value === null ? "" : scalarText(value).replace(/[\r\n]+/g, " ");
    return `${field}: ${text}`;
  })
    .join("\n")
    .concat("\n");
}

export function renderWebhookBody(payload: EventPayload, type: WebhookPayloadType): RenderedBody {
  const contentType = WEBHOOK_CONTENT_TYPES[type];
  switch (type) {
    case "json":
      return { contentType, body: JSON.stringify(payload) };
    case "xml":
      return { contentType, body: renderXml(payload) };
    case "text":
      return { contentType, body: renderText(payload) };
  }
}
