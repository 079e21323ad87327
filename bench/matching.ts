/**
 * Rule matching at 1k, 10k and 100k rules in DynamoDB Local: the per-event cost of what the matcher
 * does for one outbox event (lookup keys, one Query per key on the match index through the real
 * repository, the pure matcher).
 *
 * Fairness: one DynamoDB Local holds three subscription tables, created from the stack's definition,
 * with 1k, 10k and 100k rules. In each, the event's audience (its AWB owner) has the same 5 rules and
 * every other rule belongs to another forwarder, as in production. Three tables rather than three
 * audiences in one table, because the match index is keyed by audience: in one table every lookup
 * would face the same 111k rules. All three are loaded before anything is timed, then one JVM is warmed
 * with thousands of lookups on all three, and the scales are measured in interleaved rounds
 * (1k, 10k, 100k, 1k, ...), so JIT and garbage collection fall on every scale alike. The 100k/1k ratio
 * of the medians shows whether cost grows with the number of rules.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as v from "valibot";
import {
  createTable,
  createTables,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from "../bin/local/emulators.ts";
import { TABLES } from "../functions/contracts/resources.ts";
import type { DomainEvent } from "../functions/core/events.ts";
import {
  eventLookupKeys,
  matchEvent,
  NotificationRuleRequestSchema,
  ruleFromRequest,
  type SubscriberIdentity,
  subscriptionIndexKeys,
} from "../functions/core/notifications/index.ts";
import type { SubscriptionRepository } from "../functions/core/ports/notifications.ts";
import { figure, median, percentile } from "./support.ts";

const SCALES = [1_000, 10_000, 100_000];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const EVENTS_PER_ROUND = Number(process.env.BENCH_EVENTS ?? 50);
const WARM_UP_PER_SCALE = Number(process.env.BENCH_WARM_UP ?? 1_500);

const dynamo = await startDynamoDbLocal(await freePort());
const env = await createTables(dynamo.endpoint);
Object.assign(process.env, {
  ...env,
  AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
  AWS_REGION: LOCAL_REGION,
  AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
});
const { dynamoSubscriptionRepository, subscriptionSk } = await import(
  "../functions/adapters/subscription-repository.ts"
);
const client = new DynamoDBClient({
  endpoint: dynamo.endpoint,
  region: LOCAL_REGION,
  credentials: LOCAL_CREDENTIALS,
});
const db = DynamoDBDocumentClient.from(client);

const request = (events: string) =>
  v.parse(NotificationRuleRequestSchema, {
    ChannelType: "Email",
    NotifyTo: "ops@forwarder.example",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    AirlinePrefix: "*",
    AwbNumber: "",
    Event: events,
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Destination: "",
    Enabled: true,
  });
const CREATED = "2026-01-01T00:00:00Z";
const owner: SubscriberIdentity = {
  forwarderId: "OWNER",
  agentCode: "7654321",
  agentCass: "0042",
  agentStation: "FRA",
};
const ownerRequests = ["DEP", "DEP,ARR", "ARR,NFD", "DEP,DLV", "RCS"];

interface Population {
  rules: number;
  table: string;
  repository: SubscriptionRepository;
}

/** Other forwarders' rules (10 each): main item + index items, bulk-written in the repository's layout. */
async function addOtherRules(table: string, firstId: number, count: number): Promise<void> {
  const items: Array<Record<string, unknown>> = [];
  for (let id = firstId; id < firstId + count; id++) {
    const forwarder = Math.floor(id / 10);
    const other: SubscriberIdentity = {
      forwarderId: `FWD${forwarder}`,
      agentCode: String(1_000_000 + forwarder).slice(-7),
      agentCass: String(forwarder % 10_000).padStart(4, "0"),
      agentStation: "JFK",
    };
    const rule = ruleFromRequest(request("DEP,ARR"), { id, owner: other, now: CREATED });
    const keys = subscriptionIndexKeys({ kind: "rule", rule });
    const sk = subscriptionSk("rule", id);
    items.push({ pk: `FWD#${other.forwarderId}`, sk, kind: "rule", data: rule, indexKeys: keys, rev: 1 });
    for (const key of keys) items.push({ pk: `MATCH#${key}`, sk, kind: "rule", data: rule });
  }
  const batches: Array<Array<Record<string, unknown>>> = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < batches.length) {
        let pending = (batches[next++] ?? []).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
          pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
        }
      }
    }),
  );
}

function eventFor(i: number): DomainEvent {
  return {
    eventId: `020${String(10_000_000 + i)}-1-0`,
    recordedAt: "2026-06-01T00:00:00Z",
    version: 1,
    audience: { ownerAgent: { code: owner.agentCode, cass: owner.agentCass }, xtdForwarders: [] },
    name: i % 2 === 0 ? "DEP" : "ARR",
    type: "Event",
    eventStatus: "Update",
    awb: { prefix: "020", serial: "12345675" },
    station: "FRA",
    origin: "FRA",
    destination: "JFK",
    flight: { carrierCode: "LH", flightNumber: "400" },
    piecesReported: 10,
    totalPieces: 10,
    weightReported: 250,
    weightCode: "K",
    reported: { Utc: "2026-06-01T00:00:00Z", Local: "2026-06-01T02:00:00" },
    planned: { Utc: "2026-06-01T00:00:00Z", Local: "2026-06-01T02:00:00" },
    isRM: true,
    milestoneKey: "FRA:DEP",
  };
}

/** One event through the matcher's path; returns its cost in ms, candidates read and targets matched. */
async function matchOnce(repository: SubscriptionRepository, i: number) {
  const event = eventFor(i);
  const started = performance.now();
  const found = await repository.findCandidates(eventLookupKeys(event));
  const targets = matchEvent(event, found).length;
  return { ms: performance.now() - started, candidates: found.length, targets };
}

const populations: Population[] = [];
const costs = new Map<number, number[]>(SCALES.map((scale) => [scale, []]));
const roundMedians = new Map<number, number[]>(SCALES.map((scale) => [scale, []]));
const candidates = new Map<number, number>();
try {
  let nextId = 1;
  for (const scale of SCALES) {
    const table = `${TABLES.subscriptions.id}${scale / 1000}k`;
    await createTable(client, table, TABLES.subscriptions);
    const repository = dynamoSubscriptionRepository(table);
    const started = performance.now();
    // The audience's own rules, written through the repository (transaction + index items).
    for (const events of ownerRequests) {
      await repository.putRule(ruleFromRequest(request(events), { id: nextId++, owner, now: CREATED }));
    }
    await addOtherRules(table, nextId, scale - ownerRequests.length);
    nextId += scale;
    populations.push({ rules: scale, table, repository });
    process.stdout.write(
      `${table}: ${scale} rules loaded in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
  }

  // Warm-up on every table, interleaved, not measured: JIT of node and of DynamoDB Local's JVM.
  for (let i = 0; i < WARM_UP_PER_SCALE; i++) {
    for (const population of populations) await matchOnce(population.repository, i);
  }

  for (let round = 0; round < ROUNDS; round++) {
    for (const population of populations) {
      const roundCosts: number[] = [];
      for (let i = 0; i < EVENTS_PER_ROUND; i++) {
        const result = await matchOnce(population.repository, round * EVENTS_PER_ROUND + i);
        if (result.targets === 0) throw new Error("no event matched: the benchmark would measure nothing");
        roundCosts.push(result.ms);
        candidates.set(population.rules, (candidates.get(population.rules) ?? 0) + result.candidates);
      }
      costs.get(population.rules)?.push(...roundCosts);
      roundMedians.get(population.rules)?.push(median(roundCosts));
    }
  }
} finally {
  db.destroy();
  await dynamo.stop();
}

const events = ROUNDS * EVENTS_PER_ROUND;
const medians = new Map<number, number>();
for (const scale of SCALES) {
  const all = costs.get(scale) ?? [];
  medians.set(scale, median(all));
  const perRound = roundMedians.get(scale) ?? [];
  process.stdout.write(
    `${String(scale).padStart(6)} rules: per event median ${median(all).toFixed(2)} ms, p99 ${percentile(all, 99).toFixed(2)} ms, ` +
      `round medians ${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)} ms, ` +
      `${((candidates.get(scale) ?? 0) / events).toFixed(1)} candidates read (${events} events in ${ROUNDS} rounds)\n`,
  );
}
const first = medians.get(SCALES[0] ?? 0) ?? Number.NaN;
const last = medians.get(SCALES.at(-1) ?? 0) ?? Number.NaN;
figure(
  "Rule matching per event",
  SCALES.map((scale) => `${scale / 1000}k rules ${(medians.get(scale) ?? Number.NaN).toFixed(2)} ms`).join(
    ", ",
  ) +
    ` (median of ${events} events each, interleaved rounds after ${WARM_UP_PER_SCALE * SCALES.length} warm-up lookups); ` +
    `100k/1k = ${(last / first).toFixed(2)} (goal <= 1.5)`,
);
