/**
 * The README's walk-through works as written: its shell blocks (fenced ```sh walkthrough) run, in
 * order, in one bash session against a fresh local runner, and each step's outcome is checked: the
 * tenants onboarded, the webhook verified and the address confirmed, the route map planned, the
 * webhook's DEP and ARR received by the README's own receiver, and the e-mails in the SES emulator
 * with their verdicts. Also: the README's list of public routes is the route table's, and its verdict
 * table says what the wording module says. So the README cannot drift from the product.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../functions/contracts/routes.ts";
import { milestoneVerdict } from "../../functions/core/notifications/verdict-words.ts";
import { type Group, spawnGroup, stopGroup } from "../support/processes.ts";
import { PROJECT_ROOT, type RunningStack, startRunner } from "../support/runner.ts";
import { scaled } from "../support/time.ts";

const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
const BLOCKS = [...README.matchAll(/^```sh walkthrough\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
/** Generous: a step may wait up to a minute for a delivery (wait_for), on a loaded machine. */
const STEP_BUDGET_MS = scaled(50_000);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One bash that runs the blocks one after another, keeping its variables, like a reader's shell. */
class Shell {
  private output = "";
  private exited: number | null = null;
  private readonly group: Group;
  private step = 0;

  constructor(cwd: string, env: Record<string, string>) {
    // Its own process group: the README's background receiver goes with it in stop().
    this.group = spawnGroup("README walk-through shell", "bash", ["--noprofile", "--norc"], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const take = (chunk: Buffer) => {
      this.output += chunk.toString();
    };
    this.group.child.stdout?.on("data", take);
    this.group.child.stderr?.on("data", take);
    this.group.child.on("exit", (code) => {
      this.exited = code ?? -1;
    });
    // A failing command fails the walk-through, as a reader would notice it.
    this.group.child.stdin?.write("set -eo pipefail\n");
  }

  /** Runs one block; resolves with what it printed (stdout and stderr), throws when a command failed. */
  async run(block: string): Promise<string> {
    const marker = `__walkthrough_step_${++this.step}_done__`;
    const from = this.output.length;
    this.group.child.stdin?.write(`${block}\necho ${marker}\n`);
    const deadline = Date.now() + STEP_BUDGET_MS;
    for (;;) {
      const printed = this.output.slice(from);
      const end = printed.indexOf(marker);
      if (end >= 0) return printed.slice(0, end);
      if (this.exited !== null)
        throw new Error(
          `step ${this.step} failed (bash exited ${this.exited}):\n${block}\n--- output:\n${printed}`,
        );
      if (Date.now() > deadline)
        throw new Error(
          `step ${this.step} not done in ${STEP_BUDGET_MS} ms:\n${block}\n--- output:\n${printed}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The whole group, bash and the receiver it started in the background, even after bash exited. */
  stop(): Promise<void> {
    return stopGroup(this.group, { graceMs: scaled(2_000), wholeGroup: true });
  }
}

let stack: RunningStack | undefined;
let shell: Shell | undefined;
let folder = "";

beforeAll(async () => {
  // A folder of the reader's own: the runner's support client where npm start writes it, and the
  // receiver's hooks.log.
  folder = mkdtempSync(join(tmpdir(), "readme-walkthrough-"));
  stack = await startRunner();
  mkdirSync(join(folder, ".local"));
  writeFileSync(join(folder, ".local", "support-client.json"), JSON.stringify(stack.supportClient));
  shell = new Shell(folder, {
    API: stack.url,
    SES: stack.sesUrl,
    HOOK_PORT: String(await freePort()),
  });
}, scaled(120_000));

afterAll(async () => {
  await shell?.stop();
  await stack?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const hooks = () => readFileSync(join(folder, "hooks.log"), "utf8");
const posted = (event: string) =>
  hooks()
    .split("\n")
    .filter((line) => line.includes(`"Event":"${event}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the README's walk-through, run as written", { timeout: 6 * STEP_BUDGET_MS }, () => {
  it("has its steps: setup, onboarding, alerts, booking, departure, arrival", () => {
    expect(BLOCKS).toHaveLength(6);
  });

  it("runs every step, each with its outcome", async () => {
    if (!shell) throw new Error("no shell");
    const [setup, onboarding, alerts, booking, departure, arrival] = BLOCKS as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];

    expect(await shell.run(setup)).toMatch(/^support token eyJ/m);

    const onboarded = await shell.run(onboarding);
    expect(onboarded).toContain('"ForwarderId":"ACMECARGO"');
    expect(onboarded).toContain('"Name":"Acme Cargo GmbH"');
    expect(onboarded).toContain('"Name":"Example Cargo"');

    const told = await shell.run(alerts);
    // The receiver answered the URL check's challenge, so the webhook is verified.
    expect(told).toMatch(/^\{"Id":\d+,"Event":"DEP,ARR,RMP","Verified":true\}$/m);
    expect(told).toMatch(/^\{"Id":\d+,"NotifyTo":"ops@acmecargo\.example","Event":"DEP,ARR"\}$/m);
    expect(told).toContain("Confirmed: ops@acmecargo.example receives shipment alerts");

    const booked = await shell.run(booking);
    expect(booked).toContain('"Status":"Booked"');
    expect(booked).toMatch(/\{"Name":"DEP","Planned":"\d{4}-\d\d-\d\dT14:25:00"\}/);
    expect(posted("RMP")).toHaveLength(1);

    const departed = await shell.run(departure);
    const [dep] = posted("DEP");
    expect(dep).toMatchObject({
      AirWaybillPrefix: "020",
      AirWaybillNumber: "12345675",
      ForwarderIdentifier: "ACMECARGO",
      Type: "Event",
      Event: "DEP",
      AirportOfEvent: "FRA",
      MilestoneReportedLocalTimeStamp: expect.stringMatching(/T13:40:00$/),
      PlannedLocalTimeStamp: expect.stringMatching(/T14:25:00$/),
    });
    expect(departed).toMatch(/^LH400 departed FRA 15 min after schedule · within plan: Ok$/m);

    const arrived = await shell.run(arrival);
    expect(posted("ARR")).toEqual([
      expect.objectContaining({
        Event: "ARR",
        AirportOfEvent: "JFK",
        MilestoneReportedLocalTimeStamp: expect.stringMatching(/T15:25:00$/),
      }),
    ]);
    expect(arrived).toMatch(/^LH400 arrived at JFK 30 min before schedule · within plan: Ok$/m);
    expect(arrived).toContain('"Status":"AtDestination"');
    expect(arrived).toContain('{"Name":"DEP","Status":"Ok","Actual":');
    expect(arrived).toContain('{"Name":"ARR","Status":"Ok","Actual":');
    // Each event reached the webhook once.
    expect(posted("DEP")).toHaveLength(1);
  });
});

describe("the README's reference", () => {
  it("lists every public route of the route table, and the token endpoint", () => {
    const row = README.split("\n").find((line) => line.startsWith("| public |")) ?? "";
    const publicRoutes = ROUTES.filter((route) => route.roles === "public");
    expect(publicRoutes.length).toBeGreaterThan(0);
    for (const route of publicRoutes) {
      const listed =
        row.includes(`\`${route.method} ${route.path}\``) || row.includes(`\`GET/POST ${route.path}\``);
      expect(listed, `${route.method} ${route.path} in the README's public routes`).toBe(true);
    }
    expect(row).toContain("`POST /oauth2/token`");
  });

  it("states the verdicts in the words of the wording module", () => {
    const at = (minutes: number) => ({
      Utc: new Date(Date.UTC(2026, 2, 14, 12, 0) + minutes * 60_000).toISOString(),
      Local: "",
    });
    const cases: Array<[string, string | undefined]> = [
      [
        "a DEP 15 min after STD",
        milestoneVerdict({ name: "DEP", scheduled: at(0), planned: at(60), actual: at(15) })?.text,
      ],
      [
        "a DEP 70 min after STD",
        milestoneVerdict({ name: "DEP", scheduled: at(0), planned: at(60), actual: at(70) })?.text,
      ],
      [
        "an ARR 30 min before STA",
        milestoneVerdict({ name: "ARR", scheduled: at(0), planned: at(60), actual: at(-30) })?.text,
      ],
      ["an NFD 2 h after plan", milestoneVerdict({ name: "NFD", planned: at(0), actual: at(120) })?.text],
    ];
    for (const [reported, words] of cases) expect(README).toContain(`| ${reported} | \`${words}\` |`);
  });
});
