/**
 * `npm run bench`: runs every benchmark one after the other (never in parallel: 2-core machines),
 * prints their output, and writes the figures with the date and commands into docs/performance.md.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const BENCHMARKS = [
  "bench/parser.ts",
  "bench/bundles.ts",
  "bench/handler-cpu.ts",
  "bench/get-route-map.ts",
  "bench/ingest.ts",
  "bench/matching.ts",
  "bench/message-to-webhook.ts",
  "bench/checks-throughput.ts",
  "bench/cost.ts",
  "bench/scale.ts",
  // Twice: at a rate the 2-core pipeline holds (latency, memory, nothing lost over 5 minutes), and at
  // 80% of the bare TransactWriteItems rate it measures first (the rate goal, taken directly).
  "bench/soak.ts --rate 20",
  "bench/soak.ts --rate 0.8x",
  "bench/web-app.ts",
];

interface Result {
  script: string;
  figures: string[];
  log: string;
  exitCode: number;
}

function run(entry: string): Promise<Result> {
  const [script = entry, ...args] = entry.split(" ");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: root,
      env: {
        ...process.env,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
        POWERTOOLS_LOG_LEVEL: "ERROR",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    const collect = (chunk: Buffer) => {
      process.stdout.write(chunk);
      log += chunk.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("exit", (code) => {
      const figures = log.split("\n").filter((line) => line.startsWith("FIGURE "));
      resolve({
        script: entry,
        figures: figures.map((line) => line.slice("FIGURE ".length)),
        log,
        exitCode: code ?? 1,
      });
    });
  });
}

const only = process.argv.slice(2);
const results: Result[] = [];
for (const script of BENCHMARKS) {
  if (only.length > 0 && !only.some((name) => script.includes(name))) continue;
  if (!existsSync(join(root, script.split(" ")[0] ?? script))) {
    process.stdout.write(`\n== ${script}: not present, skipped\n`);
    continue;
  }
  process.stdout.write(`\n== ${script}\n`);
  results.push(await run(script));
}

const date = new Date().toISOString().slice(0, 10);
const lines = [
  "# Performance",
  "",
  `Latest figures, measured on ${date} with \`npm run bench\` on the project's 2-core development machine`,
  "(Node 20, DynamoDB Local, fauxqs, everything local; shared and noisy: read ratios and medians, not",
  "absolute numbers). Each line comes from the script named, run as `node --import tsx <script>`.",
  "",
  "| benchmark | figure |",
  "|---|---|",
  ...results.flatMap((result) =>
    result.figures.length > 0
      ? result.figures.map((figure) => `| \`${result.script}\` | ${figure.replace(/\|/g, "\\|")} |`)
      : [`| \`${result.script}\` | failed (exit ${result.exitCode}) |`],
  ),
  "",
];
if (only.length === 0) writeFileSync(join(root, "docs", "performance.md"), lines.join("\n"));
process.stdout.write(`\n${lines.slice(6).join("\n")}\n`);
if (results.some((result) => result.exitCode !== 0)) process.exitCode = 1;
