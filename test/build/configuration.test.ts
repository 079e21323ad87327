/**
 * One validated configuration: functions/adapters/config.ts is the only module of functions/ that
 * reads the environment (lazily, when an accessor is first called), and every authenticated route's
 * Lambda handler gets the HTTP pipeline's deps (its rate limits and their counter) from the wiring,
 * through `make(deps, httpPipeline)`. A route that forgot them would hold its callers to the default
 * limits, counted per container, without a word.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../functions/contracts/routes.ts";
import { ROOT, sourceFiles } from "./import-graph.ts";

const CONFIG_MODULE = "functions/adapters/config.ts";

describe("the environment", () => {
  it("is read by functions/adapters/config.ts alone", () => {
    const readers = sourceFiles("functions").filter(
      (file) => file !== CONFIG_MODULE && /process\s*\.\s*env\b/.test(readFileSync(join(ROOT, file), "utf8")),
    );
    expect(readers, `read it through ${CONFIG_MODULE} (config.<setting>())`).toEqual([]);
  });

  it("is read there only inside a function, never when the module loads", () => {
    const source = readFileSync(join(ROOT, CONFIG_MODULE), "utf8");
    const reads = source
      .split("\n")
      .filter((line) => /process\s*\.\s*env\b/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line));
    expect(reads).toEqual(["export const config: Config = /* @__PURE__ */ configFrom(() => process.env);"]);
  });
});

describe("every authenticated route", () => {
  const authenticated = ROUTES.filter((route) => route.roles !== "public").map((route) => route.handler);

  it.each(authenticated)("%s passes the wiring's pipeline deps to its HTTP pipeline", (handlerId) => {
    const source = readFileSync(join(ROOT, "functions", "handlers", "http", `${handlerId}.ts`), "utf8");
    const handlerLine = source.slice(source.indexOf("export const handler = make("));
    expect(handlerLine, "export const handler = make(deps, httpPipeline)").toMatch(
      /^export const handler = make\([\s\S]*\bhttpPipeline,?\s*\);\s*$/,
    );
    expect(source, "make(deps, pipeline) passes it on: httpRoute(id, options, pipeline)").toMatch(
      /httpRoute\(\s*"[a-z-]+",[\s\S]*?,\s*pipeline,?\s*\)\s*\.handle\(/,
    );
  });
});
