/**
 * Entry point of the carrier-message parsers: picks the parser from the request's content type
 * through the format registry (registry.ts; the content types are listed once, in
 * functions/contracts/carrier-formats.ts): text/plain = Cargo-IMP, application/xml or text/xml =
 * Cargo-XML XFSU, application/json = our JSON form, application/ld+json = ONE Record LogisticsEvents
 * (JSON-LD). Parameters such as `charset=utf-8` are allowed; anything else is
 * UnsupportedContentTypeError (415).
 *
 * One folder per format, one module per message type: cargo-imp/ (lexer, envelope, shared fields,
 * FSU/FSA, FWB, FFR/FFA), cargo-xml/ (document, shared fields, XFSU), json/ (the JSON text and its
 * path -> line reader, shared with ONE Record; our event form), one-record/ (JSON-LD, code-list
 * terms, the objects an event points to, events, notifications).
 */
import { MessageParseError, UnsupportedContentTypeError } from "../errors.ts";
import { MAX_MESSAGES_PER_BODY } from "./common.ts";
import { assertPlausibleTimes } from "./plausible-times.ts";
import { parserFor } from "./registry.ts";
import type { CarrierReport } from "./types.ts";

export { parseCargoImp } from "./cargo-imp/index.ts";
export { parseCargoXml } from "./cargo-xml/index.ts";
export { parseJsonEvents } from "./json/events.ts";
export { CarrierJsonMessageSchema } from "./json/schema.ts";
export { parseJsonText } from "./json/text.ts";
export { parseOneRecordEvents } from "./one-record/events.ts";
export { parseOneRecordNotification } from "./one-record/notifications.ts";
export { SUPPORTED_CARRIER_CONTENT_TYPES } from "./registry.ts";
export type { CarrierReport } from "./types.ts";

/**
 * Parses a carrier message body according to its content type. Refuses a body of more than
 * MAX_MESSAGES_PER_BODY messages (naming the line of the first one over) and, given the receipt time
 * `receivedAt` (ISO UTC), times with a year far from it (plausible-times.ts): 400 before anything is
 * stored.
 */
export function parseCarrierMessage(contentType: string, body: string, receivedAt?: string): CarrierReport[] {
  const mediaType = (contentType.split(";", 1)[0] ?? "").trim().toLowerCase();
  const parse = parserFor(mediaType);
  if (parse === undefined) throw new UnsupportedContentTypeError(contentType);
  const reports = parse(body);
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
