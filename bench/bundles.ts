/**
 * Each Lambda bundle's size and cold import time, bundled with the stack's settings (esbuild, minified
 * ESM for node22, the AWS SDK bundled in). Import time: median of 5 fresh `node` processes importing
 * the bundle.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { ROUTES } from "../functions/handlers/http/routes.ts";
import { EVENT_FUNCTIONS } from "../lib/event-functions.ts";
import { figure, median } from "./support.ts";

const root = join(import.meta.dirname, "..");
const out = join(root, ".bench-out", "bundles");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const entries = [
  "http/authorizer",
  ...new Set(ROUTES.map((route) => `http/${route.handler}`)),
  ...EVENT_FUNCTIONS.map((fn) => `${fn.folder}/${fn.handler}`),
];
const env = {
  ROUTE_MAPS_TABLE: "t",
  SUBSCRIPTIONS_TABLE: "t",
  DELIVERIES_TABLE: "t",
  IDEMPOTENCY_TABLE: "t",
  DELIVERY_QUEUE_URL: "http://q",
  CARRIER_REQUESTS_QUEUE_URL: "http://q",
  DUE_CHECKS_QUEUE_URL: "http://q",
  JWT_ISSUER: "https://issuer.example",
  AWS_REGION: "eu-central-1",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  POWERTOOLS_LOG_LEVEL: "ERROR",
};

const rows: Array<{ entry: string; kb: number; importMs: number }> = [];
for (const entry of entries) {
  const file = join(out, `${entry.replace("/", "__")}.mjs`);
  await build({
    entryPoints: [join(root, "functions", "handlers", `${entry}.ts`)],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node22",
    mainFields: ["module", "main"],
    // Same settings as lib/constructs/handler-function.ts (the SDK is bundled, not external).
    external: [],
    banner: { js: "import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);" },
    outfile: file,
    logLevel: "error",
  });
  const probe = join(out, "probe.mjs");
  writeFileSync(
    probe,
    `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`,
  );
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const run = spawnSync(process.execPath, [probe], { env: { ...process.env, ...env }, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`${entry} failed to import: ${run.stderr}`);
    times.push(Number(run.stdout));
  }
  rows.push({ entry, kb: statSync(file).size / 1024, importMs: median(times) });
}
for (const row of rows) {
  process.stdout.write(
    `${row.entry.padEnd(34)} ${row.kb.toFixed(0).padStart(6)} KB  cold import ${row.importMs.toFixed(0).padStart(4)} ms\n`,
  );
}
const largest = rows.reduce((a, b) => (b.kb > a.kb ? b : a));
const slowest = rows.reduce((a, b) => (b.importMs > a.importMs ? b : a));
figure(
  "Lambda bundles",
  `${rows.length} bundles, largest ${largest.entry} ${largest.kb.toFixed(0)} KB (goal <= 1024 KB), slowest cold import ${slowest.entry} ${slowest.importMs.toFixed(0)} ms (goal <= 150 ms)`,
);
