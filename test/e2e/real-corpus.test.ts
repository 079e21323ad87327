/**
 * The real-message corpus (test/fixtures/real: 93 messages no one here wrote, byte for byte as
 * published; README and manifest.json there) through the real ingest path of one local runner:
 * every file is posted to POST /carrier/messages with its format's content type, as the carrier of
 * its AWBs' prefix (a manifest once per prefix it lists), and then
 * - a file the format says is understood answers 200, and the route map and history show what the
 *   manifest says: each milestone's actual at its station with the time as a UTC/local pair, each
 *   status beyond the milestones in the history, each booked flight; an FWB's agent owns the AWB;
 * - a file the format says must be refused answers 400 (naming the line the manifest names) or 422.
 * A forwarder reads every AWB through an XTD grant given before the messages arrive; a status answer
 * or manifest is preceded by the AWB's waybill (an FWB with its route), as a tracked shipment has it.
 * ONE Record documents without an AWB are posted alone and refused. The good practice's documents
 * are then delivered in the context its repository gives them (real-corpus-context.ts): a second
 * runner, its clock at their receipt in 2023, is notified of the Waybill and the Shipment by a
 * stand-in of their ONE Record server that serves them under their own IRIs, and follows the links.
 * A summary table (by format, type and source) is printed; at least 95% of the corpus must behave as
 * the manifest says, and at least 95% of the files it says are understood must be.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import {
  contextFailures,
  inGoodPracticeContext,
  NEONE_ORIGIN,
  POSTMAN_AWB,
  POSTMAN_FILE,
  POSTMAN_RECEIVED_AT,
  POSTMAN_WAYBILL,
  PUBLISHER_ORIGIN,
  postmanDocuments,
  publisherDocuments,
  RECEIVED_AT,
  SHIPMENT,
  WAYBILL,
} from "./real-corpus-context.ts";
import {
  awbRoutes,
  body,
  type Check,
  checksOf,
  contentType,
  type HistoryView,
  type ManifestEntry,
  manifest,
  postingPrefixes,
  refusalLine,
  sourceRepository,
  validAwb,
  waybillSeed,
} from "./real-corpus-expectations.ts";

let stack: RunningStack;
/** A second runner whose clock starts when the good practice's events were sent (they carry a year). */
let contextStack: RunningStack;
/** The good practice's ONE Record server, serving its documents with their own IRIs. */
let publisher: Server;
const READER = { id: "CORPUS", agent: "7777777", cass: "0007" };
const reader = tokens.forwarder(READER.id, READER.agent, READER.cass, "FRA");
const support = tokens.support();

interface Outcome {
  entry: ManifestEntry;
  understood: boolean;
  /** Understood when delivered in the context its own source gives (manifest `context`). */
  inContext?: boolean;
  asExpected: boolean;
  detail: string;
}
const outcomes: Outcome[] = [];

const awb11 = (awb: string) => awb.replace("-", "");

async function post(prefix: string, text: string, type: string) {
  return call(stack.url, "POST", "/carrier/messages", {
    token: tokens.carrier(prefix),
    body: text,
    contentType: type,
  });
}

async function history(awb: string): Promise<HistoryView | null> {
  const answer = await call(stack.url, "GET", `/ffw/service/routemap/${awb11(awb)}/history`, {
    token: reader,
  });
  return answer.status === 200 ? (answer.body as HistoryView) : null;
}

/** Posts one corpus file and says whether the service did what the manifest says. */
async function run(entry: ManifestEntry): Promise<Outcome> {
  const type = contentType(entry);
  if (entry.expected === "understood" && ["FSU", "FSA", "FFM", "XFFM"].includes(entry.type)) {
    for (const [awb, route] of awbRoutes(entry)) {
      if (!validAwb(awb)) continue;
      const seeded = await post(awb.slice(0, 3), waybillSeed(awb, route), "text/plain");
      if (seeded.status !== 200)
        return { entry, understood: false, asExpected: false, detail: `seed ${seeded.text}` };
    }
  }
  const answers = [];
  for (const prefix of postingPrefixes(entry)) answers.push(await post(prefix, body(entry), type));
  const refused = answers.find((a) => a.status !== 200);
  if (refused === undefined) {
    if (entry.expected === "refused")
      return { entry, understood: true, asExpected: false, detail: "understood, the manifest says refused" };
    const failed = await failedChecks(entry);
    return {
      entry,
      understood: true,
      asExpected: failed.length === 0,
      detail: failed.length === 0 ? "ok" : `not shown: ${failed.join("; ")}`,
    };
  }
  const problem = refused.body as { errors?: { field: string }[] };
  const field = problem.errors?.[0]?.field ?? "";
  const detail = `${refused.status} ${field}`;
  if (entry.expected === "understood")
    return { entry, understood: false, asExpected: false, detail: `${detail} ${refused.text.slice(0, 300)}` };
  const line = refusalLine(entry);
  const namesLine = line === null || field === `line ${line}` || field.startsWith(`line ${line}:`);
  return {
    entry,
    understood: false,
    asExpected: [400, 422].includes(refused.status) && namesLine,
    detail: namesLine ? detail : `${detail} (the manifest names line ${line})`,
  };
}

const GOOD_PRACTICE_AWB = "020-12345675";

/**
 * The good practice's documents in their own context, on the runner whose clock starts at their
 * receipt: the publisher announces its Waybill, then its Shipment (whose events it lists), and the
 * service fetches them and the linked Locations. Each file refused alone then counts as understood
 * when the history shows what the manifest says it means in context.
 */
async function deliverInContext(refusedAlone: Outcome[]): Promise<void> {
  const answers = [await notify("020", WAYBILL), await notify("020", SHIPMENT)];
  judgeInContext(refusedAlone, answers, await contextHistory(GOOD_PRACTICE_AWB));
}

/**
 * The hackathon collection's Waybill and events, on the same runner moved on to when they were sent
 * (the clock moves forward only, a year at most a step): NE:ONE announces the changed Waybill.
 */
async function deliverPostmanInContext(refusedAlone: Outcome[]): Promise<void> {
  const year = 366 * 24 * 3600_000;
  for (;;) {
    const moved = await call(contextStack.url, "POST", "/__local/clock", {
      token: support,
      json: { advanceMs: 0 },
    });
    const ahead = Date.parse(POSTMAN_RECEIVED_AT) - Date.parse((moved.body as { now: string }).now);
    if (ahead <= 0) break;
    const step = await call(contextStack.url, "POST", "/__local/clock", {
      token: support,
      json: { advanceMs: Math.min(ahead, year) },
    });
    expect(step.status, step.text).toBe(200);
  }
  const answers = [await notify(POSTMAN_AWB.slice(0, 3), POSTMAN_WAYBILL)];
  judgeInContext(refusedAlone, answers, await contextHistory(POSTMAN_AWB));
}

const notify = (prefix: string, object: string) =>
  call(contextStack.url, "POST", "/onerecord/notifications", {
    token: tokens.carrier(prefix),
    contentType: "application/ld+json",
    body: JSON.stringify({
      "@context": { api: "https://onerecord.iata.org/ns/api#" },
      "@type": "api:Notification",
      "api:hasEventType": { "@id": "api:LOGISTICS_OBJECT_UPDATED" },
      "api:hasLogisticsObject": { "@id": object },
    }),
  });

async function contextHistory(awb: string): Promise<HistoryView | null> {
  const read = await call(contextStack.url, "GET", `/ffw/service/routemap/${awb11(awb)}/history`, {
    token: reader,
  });
  return read.status === 200 ? (read.body as HistoryView) : null;
}

function judgeInContext(
  refusedAlone: Outcome[],
  answers: { status: number; text: string }[],
  view: HistoryView | null,
): void {
  const refused = answers.find((a) => a.status !== 200);
  for (const outcome of refusedAlone) {
    const failed = refused ? [`notification ${refused.status} ${refused.text.slice(0, 200)}`] : [];
    failed.push(...contextFailures(outcome.entry, view));
    outcome.inContext = failed.length === 0;
    outcome.detail +=
      failed.length === 0 ? "; understood in context" : `; in context not shown: ${failed.join("; ")}`;
  }
}

async function failedChecks(entry: ManifestEntry): Promise<string[]> {
  const failed: string[] = [];
  const checks: Check[] = checksOf(entry);
  const histories = new Map<string, HistoryView | null>();
  for (const check of checks) {
    if (!histories.has(check.awb)) histories.set(check.awb, await history(check.awb));
    const h = histories.get(check.awb) ?? null;
    if (h === null || !check.holds(h)) failed.push(`${check.awb} ${check.what}`);
  }
  // An FWB's agent (code and CASS) owns the AWB: that forwarder reads its route map.
  const agent = entry.agent;
  const awb = entry.awbs?.[0];
  if ((entry.type === "FWB" || entry.type === "XFWB") && agent?.cass && awb !== undefined) {
    const owner = tokens.forwarder(`AGT${agent.code}`, agent.code, agent.cass);
    const map = await call(stack.url, "GET", `/ffw/service/routemap/${awb11(awb)}`, { token: owner });
    if (map.status !== 200) failed.push(`agent ${agent.code}/${agent.cass} does not own ${awb}`);
  }
  return failed;
}

function table(rows: Outcome[], key: (o: Outcome) => string): string {
  const groups = new Map<string, Outcome[]>();
  for (const o of rows) groups.set(key(o), [...(groups.get(key(o)) ?? []), o]);
  const lines = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => {
      const understood = list.filter((o) => o.understood || o.inContext).length;
      const asExpected = list.filter((o) => o.asExpected).length;
      return `| ${name} | ${list.length} | ${understood} | ${list.length - understood} | ${asExpected} |`;
    });
  return [
    "| group | files | understood (alone or in context) | refused | as the manifest says |",
    "| --- | --- | --- | --- | --- |",
    ...lines,
  ].join("\n");
}

const UNLIMITED = {
  RATE_LIMIT_PER_SECOND: "100000",
  RATE_LIMIT_BURST: "100000",
  RATE_LIMIT_PER_MINUTE: "1000000000",
  RATE_LIMIT_PER_HOUR: "1000000000",
  RATE_LIMIT_PER_DAY: "1000000000",
};

async function startContext(): Promise<RunningStack> {
  const documents = new Map([...publisherDocuments(manifest), ...postmanDocuments()]);
  publisher = createServer((request, response) => {
    const document = documents.get(new URL(request.url ?? "/", PUBLISHER_ORIGIN).pathname);
    if (document === undefined) response.writeHead(404).end();
    else response.writeHead(200, { "content-type": "application/ld+json" }).end(document);
  });
  await new Promise<void>((resolve) => publisher.listen(0, "127.0.0.1", resolve));
  const standIn = `http://127.0.0.1:${(publisher.address() as AddressInfo).port}`;
  const started = await startRunner({
    ...UNLIMITED,
    LOCAL_CLOCK_AT: RECEIVED_AT,
    LOCAL_ONE_RECORD_ORIGINS: `${PUBLISHER_ORIGIN}=${standIn},${NEONE_ORIGIN}=${standIn}`,
  });
  for (const [awb, server] of [
    [GOOD_PRACTICE_AWB, PUBLISHER_ORIGIN],
    [POSTMAN_AWB, NEONE_ORIGIN],
  ] as const) {
    const put = await call(started.url, "PUT", `/support/carriers/${awb.slice(0, 3)}`, {
      token: support,
      json: {
        Name: `Carrier ${awb.slice(0, 3)}`,
        QualityProgram: true,
        Xtd: true,
        OneRecord: { ServerUrl: `${server}/`, Token: null },
      },
    });
    expect(put.status, put.text).toBe(200);
    const granted = await call(started.url, "POST", "/ffw/service/routemap/sendsme", {
      token: reader,
      json: {
        AirlinePrefix: awb.slice(0, 3),
        AwbNumber: awb.slice(4),
        AgentCode: READER.agent,
        AgentCass: READER.cass,
        IsXTD: true,
      },
    });
    expect(granted.status, granted.text).toBe(200);
  }
  return started;
}

beforeAll(async () => {
  [stack, contextStack] = await Promise.all([startRunner(UNLIMITED), startContext()]);
  const awbs = new Set(manifest.flatMap((e) => e.awbs ?? []).filter(validAwb));
  const prefixes = new Set([...awbs].map((awb) => awb.slice(0, 3)));
  for (const prefix of [...prefixes, "020"]) {
    const put = await call(stack.url, "PUT", `/support/carriers/${prefix}`, {
      token: support,
      json: { Name: `Carrier ${prefix}`, QualityProgram: true, Xtd: true },
    });
    expect(put.status, put.text).toBe(200);
  }
  // The reader's XTD grants, before any message: a grant applies when the route map is created.
  for (const awb of awbs) {
    const granted = await call(stack.url, "POST", "/ffw/service/routemap/sendsme", {
      token: reader,
      json: {
        AirlinePrefix: awb.slice(0, 3),
        AwbNumber: awb.slice(4),
        AgentCode: READER.agent,
        AgentCass: READER.cass,
        IsXTD: true,
      },
    });
    expect(granted.status, granted.text).toBe(200);
  }
}, scaled(300_000));

afterAll(async () => {
  await Promise.all([stack?.stop(), contextStack?.stop()]);
  await new Promise((resolve) => (publisher ? publisher.close(resolve) : resolve(undefined)));
});

describe("the real-message corpus through the ingest path", () => {
  it(
    "understands what the format allows and refuses what it requires, as the manifest says",
    async () => {
      for (const entry of manifest) outcomes.push(await run(entry));
      await deliverInContext(outcomes.filter((o) => inGoodPracticeContext(o.entry) && !o.understood));
      await deliverPostmanInContext(outcomes.filter((o) => o.entry.file === POSTMAN_FILE && !o.understood));
      const understood = outcomes.filter((o) => o.understood).length;
      const inContext = outcomes.filter((o) => o.inContext).length;
      const asExpected = outcomes.filter((o) => o.asExpected).length;
      const expectedUnderstood = outcomes.filter((o) => o.entry.expected === "understood");
      const understoodOfThose = expectedUnderstood.filter((o) => o.understood && o.asExpected).length;
      const summary = [
        `Real corpus: ${outcomes.length} files, ${understood} understood, ${outcomes.length - understood} refused; ` +
          `${asExpected} as the manifest says; ${understoodOfThose} of the ${expectedUnderstood.length} it says are understood; ` +
          `${inContext} of the refused understood in the context their source gives ` +
          `(${understood + inContext} of ${outcomes.length} understood alone or in context).`,
        "",
        "By format, type and version:",
        table(outcomes, (o) => `${o.entry.format} ${o.entry.type} ${o.entry.version}`),
        "",
        "By source:",
        table(outcomes, (o) => sourceRepository(o.entry)),
        "",
        "Not as the manifest says:",
        ...outcomes.filter((o) => !o.asExpected).map((o) => `- ${o.entry.file}: ${o.detail}`),
        "",
        "Understood in context:",
        ...outcomes.filter((o) => o.inContext).map((o) => `- ${o.entry.file}`),
        "",
        "Refused as the format requires:",
        ...outcomes.filter((o) => !o.understood && o.asExpected).map((o) => `- ${o.entry.file}: ${o.detail}`),
      ].join("\n");
      process.stdout.write(`${summary}\n`);
      expect(asExpected / outcomes.length, summary).toBeGreaterThanOrEqual(0.95);
      expect(understoodOfThose / expectedUnderstood.length, summary).toBeGreaterThanOrEqual(0.95);
      // The good practice's notifications are accepted, and its Waybill, fetched with the Locations
      // it links, is the AWB its events are placed on: without it no event of the context is read.
      const contextual = outcomes.filter(
        (o) => inGoodPracticeContext(o.entry) || o.entry.file === POSTMAN_FILE,
      );
      expect(
        contextual.filter((o) => /notification \d/.test(o.detail)),
        summary,
      ).toEqual([]);
      expect(
        contextual.filter((o) => o.entry.type === "Waybill" && !o.inContext).map((o) => o.detail),
        summary,
      ).toEqual([]);
    },
    scaled(600_000),
  );
});
