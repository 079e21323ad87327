/**
 * IATA's own unit-test Postman collection for ONE Record servers (test/fixtures/onerecord-postman,
 * README there), run with newman against the local runner. The collection and its environment are
 * read as published; in memory only, the environment's baseUrl points at the runner's /onerecord and
 * the collection's bearer token is replaced by one the runner's /oauth2/token gives a carrier client.
 * Every folder runs; the count passed of each folder's assertions is printed. The folders this
 * server implements must pass in full; the others (subscriptions, action requests, access
 * delegations, PATCH of objects) are printed, not asserted.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnGroup, stopGroup } from "../support/processes.ts";
import {
  call,
  clientToken,
  PROJECT_ROOT,
  type RunningStack,
  startRunner,
  tokens,
} from "../support/runner.ts";
import { scaled } from "../support/time.ts";

/** What this test reads of newman's JSON report (the collection it ran, with the ids it gave). */
interface ReportItem {
  id: string;
  name: string;
  item?: ReportItem[];
}
interface Report {
  collection: { item: ReportItem[] };
  run: {
    executions: {
      item: { id: string; name: string };
      assertions?: { assertion: string; error?: unknown }[];
    }[];
  };
}

let stack: RunningStack;

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/onerecord-postman/${name}`, import.meta.url), "utf8"),
  ) as Record<string, unknown>;

beforeAll(async () => {
  stack = await startRunner();
}, scaled(60_000));

afterAll(async () => {
  await stack?.stop();
});

/** A carrier client's token from the runner's /oauth2/token (support onboards carrier 020 first). */
async function carrierToken(): Promise<string> {
  const support = await clientToken(stack, stack.supportClient.clientId, stack.supportClient.clientSecret);
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: support,
    json: { Name: "Example Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status, put.text).toBe(200);
  const created = await call(stack.url, "POST", "/support/carriers/020/clients", {
    token: support,
    json: { Name: "one record unit tests" },
  });
  expect(created.status, created.text).toBe(201);
  const client = created.body as { ClientId: string; ClientSecret: string };
  return clientToken(stack, client.ClientId, client.ClientSecret, "routemap/carrier");
}

/** Each request's folder path ("Logistics Objects/Get"), by the id newman gave it. */
function foldersById(items: ReportItem[], path: string[] = [], out = new Map<string, string>()) {
  for (const item of items) {
    if (item.item) foldersById(item.item, [...path, item.name], out);
    else out.set(item.id, path.join("/"));
  }
  return out;
}

/**
 * newman in a process of its own (the collection's scripts leave rejected promises behind, which
 * must not reach this test's process), writing its JSON report; resolves when it has exited.
 */
async function runNewman(dir: string): Promise<Report> {
  const report = join(dir, "report.json");
  // A script's promise that rejects (a test reading a property the answer lacks) leaves its
  // assertions unrun; it must not stop newman, so such errors are dropped in newman's process.
  const options = {
    collection: join(dir, "collection.json"),
    environment: join(dir, "environment.json"),
    reporters: ["json"],
    reporter: { json: { export: report } },
    timeoutRequest: scaled(30_000),
  };
  const script = [
    'process.on("unhandledRejection", () => {});',
    'process.on("uncaughtException", () => {});',
    `require(${JSON.stringify(join(PROJECT_ROOT, "node_modules", "newman"))})`,
    `.run(${JSON.stringify(options)}, (error) => process.exit(error ? 1 : 0));`,
  ].join("\n");
  const args = ["-e", script];
  const group = spawnGroup("newman", process.execPath, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  group.child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  group.child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await new Promise((resolve) => group.child.on("exit", resolve));
  } finally {
    await stopGroup(group);
  }
  if (!existsSync(report)) throw new Error(`newman wrote no report: ${output.slice(-2000)}`);
  return JSON.parse(readFileSync(report, "utf8")) as Report;
}

interface CollectionItem {
  name: string;
  item?: CollectionItem[];
  event?: { listen: string; script: { exec: string[] } }[];
}

/** The assertions each folder publishes: the pm.test calls in its requests' test scripts. */
function publishedCounts(items: CollectionItem[], path: string[] = [], out = new Map<string, number>()) {
  for (const item of items) {
    if (item.item) {
      publishedCounts(item.item, [...path, item.name], out);
      continue;
    }
    const tests = (item.event ?? []).filter((event) => event.listen === "test");
    const count =
      tests
        .flatMap((event) => event.script.exec)
        .join("\n")
        .split("pm.test(").length - 1;
    out.set(path.join("/"), (out.get(path.join("/")) ?? 0) + count);
  }
  return out;
}

/** Folders this server serves in full; the rest run and are counted only. */
const ASSERTED = ["Server Information"];

describe("IATA's ONE Record unit-test collection against the local runner", () => {
  it(
    "runs every folder with newman; the served folders pass in full",
    async () => {
      const token = await carrierToken();
      expect(tokens.carrier()).not.toBe(token);
      const collection = fixture("1R_Unit_Tests.postman_collection");
      collection.auth = { type: "bearer", bearer: [{ key: "token", value: token, type: "string" }] };
      const environment = fixture("Unit_Test_Setup.postman_environment");
      environment.values = [
        { key: "baseUrl", value: `${stack.url}/onerecord`, type: "default", enabled: true },
      ];
      const dir = mkdtempSync(join(tmpdir(), "onerecord-postman-"));
      let report: Report;
      try {
        writeFileSync(join(dir, "collection.json"), JSON.stringify(collection));
        writeFileSync(join(dir, "environment.json"), JSON.stringify(environment));
        report = await runNewman(dir);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const folders = foldersById(report.collection.item);
      const counts = new Map<string, { passed: number; total: number; failed: string[] }>();
      for (const execution of report.run.executions) {
        const folder = folders.get(execution.item.id) ?? "(none)";
        const count = counts.get(folder) ?? { passed: 0, total: 0, failed: [] };
        for (const assertion of execution.assertions ?? []) {
          count.total++;
          if (assertion.error === undefined) count.passed++;
          else count.failed.push(`${execution.item.name}: ${assertion.assertion}`);
        }
        counts.set(folder, count);
      }
      const published = publishedCounts(fixture("1R_Unit_Tests.postman_collection").item as CollectionItem[]);
      let passed = 0;
      let total = 0;
      for (const [folder, count] of counts) {
        passed += count.passed;
        total += published.get(folder) ?? count.total;
        console.log(
          `ONE Record unit tests, ${folder}: ${count.passed} of ${published.get(folder)} published assertions passed (${count.total} ran)`,
        );
        if (process.env.ONE_RECORD_FAILURES)
          for (const failure of count.failed) console.log(`  failed: ${failure}`);
      }
      console.log(`ONE Record unit tests, all folders: ${passed} of ${total} assertions passed`);
      for (const folder of ASSERTED) {
        const count = counts.get(folder);
        expect(count?.total, folder).toBeGreaterThan(0);
        expect(count?.failed, folder).toEqual([]);
        expect(count?.passed, folder).toBe(published.get(folder));
      }
    },
    scaled(300_000),
  );
});
