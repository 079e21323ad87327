/**
 * Tracer on every function: each handler module the stack deploys opens its X-Ray segment, through
 * the HTTP pipeline (httpRoute, whose first middleware is the tracer's) or by wrapping its handler in
 * `traced(...)` (functions/adapters/tracer.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "./import-graph.ts";

const handlerFiles = sourceFiles("functions/handlers");

describe("every handler is traced", () => {
  it("finds the handlers", () => {
    expect(handlerFiles.length).toBeGreaterThan(70);
  });

  it.each(handlerFiles)("%s", (file) => {
    const source = readFileSync(join(ROOT, file), "utf8");
    const viaPipeline = /\bhttpRoute\(/.test(source);
    const wrapped = /export const handler = traced\(/.test(source);
    expect(viaPipeline || wrapped, `${file}: neither httpRoute(...) nor handler = traced(...)`).toBe(true);
  });

  it("the pipeline's first middleware is the tracer's", () => {
    const pipeline = readFileSync(join(ROOT, "functions/http/pipeline.ts"), "utf8");
    expect(pipeline).toMatch(/middy<[^>]+>\(\)\s*\.use\(tracing\(\)\)/);
  });
});
