/**
 * Comments say why in words. A reader of this code has no access to our issue tracker: "issue 14" or
 * "#12" tells them nothing and goes stale, so the reason itself belongs in the comment. This check
 * fails on any citation of an internal issue number in functions/, lib/, bin/ and web/, the code that
 * ships; the few lookalikes that are not one are allowed explicitly below.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "./import-graph.ts";

/** "issue 21", "Issue 14", "issues 3", "#12": an internal issue number. */
const CITATION = /\bissues? #?[0-9]+|#[0-9]{1,3}\b/gi;

/** What looks like a citation but is not one, each with why it may stay. */
const ALLOWED: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /&#[0-9]+;/g, why: "an HTML numeric character reference, e.g. &#39; (an apostrophe)" },
  {
    pattern: /\b[\w.-]+\/[\w.-]+#[0-9]+\b/g,
    why: "a public project's own tracker, e.g. open-circle/valibot#1630: a reader can follow it",
  },
];

const FOLDERS = ["functions", "lib", "bin", "web"];

/** Every citation in `text`, as `line: excerpt`, after removing what ALLOWED lets stay. */
function citationsIn(text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    const cleaned = ALLOWED.reduce((rest, { pattern }) => rest.replace(pattern, " "), line);
    for (const match of cleaned.matchAll(CITATION)) found.push(`${index + 1}: ${match[0]}`);
  });
  return found;
}

describe("comments cite no internal issue number", () => {
  it("finds none in functions/, lib/, bin/ or web/", () => {
    const citations = FOLDERS.flatMap(sourceFiles).flatMap((file) =>
      citationsIn(readFileSync(join(ROOT, file), "utf8")).map((citation) => `${file}:${citation}`),
    );
    expect(
      citations,
      "say why in words instead: a reader of the code has no access to the issue tracker",
    ).toEqual([]);
  });

  it("catches the usual forms and lets the listed lookalikes pass", () => {
    expect(
      citationsIn("// Issue 14, our extension\n/* see issue 21 */\n// fixed in #12.\n// issues 3 and 4"),
    ).toEqual(["1: Issue 14", "2: issue 21", "3: #12", "4: issues 3"]);
    expect(citationsIn(`'"': "&quot;", "'": "&#39;"\n// open-circle/valibot#1630, "intended"`)).toEqual([]);
    // Hex colours are not issue numbers either: six digits never match.
    expect(citationsIn('color: "#475467"')).toEqual([]);
  });
});
