/**
 * Sustained load through the whole local pipeline: carrier DEP messages at a fixed
 * rate for a fixed time against the real local runner (HTTP ingest, DynamoDB Local stream, matcher,
 * fauxqs delivery queue, deliverer, HTTP POST to a local receiver), with 10k notification rules and
 * 1k webhooks across 100 forwarders.
 *
 *   node --import tsx bench/soak.ts [--rate 20] [--duration 5m] [--forwarders 100] [--rules 10000]
 *                                   [--webhooks 1000] [--drain 90s]
 *
 * Set-up (not measured): each forwarder gets webhooks through the API, one for DEP of prefix 020
 * pointing at the receiver and the rest for other events; rules are bulk-written in the subscription
 * repository's own layout (matching.ts does the same): e-mail rules for ARR/NFD of the same forwarders,
 * so the matcher reads them for every event and none of them sends anything. AWBs are booked through
 * the API (booking + FWB naming the forwarder's agent), then each gets DEP messages with a different
 * actual time (each one a change). Prints the sustained rate as a ratio of bare TransactWriteItems of
 * the items one DEP writes (measured on the same DynamoDB Local in the same run), message -> delivery
 * p50/p99, deliveries expected (a DEP event the ingest reported, one DEP webhook per owner) vs received,
 * errors, and the runner's resident memory at the start and end of the load.
 *
 * Never hangs: every HTTP call has a timeout, the drain wait is bounded, a watchdog stops everything,
 * and the runner and receiver are stopped on exit, error, Ctrl-C and SIGTERM.
 */
import { readFileSync } from "node:fs";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import * as v from "valibot";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../bin/local/emulators.ts";
import { TABLES } from "../functions/contracts/resources.ts";
import {
  NotificationRuleRequestSchema,
  ruleFromRequest,
  type SubscriberIdentity,
  subscriptionIndexKeys,
} from "../functions/core/notifications/index.ts";
import { type Receiver, startReceiver } from "../test/adapters/pipeline/receiver.ts";
import { type RunningStack, startRunner, tokens } from "../test/support/runner.ts";
import { bookingAndFwb, figure, percentile, serialFor } from "./support.ts";

// ---- flags -----------------------------------------------------------------------------------------

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const inline = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return inline?.split("=")[1] ?? (at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback);
}
/** "30s", "5m", "90" (seconds) -> milliseconds. */
function duration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text} (e.g. 30s, 5m)`);
  const value = Number(match[1]);
  return match[2] === "ms" ? value : match[2] === "m" ? value * 60_000 : value * 1000;
}
/** Messages per second, or "<factor>x": that fraction of the bare TransactWriteItems rate measured first. */
const RATE_TEXT = flag("rate", process.env.BENCH_RATE ?? "20");
const RATE_FACTOR = RATE_TEXT.endsWith("x") ? Number(RATE_TEXT.slice(0, -1)) : null;
const DURATION_MS = duration(flag("duration", process.env.BENCH_DURATION ?? "5m"));
const FORWARDERS = Number(flag("forwarders", "100"));
const RULES = Number(flag("rules", "10000"));
const WEBHOOKS = Number(flag("webhooks", "1000"));
const DRAIN_MS = duration(flag("drain", "90s"));
const REQUEST_TIMEOUT_MS = 15_000;
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const FIXED_RATE = RATE_FACTOR === null ? Number(RATE_TEXT) : 1;
for (const [name, value] of Object.entries({
  RATE: RATE_FACTOR ?? FIXED_RATE,
  FORWARDERS,
  RULES,
  WEBHOOKS,
})) {
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name.toLowerCase()} must be a positive number`);
}

// ---- lifecycle: everything started here is stopped on every way out --------------------------------

let stack: RunningStack | undefined;
let receiver: Receiver | undefined;
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await stack?.stop().catch(() => stack?.process.kill("SIGKILL"));
    await receiver?.stop().catch(() => {});
  })();
  return stopping;
}
const interrupted = (signal: NodeJS.Signals) => {
  process.stderr.write(`\nbench/soak.ts: ${signal}, stopping the runner\n`);
  void stopAll().finally(() => process.exit(130));
};
process.once("SIGINT", interrupted).once("SIGTERM", interrupted);
const WATCHDOG_MS = 15 * 60_000 + DURATION_MS + DRAIN_MS;
const watchdog = setTimeout(() => {
  process.stderr.write(`bench/soak.ts: not done within ${Math.round(WATCHDOG_MS / 60_000)} min, stopping\n`);
  void stopAll().finally(() => process.exit(2));
}, WATCHDOG_MS);
watchdog.unref();

/** fetch with a timeout: status and parsed body, or status 0 on a timeout or a refused connection. */
async function send(
  url: string,
  init: { method: string; token: string; body: string; contentType: string },
): Promise<{ status: number; body: unknown; text: string }> {
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: { authorization: `Bearer ${init.token}`, "content-type": init.contentType },
      body: init.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body, text };
  } catch (error) {
    return { status: 0, body: null, text: String(error) };
  }
}

/** Runs `task` for 0..count-1 with `concurrency` workers. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Resident memory of a process (Linux /proc), in MB; null where unavailable. */
function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m);
    return line?.[1] ? Number(line[1]) / 1024 : null;
  } catch {
    return null;
  }
}

const forwarder = (f: number): SubscriberIdentity => ({
  forwarderId: `SOAK${String(f).padStart(3, "0")}`,
  agentCode: String(3_000_000 + f),
  agentCass: "0001",
  agentStation: "FRA",
});

try {
  await main();
} finally {
  clearTimeout(watchdog);
  await stopAll();
}

async function main() {
  receiver = await startReceiver();
  stack = await startRunner({
    RATE_LIMIT_PER_SECOND: "1000000",
    RATE_LIMIT_BURST: "1000000",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    RATE_LIMIT_PER_HOUR: "1000000000",
    RATE_LIMIT_PER_DAY: "1000000000",
    MAX_WEBHOOKS_PER_FORWARDER: String(Math.max(50, Math.ceil(WEBHOOKS / FORWARDERS))),
    MAX_RULES_PER_FORWARDER: String(Math.max(500, Math.ceil(RULES / FORWARDERS))),
  });
  const { url } = stack;
  const receiverUrl = receiver.url;
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamoEndpoint,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 3,
    }),
  );
  const carrier = tokens.carrier("020");
  const ingest = (body: string, contentType = "text/plain") =>
    send(`${url}/carrier/messages`, { method: "POST", token: carrier, body, contentType });

  // ---- webhooks through the API: per forwarder one for DEP (the receiver counts it), others not
  const perForwarder = Math.ceil(WEBHOOKS / FORWARDERS);
  const OTHER_EVENTS = ["ARR", "RCS", "RCF", "NFD", "LAT", "DLV"];
  await pool(WEBHOOKS, 8, async (i) => {
    const f = i % FORWARDERS;
    const k = Math.floor(i / FORWARDERS);
    const who = forwarder(f);
    const created = await send(`${url}/ffw/service/routemap/webhook`, {
      method: "POST",
      token: tokens.forwarder(who.forwarderId, who.agentCode, who.agentCass, "FRA"),
      contentType: "application/json",
      body: JSON.stringify({
        Event: k === 0 ? "DEP" : OTHER_EVENTS[k % OTHER_EVENTS.length],
        Url: `${receiverUrl}/${k === 0 ? "dep" : "other"}/${who.forwarderId}`,
        Enable: true,
        Type: "json",
        AWB: "020",
      }),
    });
    if (created.status !== 200 || (created.body as { Enabled?: boolean }).Enabled !== true)
      throw new Error(`webhook ${i}: ${created.status} ${created.text}`);
  });
  process.stdout.write(
    `${WEBHOOKS} webhooks (${perForwarder} per forwarder, one for DEP) created through the API\n`,
  );

  // ---- rules: bulk-written in the repository's layout (main item + one per match-index key)
  process.env.AWS_REGION ??= LOCAL_REGION;
  const { subscriptionSk } = await import("../functions/adapters/subscription-repository.ts");
  const ruleRequest = v.parse(NotificationRuleRequestSchema, {
    ChannelType: "Email",
    NotifyTo: "ops@forwarder.example",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    AirlinePrefix: "020",
    AwbNumber: "",
    Event: "ARR,NFD",
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Destination: "",
    Enabled: true,
  });
  const ruleItems: Array<Record<string, unknown>> = [];
  for (let n = 0; n < RULES; n++) {
    const owner = forwarder(n % FORWARDERS);
    const id = 1_000_000 + n;
    const rule = ruleFromRequest(ruleRequest, { id, owner, now: new Date().toISOString() });
    const keys = subscriptionIndexKeys({ kind: "rule", rule });
    const sk = subscriptionSk("rule", id);
    ruleItems.push({ pk: `FWD#${owner.forwarderId}`, sk, kind: "rule", data: rule, indexKeys: keys, rev: 1 });
    for (const key of keys) ruleItems.push({ pk: `MATCH#${key}`, sk, kind: "rule", data: rule });
  }
  await pool(Math.ceil(ruleItems.length / 25), 8, async (b) => {
    let pending = ruleItems.slice(b * 25, b * 25 + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 20) throw new Error("BatchWriteItem kept leaving rules unprocessed");
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(500, 10 * 2 ** attempt)));
      const result = await db.send(
        new BatchWriteCommand({ RequestItems: { [TABLES.subscriptions.id]: pending } }),
      );
      pending = (result.UnprocessedItems?.[TABLES.subscriptions.id] ?? []) as typeof pending;
    }
  });
  process.stdout.write(
    `${RULES} rules (${ruleItems.length} items) bulk-written across ${FORWARDERS} forwarders\n`,
  );

  // ---- bare TransactWriteItems: the items one DEP writes, written again under fresh keys
  const partition = async (serial: string) =>
    (
      await db.send(
        new QueryCommand({
          TableName: TABLES.routeMaps.id,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": `AWB#020${serial}` },
        }),
      )
    ).Items ?? [];
  const bookedAt = Date.now();
  const probe = serialFor(4_099_999);
  const probeBooking = bookingAndFwb(probe, 24, bookedAt);
  await ingest(JSON.stringify(probeBooking), "application/json");
  const first = probeBooking.Messages[0];
  const flightDay = first && "Legs" in first ? (first.Legs[0]?.Date ?? "") : "";
  const [, month, day] = /^\d{4}-(\d{2})-(\d{2})$/.exec(flightDay) ?? [];
  if (!month || !day) throw new Error(`no flight day in the booking: ${flightDay}`);
  const DDMMM = `${day}${MONTHS[Number(month) - 1]}`;
  const before = new Map((await partition(probe)).map((item) => [String(item.sk), JSON.stringify(item)]));
  const probeDep = await ingest(depMessage(probe, 0, DDMMM));
  if (probeDep.status !== 200) throw new Error(`probe DEP: ${probeDep.status} ${probeDep.text}`);
  const depItems = (await partition(probe)).filter(
    (item) => before.get(String(item.sk)) !== JSON.stringify(item),
  );
  const bareSeconds = 10;
  let bareCount = 0;
  const bareDeadline = performance.now() + bareSeconds * 1000;
  await pool(16, 16, async (worker) => {
    for (let n = 0; performance.now() < bareDeadline; n++) {
      const pk = `BARE#${worker}#${n}`;
      await db.send(
        new TransactWriteCommand({
          TransactItems: depItems.map((item) => ({
            Put: {
              TableName: TABLES.routeMaps.id,
              Item: { ...item, pk },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          })),
        }),
      );
      bareCount++;
    }
  });
  const bareRate = bareCount / bareSeconds;
  process.stdout.write(
    `bare TransactWriteItems of the ${depItems.length} items one DEP writes (${depItems.map((i) => String(i.sk).split("#")[0]).join(", ")}): ` +
      `${bareRate.toFixed(0)} tx/s (16 in flight)\n`,
  );

  const RATE = RATE_FACTOR === null ? FIXED_RATE : Math.max(1, Math.round(RATE_FACTOR * bareRate));
  const MESSAGES = Math.round(RATE * (DURATION_MS / 1000));
  /** Each AWB gets about ten DEPs (each at another minute of its flight day: every one a change). */
  const AWBS = Math.max(FORWARDERS, Math.ceil(MESSAGES / 10));
  /** Sends in flight at most: a pipeline that falls behind shows as a lower achieved rate, not a pile-up. */
  const MAX_IN_FLIGHT = Math.max(50, RATE * 5);

  // ---- AWBs: booked through the API, owned round-robin by the forwarders' agents
  const serials = Array.from({ length: AWBS }, (_, i) => serialFor(4_100_000 + i));
  await pool(Math.ceil(AWBS / 25), 4, async (b) => {
    const messages = serials.slice(b * 25, b * 25 + 25).flatMap((serial, j) => {
      const owner = forwarder((b * 25 + j) % FORWARDERS);
      const booking = bookingAndFwb(serial, 24, bookedAt);
      const [bkd, fwb] = booking.Messages;
      return [bkd, { ...fwb, Agent: { Code: owner.agentCode, Cass: owner.agentCass } }];
    });
    const seeded = await ingest(JSON.stringify({ Messages: messages }), "application/json");
    if (seeded.status !== 200) throw new Error(`booking AWBs: ${seeded.status} ${seeded.text}`);
  });
  process.stdout.write(`${AWBS} AWBs booked (flight day ${DDMMM}) across ${FORWARDERS} forwarders\n`);

  // Let the set-up's own events (bookings, FWBs) drain before measuring.
  await quiet(receiver, 5_000, 60_000);
  const rssStart = rssMb(stack.process.pid);
  // Sampled every second through the load and the drain: the peak, besides start and end.
  const runnerPid = stack.process.pid;
  let rssPeak = rssStart ?? 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(runnerPid) ?? 0);
  }, 1000);
  sampler.unref();

  // ---- the load: DEP messages at a fixed rate
  process.stdout.write(
    `sending ${MESSAGES} DEP messages at ${RATE}/s for ${DURATION_MS / 1000} s (${AWBS} AWBs, ~${Math.ceil(MESSAGES / AWBS)} DEPs each)\n`,
  );
  const sentAt = new Map<string, number>();
  let accepted = 0;
  /** DEPs the ingest acknowledged with a DEP event: each must reach the owner's DEP webhook once. */
  const expectedKeys = new Set<string>();
  /** Sends the client gave up on (timeout): the runner may still have applied them. */
  const timedOutKeys = new Set<string>();
  let noEvent = 0;
  const errors = new Map<string, number>();
  let inFlight = 0;
  let behind = 0;
  const sends: Array<Promise<void>> = [];
  const started = Date.now();
  const interval = 1000 / RATE;
  for (let i = 0; i < MESSAGES; i++) {
    const wait = started + i * interval - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    while (inFlight >= MAX_IN_FLIGHT) {
      behind++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const serial = serials[i % AWBS] ?? "";
    const repeat = Math.floor(i / AWBS);
    const key = `${serial}@${hhmm(repeat)}`;
    sentAt.set(key, Date.now());
    inFlight++;
    sends.push(
      ingest(depMessage(serial, repeat, DDMMM)).then((response) => {
        inFlight--;
        if (response.status !== 200) {
          const reason = response.status === 0 ? "timeout/connection" : String(response.status);
          errors.set(reason, (errors.get(reason) ?? 0) + 1);
          if (response.status === 0) timedOutKeys.add(key);
          return;
        }
        accepted++;
        const applied = (response.body as { Applied: Array<{ Events: string[] }> }).Applied[0];
        if (applied?.Events.includes("DEP")) expectedKeys.add(key);
        else noEvent++;
      }),
    );
  }
  await Promise.all(sends);
  const sendSeconds = (Date.now() - started) / 1000;
  const drainDeadline = Date.now() + DRAIN_MS;
  const depPosts = () => receiver?.received.filter((post) => post.path.startsWith("/dep/")) ?? [];
  /** The message each delivery answers: its AWB and the DEP's local time. */
  const keyOf = (body: string) => {
    const payload = JSON.parse(body) as { AirWaybillNumber: string; MilestoneReportedLocalTimeStamp: string };
    const time = /T(\d{2}):(\d{2})/.exec(payload.MilestoneReportedLocalTimeStamp ?? "");
    return `${payload.AirWaybillNumber}@${time ? `${time[1]}${time[2]}` : ""}`;
  };
  const receivedExpected = () => {
    const keys = new Set(depPosts().map((post) => keyOf(post.body)));
    return [...expectedKeys].filter((key) => keys.has(key)).length;
  };
  while (receivedExpected() < expectedKeys.size && Date.now() < drainDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  clearInterval(sampler);
  const rssEnd = rssMb(stack.process.pid);

  // ---- figures
  const latencies: number[] = [];
  const seen = new Set<string>();
  let lastDelivery = started;
  let unexpected = 0;
  for (const post of depPosts()) {
    const key = keyOf(post.body);
    const sent = sentAt.get(key);
    if (sent === undefined || seen.has(key)) continue;
    seen.add(key);
    if (!expectedKeys.has(key) && !timedOutKeys.has(key)) unexpected++;
    latencies.push(post.at - sent);
    lastDelivery = Math.max(lastDelivery, post.at);
  }
  const expected = expectedKeys.size;
  const received = [...expectedKeys].filter((key) => seen.has(key)).length;
  const deliveredAfterTimeout = [...timedOutKeys].filter((key) => seen.has(key)).length;
  const duplicates = depPosts().length - seen.size;
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  const ingestRate = accepted / sendSeconds;
  // Sustained: messages carried end to end (delivered) per second, from the first send to the last delivery.
  const sustained = seen.size / Math.max(sendSeconds, (lastDelivery - started) / 1000);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const growth = rssStart && rssEnd ? ((rssEnd - rssStart) / rssStart) * 100 : null;
  const mb = (value: number | null) => (value === null ? "n/a" : `${value.toFixed(0)} MB`);
  process.stdout.write(
    [
      `sent ${MESSAGES} in ${sendSeconds.toFixed(1)} s (offered ${RATE}/s; waited on ${MAX_IN_FLIGHT} in flight ${behind} times)`,
      `ingest accepted ${accepted} = ${ingestRate.toFixed(1)} msg/s; errors ${errorCount}${errors.size ? ` (${[...errors].map(([k, n]) => `${k}: ${n}`).join(", ")})` : ""}; accepted without a DEP event ${noEvent}`,
      `deliveries: expected ${expected} (acknowledged DEP events), received ${received}, duplicates ${duplicates}, unexpected ${unexpected}; ` +
        `of ${timedOutKeys.size} sends the client timed out on, ${deliveredAfterTimeout} were delivered all the same`,
      `message -> delivery: p50 ${p50.toFixed(0)} ms, p90 ${percentile(latencies, 90).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${percentile(latencies, 100).toFixed(0)} ms`,
      `sustained ${sustained.toFixed(1)} msg/s end to end = ${((100 * sustained) / bareRate).toFixed(0)}% of bare TransactWriteItems (${bareRate.toFixed(0)} tx/s)`,
      `runner RSS: ${mb(rssStart)} at the start of the load, ${mb(rssEnd)} at the end (${growth === null ? "n/a" : `${growth >= 0 ? "+" : ""}${growth.toFixed(0)}%`}), peak ${mb(rssPeak)}`,
      "",
    ].join("\n"),
  );
  figure(
    "Soak",
    `${RATE} msg/s offered for ${DURATION_MS / 1000} s, ${RULES} rules + ${WEBHOOKS} webhooks / ${FORWARDERS} forwarders: ` +
      `sustained ${sustained.toFixed(1)} msg/s = ${((100 * sustained) / bareRate).toFixed(0)}% of bare TransactWriteItems ${bareRate.toFixed(0)} tx/s (goal >= 80%), ` +
      `p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (goal <= 1 s), received ${received}/${expected} expected, errors ${errorCount}, ` +
      `runner RSS ${mb(rssStart)} -> ${mb(rssEnd)}${growth === null ? "" : ` (${growth >= 0 ? "+" : ""}${growth.toFixed(0)}%, goal <= 20%)`}`,
  );
  db.destroy();
  if (received !== expected || errorCount > 0 || unexpected > 0) process.exitCode = 1;
}

/** The actual time of an AWB's `repeat`-th DEP: another minute of the flight day each time. */
function hhmm(repeat: number): string {
  const minute = (repeat * 7 + 600) % 1440;
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}${String(minute % 60).padStart(2, "0")}`;
}

function depMessage(serial: string, repeat: number, ddmmm: string): string {
  return [
    "FSU/13",
    `020-${serial}FRAJFK/T10K250.0`,
    `DEP/LH9001/${ddmmm}/FRACGN/T10K250.0/A${hhmm(repeat)}`,
  ].join("\n");
}

/** Waits until the receiver saw nothing new for `stillMs` (at most `maxMs`). */
async function quiet(target: Receiver, stillMs: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  let count = target.received.length;
  let since = Date.now();
  while (Date.now() < deadline && Date.now() - since < stillMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (target.received.length !== count) {
      count = target.received.length;
      since = Date.now();
    }
  }
}
