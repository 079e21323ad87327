/**
 * A JSON body as carriers send it: parsed with the line of a syntax error, and its nesting depth
 * bounded (shared by our JSON event form and ONE Record's JSON-LD).
 */
import { MessageParseError } from "../../errors.ts";
import { truncateFound } from "../types.ts";
import type { PathKey } from "./lines.ts";

const POSITION_RE = /position (\d+)/;
const LINE_RE = /\(line (\d+) column \d+\)/;

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

/**
 * Deepest nesting of arrays and objects a carrier body may have. Our own form
 * needs 6 (body, Messages, message, Legs, leg, Quantity); members we do not read are tolerated, but
 * not a 20,000-deep array in one of them, which only serves to exhaust a stack.
 */
export const MAX_JSON_DEPTH = 16;

/**
 * Path of the first value nested deeper than `maxDepth` (MAX_JSON_DEPTH unless said), cut after its
 * last member name (the member that holds it: `Messages[0].X`), or null. Iterative, so any depth is
 * walked in constant stack.
 */
export function tooDeep(body: unknown, maxDepth = MAX_JSON_DEPTH): PathKey[] | null {
  const stack: { value: unknown; path: PathKey[] }[] = [{ value: body, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= maxDepth) {
      let end = path.length;
      while (end > 0 && typeof path[end - 1] === "number") end--;
      return path.slice(0, end === 0 ? 1 : end);
    }
    const entries: [PathKey, unknown][] = Array.isArray(value)
      ? value.map((child, i) => [i, child])
      : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [PathKey, unknown];
      if (typeof child === "object" && child !== null) stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/**
 * A JSON value as a refusal shows it, at most `max` characters: strings as they are, anything else
 * written out without recursion (JSON.stringify of a value nested 10,000 deep throws RangeError).
 */
export function preview(value: unknown, max = 60): string {
  if (typeof value === "string") return value;
  let out = "";
  // What is left to write, last first: a value, or text (brackets, separators, member names).
  const stack: ({ value: unknown } | { text: string })[] = [{ value }];
  for (let item = stack.pop(); item !== undefined && out.length < max; item = stack.pop()) {
    if ("text" in item) {
      out += item.text;
      continue;
    }
    const v = item.value;
    if (typeof v !== "object" || v === null) {
      out += JSON.stringify(v) ?? String(v);
      continue;
    }
    const entries: [string | null, unknown][] = Array.isArray(v)
      ? v.slice(0, max).map((child) => [null, child])
      : Object.entries(v).slice(0, max);
    out += Array.isArray(v) ? "[" : "{";
    stack.push({ text: Array.isArray(v) ? "]" : "}" });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string | null, unknown];
      stack.push({ value: child });
      if (key !== null) stack.push({ text: `${JSON.stringify(key)}:` });
      if (i > 0) stack.push({ text: "," });
    }
  }
  return out.length > max ? out.slice(0, max) : out;
}
