/**
 * The lint guards the layers: biome.json's `noRestrictedImports` overrides fail `npm run lint` when
 * - a file under functions/core imports an adapter, a handler, the HTTP pipeline, functions/wiring.ts,
 *   the AWS SDK, aws-lambda, lib/, bin/, web/, node:http(s), middy or Powertools;
 * - any file under functions/ imports lib/, bin/ or web/ (what runs in Lambda builds on nothing else);
 * - a file under lib/ imports anything of functions/ but functions/contracts (or bin/).
 * Proven on throwaway files written into those folders (so each override's `includes` applies exactly
 * as to a real file) and removed afterwards. Biome applies the last matching override's options only,
 * so the core's list repeats the functions/ one: the test of the core proves that it does.
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
 * Lints a throwaway file written into `folder` (relative to the repository) and deletes it again at
 * once, whatever happens (afterAll catches a file a crash left behind).
 */
function lintProbe(folder: string, name: string, source: string) {
  const file = join(ROOT, folder, `zz-lint-probe-${process.pid}-${name}.ts`);
  written.push(file);
  try {
    writeFileSync(file, source);
    return { file: relative(ROOT, file), ...lint(relative(ROOT, file)) };
  } finally {
    rmSync(file, { force: true });
  }
}

/** A throwaway file in functions/core (or a folder below it). */
const lintCoreFile = (name: string, source: string, folder = "") =>
  lintProbe(join("functions", "core", folder), name, source);

/** How many imports the rule refused in `output`. */
const refusals = (output: string) => output.split(`${RULE} `).length - 1;

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
    expect(refusals(output)).toBe(4);
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

describe("functions/core: no lib/, bin/, web/, HTTP, middy or Powertools either", () => {
  it("fails on each, naming why", () => {
    const source = [
      'import { Logger } from "@aws-lambda-powertools/logger";',
      'import middy from "@middy/core";',
      'import { request } from "node:http";',
      'import { get } from "node:https";',
      'import { lambdaEntries } from "../../lib/bundle-options.ts";',
      'import { loadHandler } from "../../bin/local/lambda.ts";',
      'import { formatAwb } from "../../web/src/lib/format.ts";',
      "",
      "export const all = [Logger, middy, request, get, lambdaEntries, loadHandler, formatAwb];",
      "",
    ].join("\n");
    const { status, output } = lintCoreFile("outside", source);
    expect(status).not.toBe(0);
    expect(refusals(output)).toBe(7);
    expect(output).toContain("no Powertools");
    expect(output).toContain("no middy");
    expect(output).toContain("no HTTP client or server");
    expect(output).toContain("must not import the CDK app (lib/)");
  });
});

describe("functions/ imports nothing from lib/, bin/ or web/", () => {
  it("fails on each from a file outside the core, and lets it import adapters and the contracts", () => {
    const source = [
      'import { nowIso } from "../adapters/clock.ts";',
      'import { QUEUES } from "../contracts/resources.ts";',
      'import { lambdaEntries } from "../../lib/bundle-options.ts";',
      'import { loadHandler } from "../../bin/local/lambda.ts";',
      'import { formatAwb } from "../../web/src/lib/format.ts";',
      "",
      "export const all = [nowIso, QUEUES, lambdaEntries, loadHandler, formatAwb];",
      "",
    ].join("\n");
    const { file, status, output } = lintProbe(join("functions", "http"), "outside", source);
    expect(status).not.toBe(0);
    expect(refusals(output)).toBe(3);
    for (const line of [3, 4, 5]) expect(output).toContain(`${file}:${line}:`);
    expect(output).toContain("functions/ is what runs in Lambda");
  });
});

describe("lib/ imports only functions/contracts of functions/", () => {
  it("fails on the wiring, an adapter, a handler or the core, and on bin/", () => {
    const source = [
      'import { routeMaps } from "../functions/wiring.ts";',
      'import { nowIso } from "../functions/adapters/clock.ts";',
      'import { handler } from "../functions/handlers/http/get-route-map.ts";',
      'import { parseAwb } from "../functions/core/awb.ts";',
      'import { startLocalStack } from "../bin/local/runner.ts";',
      "",
      "export const all = [routeMaps, nowIso, handler, parseAwb, startLocalStack];",
      "",
    ].join("\n");
    const { status, output } = lintProbe("lib", "functions", source);
    expect(status).not.toBe(0);
    expect(refusals(output)).toBe(5);
    expect(output).toContain("from functions/ it may import only functions/contracts");
  });

  it("passes the contracts (and the web app's build script), also from a nested folder", () => {
    const source = [
      'import { ROUTES } from "../../functions/contracts/routes.ts";',
      'import { SETTINGS_ENV } from "../../functions/contracts/settings.ts";',
      'import { buildWebAppSync } from "../../web/build.ts";',
      "",
      "export const all = [ROUTES, SETTINGS_ENV, buildWebAppSync];",
      "",
    ].join("\n");
    const { status, output } = lintProbe(join("lib", "constructs"), "contracts", source);
    expect(output).not.toContain(RULE);
    expect(status, output).toBe(0);
  });

  it("finds no restricted import in functions/ and lib/ as they are", () => {
    const { status, output } = lint("--only=style/noRestrictedImports", "functions", "lib");
    expect(output).not.toContain(RULE);
    expect(status, output).toBe(0);
  });
});
