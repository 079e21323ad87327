/**
 * `npm run test:unit`, three times in a row, each in a fresh process: prints every run's wall-clock
 * seconds and their median (the figure). Run it on an otherwise quiet machine; a failed run stops it.
 *
 *   npm run bench:test-unit
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { figure, median } from "./support.ts";

const RUNS = 3;
const ROOT = join(import.meta.dirname, "..");

const seconds: number[] = [];
for (let run = 1; run <= RUNS; run += 1) {
  const started = performance.now();
  const result = spawnSync("npm", ["run", "-s", "test:unit"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const elapsed = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`test:unit failed on run ${run} (exit ${result.status})`);
  seconds.push(elapsed);
  process.stdout.write(`run ${run}: ${elapsed.toFixed(1)} s\n`);
}
figure("npm run test:unit, median of 3 (s)", median(seconds).toFixed(1));
