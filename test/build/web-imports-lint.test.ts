/**
 * What the web app may take from functions/: biome.json's `noRestrictedImports` override for web/
 * fails `npm run lint` on any functions/ module but the contracts, the route-map spec types, the
 * station-zone table and the two leaf modules whose words and rules the app shares with the service
 * (core/notifications/verdict-words.ts: verdicts, milestone names, status words; core/awb.ts: the AWB
 * check digit). So the e-mails and the app cannot word a verdict differently, and the app's bundle
 * cannot pull in the service by accident: those two modules stay leaves (type-only imports).
 * Proven on a throwaway file in web/src, removed afterwards.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const BIOME = join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome");
const RULE = "lint/style/noRestrictedImports";
const SHARED_LEAVES = ["functions/core/notifications/verdict-words.ts", "functions/core/awb.ts"];

const written: string[] = [];

function lint(...paths: string[]) {
  const run = spawnSync(process.execPath, [BIOME, "lint", "--colors=off", ...paths], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function lintWebFile(name: string, source: string) {
  const file = join(ROOT, "web", "src", "lib", `zz-lint-probe-${process.pid}-${name}.ts`);
  written.push(file);
  try {
    writeFileSync(file, source);
    return lint(relative(ROOT, file));
  } finally {
    rmSync(file, { force: true });
  }
}

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

describe("web/ takes from functions/ only contracts, spec types, the zone table and the shared leaves", () => {
  it("fails on a web file that imports a use case, the e-mail renderer or an adapter", () => {
    const { status, output } = lintWebFile(
      "service",
      [
        'import { getRouteMap } from "../../../functions/core/use-cases/get-route-map.ts";',
        'import { renderEmail } from "../../../functions/core/notifications/email.ts";',
        'import { nowIso } from "../../../functions/adapters/clock.ts";',
        "",
        "export const all = [getRouteMap, renderEmail, nowIso];",
        "",
      ].join("\n"),
    );
    expect(status).not.toBe(0);
    expect(output.split(`${RULE} `).length - 1).toBe(3);
    expect(output).toContain("web/ is bundled into the browser");
  });

  it("passes the contracts, the spec types and the shared leaves", () => {
    const { status, output } = lintWebFile(
      "allowed",
      [
        'import { APP_CONFIG_FILE } from "../../../functions/contracts/web-app.ts";',
        'import { parseAwb } from "../../../functions/core/awb.ts";',
        'import { milestoneVerdict } from "../../../functions/core/notifications/verdict-words.ts";',
        'import type { RouteMap } from "../../../functions/core/route-map/spec-types.ts";',
        "",
        "export const all: [unknown, unknown, unknown, RouteMap | null] = [APP_CONFIG_FILE, parseAwb, milestoneVerdict, null];",
        "",
      ].join("\n"),
    );
    expect(output).not.toContain(RULE);
    expect(status, output).toBe(0);
  });

  it("finds no restricted import in web/ as it is", () => {
    const { status, output } = lint("--only=style/noRestrictedImports", "web");
    expect(output).not.toContain(RULE);
    expect(status, output).toBe(0);
  });

  it.each(SHARED_LEAVES)("%s stays a leaf: it imports types only", (path) => {
    const source = readFileSync(join(ROOT, path), "utf8");
    const imports = [...source.matchAll(/^(import|export)\b[^;]*?\bfrom\s+["'][^"']+["'];?$/gms)].map(
      (m) => m[0],
    );
    for (const statement of imports)
      expect(statement, `${path}: ${statement}`).toMatch(/^(import|export) type\b/);
  });
});
