/**
 * A Cargo-XML document as the message readers see it: checked to be well-formed and free of a
 * DOCTYPE, parsed with namespace prefixes removed, and a locator that names the line of any element
 * (the n-th opening tag of a local name) for errors and for the reports' source lines.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { MessageParseError } from "../../errors.ts";
import { type SourceRef, truncateFound } from "../types.ts";

/** Elements that may repeat in the messages read here: always read as lists. */
const ARRAY_ELEMENTS: ReadonlySet<string> = new Set([
  "ReportedStatus",
  "AssociatedStatusConsignment",
  "SpecifiedLogisticsTransportMovement",
  "SpecifiedEvent",
  "ArrivalEvent",
  "AssociatedTransportCargo",
  "IncludedMasterConsignment",
  "IncludedHouseConsignment",
]);

const xmlParser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // No DOCTYPE entity expansion: a status message never needs it and it is an attack surface.
  processEntities: false,
  isArray: (name) => ARRAY_ELEMENTS.has(name),
});

/** A parsed XML element: text, or an object of children / attributes (`@_name`) / text (`#text`). */
export type XmlElement = string | { [name: string]: unknown };

export function isElement(value: unknown): value is XmlElement {
  return typeof value === "string" || (typeof value === "object" && value !== null && !Array.isArray(value));
}

export function children(node: XmlElement | undefined, name: string): XmlElement[] {
  if (node === undefined || typeof node === "string") return [];
  const value = node[name];
  if (Array.isArray(value)) return value.filter(isElement);
  return isElement(value) ? [value] : [];
}

export function child(node: XmlElement | undefined, name: string): XmlElement | undefined {
  return children(node, name)[0];
}

export function textOf(node: XmlElement | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (typeof node === "string") return node === "" ? undefined : node;
  const text = node["#text"];
  return typeof text === "string" && text !== "" ? text : undefined;
}

export function attribute(node: XmlElement | undefined, name: string): string | undefined {
  if (node === undefined || typeof node === "string") return undefined;
  const value = node[`@_${name}`];
  return typeof value === "string" ? value : undefined;
}

export function pathText(node: XmlElement | undefined, ...path: string[]): string | undefined {
  let current = node;
  for (const name of path) current = child(current, name);
  return textOf(current);
}

const OPENING_TAG_RE = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s>/]/g;

/** Locates elements (for errors and for the reports' source lines): the line of the n-th opening tag with a local name. */
export class ElementLocator {
  private linesByName: Map<string, number[]> | null = null;

  constructor(private readonly xml: string) {}

  /** 1 when there is no such element. */
  lineOf(localName: string, occurrence = 0): number {
    return this.index().get(localName)?.[occurrence] ?? 1;
  }

  at(localName: string, path: string, occurrence = 0): SourceRef {
    return { line: this.lineOf(localName, occurrence), path };
  }

  /** One pass over the document, on first use: the lines of every opening tag by local name. */
  private index(): Map<string, number[]> {
    if (this.linesByName !== null) return this.linesByName;
    const byName = new Map<string, number[]>();
    const re = new RegExp(OPENING_TAG_RE.source, "g");
    let line = 1;
    let scanned = 0;
    for (let match = re.exec(this.xml); match !== null; match = re.exec(this.xml)) {
      for (; scanned < match.index; scanned++) if (this.xml.charCodeAt(scanned) === 10) line++;
      const name = match[1] as string;
      const lines = byName.get(name);
      if (lines === undefined) byName.set(name, [line]);
      else lines.push(line);
    }
    this.linesByName = byName;
    return byName;
  }

  fail(element: string, expected: string, found: string | undefined, occurrence = 0): never {
    throw new MessageParseError(
      this.lineOf(element, occurrence),
      expected,
      truncateFound(found ?? "nothing"),
    );
  }
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Checks and parses a Cargo-XML document. `documentName` names the messages read (e.g. "XFSU") in the
 * refusal of a DOCTYPE: 400 naming the line for XML that is not well-formed or declares a DOCTYPE.
 */
export function readXmlDocument(xml: string, documentName: string): unknown {
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    throw new MessageParseError(validation.err.line, "well-formed XML", truncateFound(validation.err.msg));
  }
  // Document type declarations (and with them entities, internal or external) have no place in a
  // Cargo-XML message: refuse them outright rather than let the parser decide what to expand.
  const doctype = /<!DOCTYPE/i.exec(xml);
  if (doctype) {
    throw new MessageParseError(
      lineOf(xml, doctype.index),
      `an ${documentName} document without a DOCTYPE declaration`,
      "<!DOCTYPE",
    );
  }
  let parsed: unknown;
  try {
    parsed = xmlParser.parse(xml);
  } catch (error) {
    throw new MessageParseError(
      1,
      "well-formed XML",
      truncateFound(error instanceof Error ? error.message : String(error)),
    );
  }
  return parsed;
}
