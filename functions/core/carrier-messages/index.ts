/**
 * Entry point of the carrier-message parsers: picks the parser from the request's content type.
 * text/plain = Cargo-IMP, application/xml or text/xml = Cargo-XML XFSU, application/json = our JSON
 * form, application/ld+json = ONE Record LogisticsEvents (JSON-LD). Parameters such as `charset=utf-8` are allowed; anything else is UnsupportedContentTypeError (415).
 */
import { MessageParseError, UnsupportedContentTypeError } from "../errors.ts";
import { parseCargoImp } from "./cargo-imp.ts";
import { MAX_MESSAGES_PER_BODY, truncateFound } from "./common.ts";
import { parseJsonEvents } from "./json-events.ts";
import { parseOneRecordEvents } from "./one-record.ts";
import { assertPlausibleTimes } from "./plausible-times.ts";
import type { CarrierReport } from "./types.ts";
import { parseXfsu } from "./xfsu.ts";

export { parseCargoImp } from "./cargo-imp.ts";
export { CarrierJsonMessageSchema, parseJsonEvents } from "./json-events.ts";
export { parseOneRecordEvents, parseOneRecordNotification } from "./one-record.ts";
export type { CarrierReport } from "./types.ts";
export { parseXfsu } from "./xfsu.ts";

export const SUPPORTED_CARRIER_CONTENT_TYPES = [
  "text/plain",
  "application/xml",
  "text/xml",
  "application/json",
  "application/ld+json",
] as const;

const POSITION_RE = /position (\d+)/;
const LINE_RE = /\(line (\d+) column \d+\)/;

/**
 * Parses a carrier message body according to its content type. Refuses a body of more than
 * MAX_MESSAGES_PER_BODY messages (naming the line of the first one over) and, given the receipt time
 * `receivedAt` (ISO UTC), times with a year far from it (plausible-times.ts): 400 before anything is
 * stored.
 */
export function parseCarrierMessage(contentType: string, body: string, receivedAt?: string): CarrierReport[] {
  const reports = parseByContentType(contentType, body);
  const over = reports[MAX_MESSAGES_PER_BODY];
  if (over !== undefined) {
    throw new MessageParseError(
      over.sourceAt.report.line,
      `at most ${MAX_MESSAGES_PER_BODY} messages in one request body (send the rest in another request)`,
      `${reports.length} messages`,
      over.sourceAt.report.path,
    );
  }
  if (receivedAt !== undefined) assertPlausibleTimes(reports, receivedAt);
  return reports;
}

function parseByContentType(contentType: string, body: string): CarrierReport[] {
  const mediaType = (contentType.split(";", 1)[0] ?? "").trim().toLowerCase();
  switch (mediaType) {
    case "text/plain":
      return parseCargoImp(body);
    case "application/xml":
    case "text/xml":
      return parseXfsu(body);
    case "application/json":
      return parseJsonEvents(parseJsonText(body), body);
    case "application/ld+json":
      return parseOneRecordEvents(parseJsonText(body), body);
    default:
      throw new UnsupportedContentTypeError(contentType);
  }
}

/** JSON.parse, a syntax error turned into a MessageParseError naming the line. */
export function parseJsonText(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    // V8 names the offset of a syntax error; turn it into the line carriers can look at.
    const message = error instanceof Error ? error.message : String(error);
    const lineMatch = LINE_RE.exec(message);
    const offset = Number(POSITION_RE.exec(message)?.[1] ?? Number.NaN);
    const line = lineMatch
      ? Number(lineMatch[1])
      : Number.isNaN(offset)
        ? 1
        : body.slice(0, offset).split("\n").length;
    throw new MessageParseError(line, "valid JSON", truncateFound(message));
  }
}
