/**
 * Processes the suite starts, and how it stops them. Each one (a local runner, `npm start`) runs in a
 * process group of its own, so its emulators (the DynamoDB Local JVM, ...) are in that group too and
 * stopping the group stops all of them, even when the runner itself was killed and can no longer stop
 * its children. Every group is written to the run's register (a file in the run's directory, see
 * global-setup.ts), which the end of the run checks: a group still alive there fails the run.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { scaled } from "./time.ts";

/** The run's directory (set by global-setup.ts); its `groups` file lists every group started. */
export const RUN_DIR_ENV = "RMT_TEST_RUN_DIR";
/** A mark in the environment of the run and everything it starts, to find leftovers by. */
export const RUN_ID_ENV = "RMT_TEST_RUN_ID";
export const GROUPS_FILE = "groups";

export interface Group {
  child: ChildProcess;
  pgid: number;
  label: string;
}

const live = new Set<Group>();

/** True while any process of the group is alive (a signal 0 to the group reaches one). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    // ESRCH: no such group; EPERM: the id was reused by a process that is not ours. Neither is ours.
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone already
  }
}

// A worker that exits (its tests done, or crashed) takes what it started with it. A worker killed by
// a signal runs no handler: the end-of-run check catches what is left then.
process.once("exit", () => {
  for (const group of live) signalGroup(group.pgid, "SIGKILL");
});

/** Spawns `command` as the leader of a new process group and writes the group to the run's register. */
export function spawnGroup(
  label: string,
  command: string,
  args: string[],
  options: Omit<SpawnOptions, "detached">,
): Group {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) throw new Error(`${label}: could not start ${command}`);
  const group: Group = { child, pgid: child.pid, label };
  live.add(group);
  const runDir = process.env[RUN_DIR_ENV];
  if (runDir)
    appendFileSync(join(runDir, GROUPS_FILE), `${group.pgid}\t${label}\t${[command, ...args].join(" ")}\n`);
  return group;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function gone(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops a group: `signal` (SIGTERM unless told) to its leader, so it stops its own children the way
 * it does for a developer (or to every process of it, `wholeGroup`, as a terminal's Ctrl-C does); whatever of the group is still alive after the grace gets SIGKILL, the
 * whole group at once. Resolves when no process of the group is left.
 */
export async function stopGroup(
  group: Group,
  options: { signal?: NodeJS.Signals; graceMs?: number; wholeGroup?: boolean } = {},
): Promise<void> {
  const { signal = "SIGTERM", graceMs = scaled(10_000), wholeGroup = false } = options;
  if (groupAlive(group.pgid)) {
    const leaderAlive = group.child.exitCode === null && group.child.signalCode === null;
    if (leaderAlive && !wholeGroup) group.child.kill(signal);
    else signalGroup(group.pgid, signal);
    if (!(await gone(group.pgid, graceMs))) {
      signalGroup(group.pgid, "SIGKILL");
      if (!(await gone(group.pgid, scaled(5_000))))
        throw new Error(`${group.label}: process group ${group.pgid} still alive after SIGKILL`);
    }
  }
  live.delete(group);
}

/** Stops every group this test file started and has not stopped (the file's last afterAll). */
export async function stopAllGroups(): Promise<string[]> {
  const left = [...live].filter((group) => groupAlive(group.pgid));
  await Promise.all([...live].map((group) => stopGroup(group)));
  return left.map((group) => `${group.label} (pgid ${group.pgid})`);
}
