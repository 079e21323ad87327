/**
 * Each Lambda bundle's size and cold import time, built exactly as deployed (lib/bundle-options.ts:
 * esbuild, minified ESM for node22, the AWS SDK bundled in, source maps without sources) and imported
 * the way Lambda starts it, with the function's NODE_OPTIONS (--enable-source-maps, so the map is read
 * and parsed on import too). Import time: median of 5 fresh `node` processes importing the bundle.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LAMBDA_BUNDLE } from "../lib/bundle-options.ts";
import { BUNDLE_IMPORT_ENV, buildLambdaBundles } from "./bundling.ts";
import { figure, median } from "./support.ts";

const IMPORTS = 5;
const root = join(import.meta.dirname, "..");
const out = join(root, ".bench-out", "bundles");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const bundles = await buildLambdaBundles(out);
const nodeOptions = LAMBDA_BUNDLE.nodeOptions.split(/\s+/).filter(Boolean);
const probe = join(out, "probe.mjs");
writeFileSync(
  probe,
  "const t = performance.now(); await import(process.argv[2]); process.stdout.write(String(performance.now() - t));",
);

const rows: Array<{ entry: string; jsKb: number; mapKb: number; importMs: number }> = [];
for (const bundle of bundles) {
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
  rows.push({
    entry: bundle.entry,
    jsKb: bundle.jsBytes / 1024,
    mapKb: bundle.mapBytes / 1024,
    importMs: median(times),
  });
}

process.stdout.write(
  `${"bundle".padEnd(36)} ${"JS KB".padStart(7)} ${"map KB".padStart(7)} ${"import ms".padStart(10)}\n`,
);
for (const row of rows) {
  process.stdout.write(
    `${row.entry.padEnd(36)} ${row.jsKb.toFixed(0).padStart(7)} ${row.mapKb.toFixed(0).padStart(7)} ${row.importMs.toFixed(0).padStart(10)}\n`,
  );
}
const largest = rows.reduce((a, b) => (b.jsKb > a.jsKb ? b : a));
const slowest = rows.reduce((a, b) => (b.importMs > a.importMs ? b : a));
figure(
  "Lambda bundles",
  `${rows.length} bundles as deployed (source maps, ${LAMBDA_BUNDLE.nodeOptions}), largest ${largest.entry} ` +
    `${largest.jsKb.toFixed(0)} KB JS + ${largest.mapKb.toFixed(0)} KB map (goal <= 1024 KB), ` +
    `slowest cold import ${slowest.entry} ${slowest.importMs.toFixed(0)} ms (goal <= 150 ms)`,
);
