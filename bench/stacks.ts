/**
 * Each CloudFormation template of the app as `npx cdk synth` writes it to cdk.out: its size in bytes
 * (the file, as the deploy uploads it) and its resource count, against CloudFormation's limits
 * (1,000,000 bytes, 500 resources). Synthesizes first (a demonstration deployment, `-c demo=true`,
 * unless other `-c` options are passed after `--`); `--reuse` reads the cdk.out already there.
 *
 *   npm run bench:stacks
 *   npm run bench:stacks -- --reuse
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { figure } from "./support.ts";

const PROJECT_ROOT = join(import.meta.dirname, "..");
const LIMITS = { bytes: 1_000_000, resources: 500 } as const;
const OUT = join(PROJECT_ROOT, "cdk.out");

const args = process.argv.slice(2);
if (!args.includes("--reuse")) {
  const context = args.filter((arg) => arg !== "--reuse");
  const synth = spawnSync(
    "npx",
    ["cdk", "synth", "--quiet", ...(context.length > 0 ? context : ["-c", "demo=true"])],
    {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  if (synth.status !== 0) throw new Error(`cdk synth failed (exit ${synth.status})`);
}

const rows = readdirSync(OUT)
  .filter((file) => file.endsWith(".template.json"))
  .sort()
  .map((file) => {
    const path = join(OUT, file);
    const template = JSON.parse(readFileSync(path, "utf8")) as { Resources?: Record<string, unknown> };
    return { file, bytes: statSync(path).size, resources: Object.keys(template.Resources ?? {}).length };
  });
if (rows.length === 0) throw new Error(`no template in ${OUT}`);

const percent = (value: number, limit: number) => `${((100 * value) / limit).toFixed(1).padStart(5)}%`;
process.stdout.write(`${"template".padEnd(64)} ${"bytes".padStart(9)}        ${"resources".padStart(9)}\n`);
for (const row of rows)
  process.stdout.write(
    `${row.file.padEnd(64)} ${String(row.bytes).padStart(9)} ${percent(row.bytes, LIMITS.bytes)} ${String(row.resources).padStart(9)} ${percent(row.resources, LIMITS.resources)}\n`,
  );
const largest = rows.reduce((a, b) => (b.bytes > a.bytes ? b : a));
const most = rows.reduce((a, b) => (b.resources > a.resources ? b : a));
figure("templates", String(rows.length));
figure(
  "largest template (bytes)",
  `${largest.bytes} (${largest.file}, ${percent(largest.bytes, LIMITS.bytes).trim()})`,
);
figure(
  "most resources in one template",
  `${most.resources} (${most.file}, ${percent(most.resources, LIMITS.resources).trim()})`,
);
