/**
 * No import circle in functions/: every module can be read, tested and bundled after the ones it
 * imports, and the core's leaves (errors.ts, types.ts, the ports) stay leaves. The graph is the one
 * TypeScript resolves with the repository's tsconfig (test/build/import-graph.ts), type-only imports
 * included: a type-only circle still ties the files together for a reader, and the next change that
 * turns one of its types into a value makes it a runtime circle.
 */
import { describe, expect, it } from "vitest";
import { importCircles, importsOf, sourceFiles } from "./import-graph.ts";

describe("the import graph of functions/", () => {
  it("has no circle", () => {
    const circles = importCircles(sourceFiles("functions")).map((cycle) => cycle.join(" -> "));
    expect(circles, "cut each circle: move what both sides need into a leaf module").toEqual([]);
  });

  it("keeps the core's errors and shared types leaves: they import only each other", () => {
    const leaves = ["functions/core/errors.ts", "functions/core/types.ts"];
    for (const leaf of leaves) {
      const targets = importsOf(leaf).map((edge) => edge.target ?? edge.specifier);
      expect(
        targets.filter((target) => !leaves.includes(target)),
        `${leaf} imports`,
      ).toEqual([]);
    }
  });

  it("finds a circle when there is one, type-only imports included", () => {
    const circles = importCircles([
      "test/build/fixtures/import-circle/a.ts",
      "test/build/fixtures/import-circle/b.ts",
    ]);
    expect(circles).toEqual([
      [
        "test/build/fixtures/import-circle/a.ts",
        "test/build/fixtures/import-circle/b.ts",
        "test/build/fixtures/import-circle/a.ts",
      ],
    ]);
  });
});
