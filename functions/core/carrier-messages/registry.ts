/**
 * The carrier-message format registry: each format of functions/contracts/carrier-formats.ts (the one
 * list of content types) and the parser that reads it. The type asks for a parser for every format
 * listed there, so a content type the route table accepts always has its parser.
 */
import { CARRIER_FORMATS, type CarrierFormat } from "../../contracts/carrier-formats.ts";
import { parseCargoImp } from "./cargo-imp/index.ts";
import { parseCargoXml } from "./cargo-xml/index.ts";
import { parseJsonEvents } from "./json/events.ts";
import { parseJsonText } from "./json/text.ts";
import { parseOneRecordEvents } from "./one-record/events.ts";
import type { CarrierReport } from "./types.ts";

/** Reads a whole request body of its format into reports; 400 naming the line for what it cannot read. */
export type FormatParser = (body: string) => CarrierReport[];

const PARSERS: { readonly [F in CarrierFormat]: FormatParser } = {
  "cargo-imp": parseCargoImp,
  "cargo-xml": parseCargoXml,
  json: (body) => parseJsonEvents(parseJsonText(body), body),
  "one-record": (body) => parseOneRecordEvents(parseJsonText(body), body),
};

const BY_CONTENT_TYPE: ReadonlyMap<string, FormatParser> = new Map(
  CARRIER_FORMATS.flatMap((entry) =>
    entry.contentTypes.map((contentType) => [contentType, PARSERS[entry.format]] as const),
  ),
);

/** Content types that have a parser, in the contract's order. */
export const SUPPORTED_CARRIER_CONTENT_TYPES: readonly string[] = [...BY_CONTENT_TYPE.keys()];

/** The parser of a media type (lower case, without parameters), or undefined when none reads it. */
export function parserFor(mediaType: string): FormatParser | undefined {
  return BY_CONTENT_TYPE.get(mediaType);
}
