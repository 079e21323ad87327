/**
 * The run's process check. Before any test file, it makes the run's directory (its register of the
 * process groups the suite starts, see processes.ts) and a mark every process the suite starts
 * inherits in its environment. After the last file, nothing the suite started may be left: a group in
 * the register with a live process, or (on Linux, from /proc) any java or node process carrying the
 * mark, fails the run by name. They are killed first, so a failed run leaves nothing behind either.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GROUPS_FILE, groupAlive, RUN_DIR_ENV, RUN_ID_ENV } from "./processes.ts";
import { scaled } from "./time.ts";

interface Leftover {
  pid: number;
  pgid: number;
  what: string;
}

function statOf(pid: number): { ppid: number; pgid: number; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** Live processes other than this one whose environment carries the run's mark (Linux /proc). */
function markedProcesses(mark: string): Leftover[] {
  if (!existsSync("/proc/self/environ")) return [];
  const found: Leftover[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(mark)) continue;
      const stat = statOf(pid);
      if (!stat || stat.state === "Z") continue;
      const what = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      found.push({ pid, pgid: stat.pgid, what });
    } catch {
      // ended while we looked, or not ours to read
    }
  }
  return found;
}

function registeredGroups(runDir: string): Array<{ pgid: number; what: string }> {
  const file = join(runDir, GROUPS_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [pgid, label, command] = line.split("\t");
      return { pgid: Number(pgid), what: `${label}: ${command}` };
    });
}

function leftovers(runDir: string, mark: string): string[] {
  const named: string[] = [];
  for (const group of registeredGroups(runDir))
    if (groupAlive(group.pgid)) named.push(`process group ${group.pgid} (${group.what})`);
  // The pool's own workers carry the mark too; they are the vitest runtime, not something a test started.
  for (const found of markedProcesses(mark))
    if (!/vitest/.test(found.what)) named.push(`pid ${found.pid} pgid ${found.pgid} (${found.what})`);
  return named;
}

function killAll(runDir: string, mark: string): void {
  const kill = (target: number) => {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // gone
    }
  };
  for (const group of registeredGroups(runDir)) if (groupAlive(group.pgid)) kill(-group.pgid);
  for (const found of markedProcesses(mark)) if (!/vitest/.test(found.what)) kill(found.pid);
}

export default function setup(): () => Promise<void> {
  const runDir = mkdtempSync(join(tmpdir(), "rmt-test-run-"));
  const id = randomUUID();
  process.env[RUN_DIR_ENV] = runDir;
  process.env[RUN_ID_ENV] = id;
  const mark = `${RUN_ID_ENV}=${id}`;
  return async () => {
    // A process stopping as the last file ends gets a moment to finish exiting.
    const deadline = Date.now() + scaled(5_000);
    let left = leftovers(runDir, mark);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      left = leftovers(runDir, mark);
    }
    if (left.length > 0) killAll(runDir, mark);
    rmSync(runDir, { recursive: true, force: true });
    // vitest reports a teardown error but keeps its exit code: set it, so the run fails.
    if (left.length > 0) process.exitCode = 1;
    if (left.length > 0)
      throw new Error(
        `the suite left ${left.length} process(es) it started running (now killed):\n  ${left.join("\n  ")}`,
      );
  };
}
