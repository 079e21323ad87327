/**
 * The JSON-LD a ONE Record document is written in, read as far as the service needs it: nodes with
 * their active `@context` and their path in the body. Property names are expanded with the document's
 * own `@context` (prefixes, terms, `@vocab`; remote contexts are not fetched): `cargo:eventCode`,
 * `https://onerecord.iata.org/ns/cargo#eventCode` and, without a context naming another vocabulary, a
 * bare `eventCode` all mean the same. Refusals (Reader.fail) are 400 naming the line and the JSON path
 * as written (`@graph[1].cargo:eventDate`); a well-formed event the service cannot place (no AWB to
 * put it on: Reader.unplaceable) is 422 naming them the same way.
 */
import { MessageParseError, UnplaceableMessageError } from "../../errors.ts";
import { fieldName, lineOfJsonPath, type PathKey } from "../json/lines.ts";
import { preview, tooDeep } from "../json/text.ts";
import { type SourceRef, truncateFound } from "../types.ts";

export const CARGO_NS = "https://onerecord.iata.org/ns/cargo#";
export const API_NS = "https://onerecord.iata.org/ns/api#";

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Terms and prefixes of the active `@context` (expanded IRIs) and its `@vocab`. */
export interface Context {
  terms: ReadonlyMap<string, string>;
  vocab: string;
}

export const DEFAULT_CONTEXT: Context = { terms: new Map(), vocab: CARGO_NS };

export function withContext(parent: Context, node: JsonObject): Context {
  const local = node["@context"];
  if (local === undefined) return parent;
  const terms = new Map(parent.terms);
  let vocab = parent.vocab;
  for (const entry of Array.isArray(local) ? local : [local]) {
    // A remote context (a string) is not fetched: its terms are read as the cargo vocabulary's.
    if (!isObject(entry)) continue;
    for (const [name, definition] of Object.entries(entry)) {
      const iri =
        typeof definition === "string" ? definition : isObject(definition) ? definition["@id"] : null;
      if (name === "@vocab" && typeof definition === "string") vocab = definition;
      else if (typeof iri === "string" && !name.startsWith("@")) terms.set(name, iri);
    }
  }
  // Term values may be compact themselves ("cargo:eventCode"): expand them once against the rest.
  const expanded = new Map<string, string>();
  const ctx: Context = { terms, vocab };
  for (const [name, iri] of terms) expanded.set(name, expandIri(iri, ctx, false));
  return { terms: expanded, vocab };
}

/** A compact IRI, term or absolute IRI, expanded; `vocabRelative` for property names and @type. */
export function expandIri(value: string, ctx: Context, vocabRelative: boolean): string {
  const colon = value.indexOf(":");
  if (colon > 0) {
    const prefix = value.slice(0, colon);
    const suffix = value.slice(colon + 1);
    if (suffix.startsWith("//")) return value;
    const base = ctx.terms.get(prefix);
    return base === undefined ? value : `${base}${suffix}`;
  }
  const term = ctx.terms.get(value);
  if (term !== undefined) return term;
  return vocabRelative ? `${ctx.vocab}${value}` : value;
}

/** A node of the document with its context and where it is. */
export interface Node {
  value: JsonObject;
  ctx: Context;
  path: PathKey[];
}

/** A property value with its path and the context it was read in. */
export interface Located {
  value: Json;
  path: PathKey[];
  ctx: Context;
}

/** Names the line and path of a value in the body, and refuses with them (400). */
export class Reader {
  constructor(private readonly text: string | undefined) {}

  at(path: readonly PathKey[]): SourceRef {
    return { line: this.text === undefined ? 1 : lineOfJsonPath(this.text, path), path: fieldName(path) };
  }

  fail(path: readonly PathKey[], expected: string, found: unknown): never {
    const where = this.at(path);
    const shown = found === undefined ? "nothing" : preview(found);
    throw new MessageParseError(where.line, expected, truncateFound(shown), where.path);
  }

  /** Refuses well-formed input that names nothing the service can place (422), naming line and path. */
  unplaceable(path: readonly PathKey[], expected: string, found: unknown): never {
    const where = this.at(path);
    const shown = found === undefined ? "nothing" : preview(found);
    throw new UnplaceableMessageError(where.line, expected, truncateFound(shown), where.path);
  }
}

/**
 * Deepest nesting of arrays and objects a ONE Record document may have. A LogisticsEvent with its
 * Waybill, Locations and TransportMovement embedded needs about ten; deeper nesting only serves to
 * exhaust a stack, and is refused (400 naming where) before anything reads the document.
 */
export const MAX_JSON_LD_DEPTH = 32;

/** Refuses a document nested deeper than MAX_JSON_LD_DEPTH, naming the member that holds it. */
export function assertShallow(body: unknown, reader: Reader): void {
  const deep = tooDeep(body, MAX_JSON_LD_DEPTH);
  if (deep !== null)
    reader.fail(deep, `at most ${MAX_JSON_LD_DEPTH} levels of nested arrays and objects`, "deeper nesting");
}

/** The value of a node's property `cargo#name` (or `api#name` with `ns`), first of an array. */
export function property(node: Node, name: string, ns = CARGO_NS): Located | undefined {
  for (const [key, value] of Object.entries(node.value)) {
    if (key.startsWith("@")) continue;
    if (expandIri(key, node.ctx, true) !== `${ns}${name}`) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) return undefined;
      return { value: value[0] as Json, path: [...node.path, key, 0], ctx: node.ctx };
    }
    return { value, path: [...node.path, key], ctx: node.ctx };
  }
  return undefined;
}

/** The value as a node (its own `@context` applied), or null when it is not an object. */
export function asNode(located: Located): Node | null {
  return isObject(located.value)
    ? { value: located.value, ctx: withContext(located.ctx, located.value), path: located.path }
    : null;
}

/** A literal: a string/number/boolean, or `{ "@value": ... }`. */
export function literal(located: Located): string | number | boolean | null {
  const v = isObject(located.value) ? located.value["@value"] : located.value;
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : null;
}

/** The node's `@type`s, expanded. */
export function typesOf(node: Node): string[] {
  const type = node.value["@type"];
  const list = Array.isArray(type) ? type : type === undefined ? [] : [type];
  return list.filter((t): t is string => typeof t === "string").map((t) => expandIri(t, node.ctx, true));
}

/** Every value of a node's property `ns#name`, each with its path. */
export function allProperties(node: Node, name: string, ns: string): Located[] {
  for (const [key, value] of Object.entries(node.value)) {
    if (key.startsWith("@") || expandIri(key, node.ctx, true) !== `${ns}${name}`) continue;
    if (!Array.isArray(value)) return [{ value, path: [...node.path, key], ctx: node.ctx }];
    return value.map((item, i) => ({ value: item, path: [...node.path, key, i], ctx: node.ctx }));
  }
  return [];
}
