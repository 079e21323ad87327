/**
 * `redocly lint` (Redocly CLI, its recommended rules) passes on the OpenAPI document as the local runner
 * serves it: no error, and no warning but the known ones, each with its reason.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../functions/http/openapi/document.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const REDOCLY = join(ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");

/**
 * Warnings we keep, by rule. no-ambiguous-paths: the spec's own paths (`.../{awb}/history` beside
 * `.../webhook/{id}`); literal segments are matched before `{awb}` (DESIGN.md section 9, Paging).
 * info-license: package.json names no licence (a private service), so the document names none.
 */
const KNOWN_WARNINGS = new Set(["no-ambiguous-paths", "info-license"]);

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

// Its own directory: no redocly.yaml of the project or the machine applies, only the recommended rules.
const scratch = mkdtempSync(join(tmpdir(), "rmt-openapi-lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("redocly lint finds no error and no warning beyond the known ones", () => {
  const file = join(scratch, "openapi.json");
  writeFileSync(file, JSON.stringify(buildOpenApiDocument({ serverUrl: "http://127.0.0.1:3000" }), null, 2));
  const run = spawnSync(process.execPath, [REDOCLY, "lint", file, "--format=json"], {
    cwd: scratch,
    encoding: "utf8",
    // Offline and quiet: no usage telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    timeout: 60_000,
  });
  expect(run.error).toBeUndefined();
  const report = JSON.parse(run.stdout) as LintReport;
  const errors = report.problems.filter((problem) => problem.severity === "error");
  expect(errors.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
  expect(report.totals.errors).toBe(0);
  expect(run.status, run.stderr).toBe(0);
  const unknown = report.problems.filter((problem) => !KNOWN_WARNINGS.has(problem.ruleId));
  expect(unknown.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
}, 90_000);
