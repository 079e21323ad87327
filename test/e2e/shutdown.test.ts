/** `npm start` then SIGINT (what Ctrl-C sends): no java or node process of the stack survives. */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/runner.ts";

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

it("SIGINT to `npm start` stops every child process", async () => {
  const npm = spawn("npm", ["start"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: "0", DYNAMODB_PORT: "0", SQS_PORT: "0", SES_PORT: "0", SCHEDULER_PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  npm.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  npm.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const started = Date.now();
  while (!output.includes("Ctrl-C stops everything")) {
    if (npm.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() - started > 45_000) throw new Error(`not ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const children = descendants(npm.pid ?? -1);
  expect(children.some((child) => child.command.includes("DynamoDBLocal.jar"))).toBe(true);
  expect(children.some((child) => child.command.includes("bin/local.ts"))).toBe(true);

  const exited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
  npm.kill("SIGINT");
  await exited;
  // Give the kernel a moment to reap; then nothing of the stack may be left.
  const deadline = Date.now() + 10_000;
  while (children.some((child) => alive(child.pid)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(children.filter((child) => alive(child.pid))).toEqual([]);
}, 60_000);
