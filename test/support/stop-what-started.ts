/**
 * Every test file's last afterAll (a vitest setup file): stops any process group the file started and
 * did not stop, e.g. a runner whose start timed out before the file's own afterAll could know of it.
 */
import { afterAll } from "vitest";
import { stopAllGroups } from "./processes.ts";
import { scaled } from "./time.ts";

afterAll(async () => {
  const stopped = await stopAllGroups();
  if (stopped.length > 0) process.stderr.write(`stopped what the file left running: ${stopped.join(", ")}\n`);
}, scaled(30_000));
