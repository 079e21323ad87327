/**
 * The lint guards the hexagon: biome.json's `noRestrictedImports` override fails `npm run lint` when a
 * file under functions/core imports an adapter, a handler, the HTTP pipeline, functions/wiring.ts, the
 * AWS SDK or aws-lambda. Proven on throwaway files written into functions/core (so the override's
 * `includes` applies exactly as to a real core file) and removed afterwards.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const BIOME = join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome");
const RULE = "lint/style/noRestrictedImports";

const written: string[] = [];

/** `biome lint` with the repository's biome.json, as `npm run lint` runs it. */
function lint(...paths: string[]) {
  const run = spawnSync(process.execPath, [BIOME, "lint", "--colors=off", ...paths], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/**
 * Lints a throwaway file written into functions/core (or a folder below it) and deletes it again at
 * once, whatever happens (afterAll catches a file a crash left behind).
 */
function lintCoreFile(name: string, source: string, folder = "") {
  const file = join(ROOT, "functions", "core", folder, `zz-lint-probe-${process.pid}-${name}.ts`);
  written.push(file);
  try {
    writeFileSync(file, source);
    return { file: relative(ROOT, file), ...lint(relative(ROOT, file)) };
  } finally {
    rmSync(file, { force: true });
  }
}

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe("functions/core imports nothing but the core and the contracts", () => {
  it("fails on a core file that imports an adapter, naming the rule", () => {
    const { file, status, output } = lintCoreFile(
      "adapter",
      'import { dynamoRouteMapRepository } from "../adapters/route-map-repository.ts";\n\n' +
        "export const repository = dynamoRouteMapRepository;\n",
    );
    expect(status).not.toBe(0);
    expect(output).toContain(`${file}:1:`);
    expect(output).toContain(RULE);
    expect(output).toContain("must not import adapters");
  });

  it("fails on a core file that imports the AWS SDK, naming the rule", () => {
    const { status, output } = lintCoreFile(
      "aws-sdk",
      'import { SQSClient } from "@aws-sdk/client-sqs";\n\nexport const client = new SQSClient({});\n',
    );
    expect(status).not.toBe(0);
    expect(output).toContain(RULE);
    expect(output).toContain("no AWS SDK");
  });

  it("fails on handlers, the HTTP pipeline, the wiring and aws-lambda, also from a nested folder", () => {
    const source = [
      'import type { SQSEvent } from "aws-lambda";',
      'import { handler } from "../../handlers/http/get-route-map.ts";',
      'import { httpRoute } from "../../http/pipeline.ts";',
      'import { routeMaps } from "../../wiring.ts";',
      "",
      "export const all = [handler, httpRoute, routeMaps] as unknown as SQSEvent;",
      "",
    ].join("\n");
    const { status, output } = lintCoreFile("outward", source, "use-cases");
    expect(status).not.toBe(0);
    expect(output.split(`${RULE} `).length - 1).toBe(4);
  });

  it("passes a core file that imports the core, its ports and the contracts", () => {
    const { status, output } = lintCoreFile(
      "clean",
      [
        'import { QUEUES } from "../contracts/resources.ts";',
        'import { parseAwb } from "./awb.ts";',
        'import type { RouteMapRecord } from "./ports/route-maps.ts";',
        "",
        "export const clean: [unknown, unknown, RouteMapRecord | undefined] = [QUEUES, parseAwb, undefined];",
        "",
      ].join("\n"),
    );
    expect(output).not.toContain(RULE);
    expect(status, output).toBe(0);
  });

  it("finds no restricted import in the core as it is", () => {
    const { status, output } = lint("--only=style/noRestrictedImports", "functions/core");
    expect(output).not.toContain(RULE);
    expect(status, output).toBe(0);
  });
});
