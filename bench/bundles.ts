/**
 * Each Lambda bundle's size and cold import time, built exactly as deployed (lib/bundle-options.ts:
 * esbuild, minified ESM for node22, the AWS SDK bundled in, source maps without sources) and imported
 * the way Lambda starts it, with the function's NODE_OPTIONS (--enable-source-maps, so the map is read
 * and parsed on import too). Import time: median of 5 fresh `node` processes importing the bundle.
 *
 * `--before <git-ref>` (e.g. `npm run bench:bundles -- --before 3f9a7ef`) also builds that commit's
 * entries, from a temporary `git worktree` sharing this checkout's node_modules, with today's bundle
 * settings, and prints both sizes per entry side by side (renamed event functions matched through
 * RENAMED) plus a FIGURE line for the authorizer. The worktree is removed afterwards, also on failure.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LAMBDA_BUNDLE } from "../lib/bundle-options.ts";
import { BUNDLE_IMPORT_ENV, type BuiltBundle, buildLambdaBundles, PROJECT_ROOT } from "./bundling.ts";
import { figure, median } from "./support.ts";

const IMPORTS = 5;
const AUTHORIZER = "http/authorizer";

/** Event functions renamed since (old entry name -> today's), so before and after line up. */
const RENAMED: Readonly<Record<string, string>> = {
  "stream/match-events": "stream/match-event",
  "queue/deliver": "queue/deliver-job",
  "stream/schedule-checks": "stream/plan-due-checks",
  "queue/check-due": "queue/run-due-check",
};

interface Measured {
  entry: string;
  jsKb: number;
  mapKb: number;
  importMs: number;
}

const { values: args } = parseArgs({ options: { before: { type: "string" } } });
const out = join(PROJECT_ROOT, ".bench-out", "bundles");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const nodeOptions = LAMBDA_BUNDLE.nodeOptions.split(/\s+/).filter(Boolean);
const probe = join(out, "probe.mjs");
writeFileSync(
  probe,
  "const t = performance.now(); await import(process.argv[2]); process.stdout.write(String(performance.now() - t));",
);

/** Sizes and the median cold import time of each bundle. */
function measure(bundles: readonly BuiltBundle[]): Measured[] {
  return bundles.map((bundle) => {
    if (bundle.mapBytes === 0) throw new Error(`${bundle.entry}: no source map was written`);
    const times: number[] = [];
    for (let i = 0; i < IMPORTS; i++) {
      const run = spawnSync(process.execPath, [...nodeOptions, probe, bundle.file], {
        env: { ...process.env, ...BUNDLE_IMPORT_ENV },
        encoding: "utf8",
      });
      if (run.status !== 0) throw new Error(`${bundle.entry} failed to import: ${run.stderr}`);
      times.push(Number(run.stdout));
    }
    return {
      entry: bundle.entry,
      jsKb: bundle.jsBytes / 1024,
      mapKb: bundle.mapBytes / 1024,
      importMs: median(times),
    };
  });
}

function git(...gitArgs: string[]): string {
  const run = spawnSync("git", gitArgs, { cwd: PROJECT_ROOT, encoding: "utf8" });
  if (run.status !== 0)
    throw new Error(`git ${gitArgs.join(" ")} failed: ${run.stderr.trim() || run.status}`);
  return run.stdout.trim();
}

/**
 * Builds and measures the Lambda entries of `ref` in a temporary worktree of it (this checkout's
 * node_modules linked in) with today's bundle settings; removes the worktree whatever happens.
 */
function measureRef(ref: string): Promise<Measured[]> {
  const commit = git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
  const worktree = join(mkdtempSync(join(tmpdir(), "rmt-bundles-before-")), "checkout");
  const removeWorktree = () => {
    spawnSync("git", ["worktree", "remove", "--force", worktree], { cwd: PROJECT_ROOT });
    rmSync(join(worktree, ".."), { recursive: true, force: true });
    spawnSync("git", ["worktree", "prune"], { cwd: PROJECT_ROOT });
  };
  const interrupted = () => {
    removeWorktree();
    process.exit(130);
  };
  process.once("SIGINT", interrupted).once("SIGTERM", interrupted);
  const run = async () => {
    git("worktree", "add", "--detach", "--quiet", worktree, commit);
    symlinkSync(join(PROJECT_ROOT, "node_modules"), join(worktree, "node_modules"), "dir");
    // That commit's own entry list, read by its own lib/bundle-options.ts in a separate process (its
    // imports resolve inside the worktree, not against today's files).
    const listed = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        'const { lambdaEntries } = await import("./lib/bundle-options.ts"); process.stdout.write(JSON.stringify(lambdaEntries()));',
      ],
      { cwd: worktree, encoding: "utf8" },
    );
    if (listed.status !== 0) throw new Error(`no entry list at ${ref}: ${listed.stderr}`);
    const entries = JSON.parse(listed.stdout) as string[];
    const beforeOut = join(out, "before");
    return measure(await buildLambdaBundles(beforeOut, entries, worktree));
  };
  return run().finally(() => {
    removeWorktree();
    process.off("SIGINT", interrupted).off("SIGTERM", interrupted);
  });
}

const kb = (value: number | undefined) => (value === undefined ? "-" : value.toFixed(0));

const after = measure(await buildLambdaBundles(out));

if (args.before === undefined) {
  process.stdout.write(
    `${"bundle".padEnd(36)} ${"JS KB".padStart(7)} ${"map KB".padStart(7)} ${"import ms".padStart(10)}\n`,
  );
  for (const row of after) {
    process.stdout.write(
      `${row.entry.padEnd(36)} ${kb(row.jsKb).padStart(7)} ${kb(row.mapKb).padStart(7)} ${kb(row.importMs).padStart(10)}\n`,
    );
  }
} else {
  const ref = args.before;
  const before = new Map(
    (await measureRef(ref)).map((row) => [RENAMED[row.entry] ?? row.entry, row] as const),
  );
  const afterByEntry = new Map(after.map((row) => [row.entry, row] as const));
  const entries = [...afterByEntry.keys(), ...[...before.keys()].filter((entry) => !afterByEntry.has(entry))];
  const ratio = (b?: Measured, a?: Measured) => (a && b ? `${(a.jsKb / b.jsKb).toFixed(2)}x` : "-");
  process.stdout.write(
    `Before: ${ref} (${git("rev-parse", "--short", `${ref}^{commit}`)}), after: this working tree; ` +
      `both built with today's settings (lib/bundle-options.ts). Renamed entries listed by today's name.\n`,
  );
  process.stdout.write(
    `${"bundle".padEnd(36)} ${"JS KB before".padStart(12)} ${"JS KB after".padStart(11)} ${"after/before".padStart(12)} ` +
      `${"map KB".padStart(7)} ${"import ms before".padStart(16)} ${"import ms after".padStart(15)}\n`,
  );
  for (const entry of entries) {
    const b = before.get(entry);
    const a = afterByEntry.get(entry);
    process.stdout.write(
      `${entry.padEnd(36)} ${kb(b?.jsKb).padStart(12)} ${kb(a?.jsKb).padStart(11)} ${ratio(b, a).padStart(12)} ` +
        `${kb(a?.mapKb).padStart(7)} ${kb(b?.importMs).padStart(16)} ${kb(a?.importMs).padStart(15)}\n`,
    );
  }
  const authorizerBefore = before.get(AUTHORIZER);
  const authorizerAfter = afterByEntry.get(AUTHORIZER);
  if (!authorizerBefore || !authorizerAfter) throw new Error(`${AUTHORIZER} is missing on one side`);
  figure(
    "Authorizer bundle",
    `${AUTHORIZER} ${kb(authorizerBefore.jsKb)} KB JS at ${ref} -> ${kb(authorizerAfter.jsKb)} KB now ` +
      `(${ratio(authorizerBefore, authorizerAfter)}), cold import ${kb(authorizerBefore.importMs)} ms -> ` +
      `${kb(authorizerAfter.importMs)} ms`,
  );
}

const largest = after.reduce((a, b) => (b.jsKb > a.jsKb ? b : a));
const slowest = after.reduce((a, b) => (b.importMs > a.importMs ? b : a));
figure(
  "Lambda bundles",
  `${after.length} bundles as deployed (source maps, ${LAMBDA_BUNDLE.nodeOptions}), largest ${largest.entry} ` +
    `${largest.jsKb.toFixed(0)} KB JS + ${largest.mapKb.toFixed(0)} KB map (goal <= 1024 KB), ` +
    `slowest cold import ${slowest.entry} ${slowest.importMs.toFixed(0)} ms (goal <= 150 ms)`,
);
