/**
 * The local runner's process contract (DESIGN.md section 7): `npm start` serves (it is aimed at
 * 15 s on a quiet machine; the test prints the figure and waits a budget scaled for a loaded one),
 * SIGINT (what Ctrl-C sends) leaves no java or node process of the stack behind, and without Java 17+
 * it stops at once with a clear message instead of waiting for a DynamoDB Local that cannot start.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { type Group, spawnGroup, stopGroup } from "../support/processes.ts";
import { PROJECT_ROOT } from "../support/runner.ts";
import { scaled } from "../support/time.ts";

/**
 * Readiness budget: 15 s on a quiet machine, scaled (TEST_TIME_FACTOR) so a loaded one does not fail a
 * start that is only slow; the measured figure is printed, timing claims belong to the printout.
 */
const READY_WITHIN_MS = scaled(15_000);

/** Every live descendant of `root`, read from /proc (Linux, as on the project's machines). */
function descendants(root: number): Array<{ pid: number; command: string }> {
  const parents = new Map<number, number>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(pid, ppid);
      commands.set(pid, readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim());
    } catch {
      // the process ended while we looked
    }
  }
  const found: Array<{ pid: number; command: string }> = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [pid, ppid] of parents) {
      if (ppid === parent) {
        found.push({ pid, command: commands.get(pid) ?? "" });
        queue.push(pid);
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}

// `npm start` in a group of its own: whatever happens in the test, afterAll stops the group.
let started: Group | undefined;
afterAll(async () => {
  if (started) await stopGroup(started);
});

it(
  "`npm start` serves GET /openapi.json, and SIGINT then stops every child process",
  async () => {
    const spawnedAt = Date.now();
    started = spawnGroup("npm start", "npm", ["start"], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        PORT: "0",
        DYNAMODB_PORT: "0",
        SQS_PORT: "0",
        SES_PORT: "0",
        SCHEDULER_PORT: "0",
        SMTP_PORT: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const npm = started.child;
    let output = "";
    npm.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    npm.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    // Ready = the first successful GET /openapi.json, timed from the spawn (the port is picked at start,
    // so it is read from the URLs the runner prints).
    let readyAfterMs: number | null = null;
    while (readyAfterMs === null) {
      if (npm.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
      if (Date.now() - spawnedAt > READY_WITHIN_MS)
        throw new Error(`not ready in ${READY_WITHIN_MS} ms (TEST_TIME_FACTOR scales it):\n${output}`);
      const api = /API\s+(http:\/\/\S+)/.exec(output)?.[1];
      if (api) {
        const response = await fetch(`${api}/openapi.json`).catch(() => null);
        if (response?.status === 200 && ((await response.json()) as { openapi?: string }).openapi === "3.1.0")
          readyAfterMs = Date.now() - spawnedAt;
      }
      if (readyAfterMs === null) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    process.stdout.write(`npm start: GET /openapi.json answered ${readyAfterMs} ms after the spawn\n`);
    expect(readyAfterMs).toBeLessThan(READY_WITHIN_MS);
    expect(output).toContain("Ctrl-C stops everything");
    const children = descendants(npm.pid ?? -1);
    expect(children.some((child) => child.command.includes("DynamoDBLocal.jar"))).toBe(true);
    expect(children.some((child) => child.command.includes("bin/local.ts"))).toBe(true);

    // SIGINT to npm alone, not to its group: the runner itself must stop what it started.
    const exited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
    npm.kill("SIGINT");
    await exited;
    // Give the kernel a moment to reap; then nothing of the stack may be left.
    const deadline = Date.now() + scaled(10_000);
    while (children.some((child) => alive(child.pid)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(children.filter((child) => alive(child.pid))).toEqual([]);
  },
  scaled(60_000),
);

// ---- Java 17+ missing -------------------------------------------------------------------------------

const scratch = mkdtempSync(join(tmpdir(), "rmt-no-java-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A directory holding only a `java` that prints a version banner the way a JRE does (on stderr). */
function fakeJavaDir(name: string, banner: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  const script = join(dir, "java");
  writeFileSync(script, `#!/bin/sh\necho '${banner}' >&2\nexit 0\n`);
  chmodSync(script, 0o755);
  return dir;
}

/**
 * The real start path (`bin/local.ts`, what `npm start` execs) with PATH and JAVA_HOME pointing where
 * no usable java is; node itself is started by absolute path.
 */
function startWithout(javaDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { child } = spawnGroup(
      "runner without java",
      process.execPath,
      ["--import", "tsx", join(PROJECT_ROOT, "bin", "local.ts")],
      {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          PATH: javaDir,
          JAVA_HOME: javaDir,
          PORT: "0",
          DYNAMODB_PORT: "0",
          SQS_PORT: "0",
          SES_PORT: "0",
          SCHEDULER_PORT: "0",
          SMTP_PORT: "0",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

it.each([
  {
    case: "no java on the PATH",
    dir: () => {
      const dir = join(scratch, "empty");
      mkdirSync(dir);
      return dir;
    },
    says: /Java 17 or newer is required.*`java` was not found on the PATH/,
  },
  {
    case: "Java 11",
    dir: () => fakeJavaDir("java11", 'openjdk version "11.0.22" 2024-01-16'),
    says: /Java 17 or newer is required for DynamoDB Local; found version "11/,
  },
  {
    case: "Java 8 (1.8 numbering)",
    dir: () => fakeJavaDir("java8", 'java version "1.8.0_392"'),
    says: /Java 17 or newer is required for DynamoDB Local; found version "1.8/,
  },
])(
  "without Java 17+ ($case) the runner exits 1 at once with a clear message",
  async ({ dir, says }) => {
    const result = await startWithout(dir());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(says);
    // Only the message: no stack trace, and it never claimed to be ready.
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout).not.toContain("ready");
  },
  scaled(30_000),
);
