/**
 * Rule matching at 1k, 10k and 100k rules in DynamoDB Local: the per-event cost of what the matcher
 * does for one outbox event (lookup keys, one Query per key on the match index through the real
 * repository, the pure matcher). The event's audience (its AWB owner) has the same 5 rules at every
 * scale; the other rules belong to other forwarders, as in production. The 100k/1k ratio shows whether
 * cost grows with the number of rules.
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import * as v from "valibot";
import {
  createTables,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from "../bin/local/emulators.ts";
import type { DomainEvent } from "../functions/core/events.ts";
import {
  eventLookupKeys,
  matchEvent,
  NotificationRuleRequestSchema,
  ruleFromRequest,
  type SubscriberIdentity,
  subscriptionIndexKeys,
} from "../functions/core/notifications/index.ts";
import { figure, median, percentile } from "./support.ts";

const SCALES = [1_000, 10_000, 100_000];
const EVENTS_PER_SCALE = Number(process.env.BENCH_EVENTS ?? 400);

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
const repository = dynamoSubscriptionRepository();
const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: dynamo.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
);

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
let nextId = 1;

// The audience's own rules, written through the repository (transaction + index items).
for (const events of ownerRequests) {
  await repository.putRule(ruleFromRequest(request(events), { id: nextId++, owner, now: CREATED }));
}

/** Other forwarders' rules (10 each), bulk-written in the repository's index layout. */
async function addOtherRules(count: number): Promise<void> {
  const items: Array<Record<string, unknown>> = [];
  for (let i = 0; i < count; i++) {
    const id = nextId++;
    const forwarder = Math.floor(id / 10);
    const other: SubscriberIdentity = {
      forwarderId: `FWD${forwarder}`,
      agentCode: String(1_000_000 + forwarder).slice(-7),
      agentCass: String(forwarder % 10_000).padStart(4, "0"),
      agentStation: "JFK",
    };
    const rule = ruleFromRequest(request("DEP,ARR"), { id, owner: other, now: CREATED });
    const subscription = { kind: "rule" as const, rule };
    for (const key of subscriptionIndexKeys(subscription)) {
      items.push({ pk: `MATCH#${key}`, sk: subscriptionSk("rule", id), kind: "rule", data: rule });
    }
  }
  const batches: Array<Array<Record<string, unknown>>> = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < batches.length) {
        let pending = (batches[next++] ?? []).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const result = await db.send(
            new BatchWriteCommand({ RequestItems: { [env.SUBSCRIPTIONS_TABLE ?? ""]: pending } }),
          );
          pending = (result.UnprocessedItems?.[env.SUBSCRIPTIONS_TABLE ?? ""] ?? []) as typeof pending;
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

const perScale: Array<{ rules: number; medianMs: number; p99Ms: number; candidates: number }> = [];
try {
  let total = ownerRequests.length;
  for (const scale of SCALES) {
    const started = performance.now();
    await addOtherRules(scale - total);
    total = scale;
    process.stdout.write(`${scale} rules loaded in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    for (let i = 0; i < 50; i++)
      matchEvent(eventFor(i), await repository.findCandidates(eventLookupKeys(eventFor(i)))); // warm-up
    const costs: number[] = [];
    let candidates = 0;
    let targets = 0;
    for (let i = 0; i < EVENTS_PER_SCALE; i++) {
      const event = eventFor(i);
      const t = performance.now();
      const found = await repository.findCandidates(eventLookupKeys(event));
      targets += matchEvent(event, found).length;
      costs.push(performance.now() - t);
      candidates += found.length;
    }
    if (targets === 0) throw new Error("no event matched: the benchmark would measure nothing");
    perScale.push({
      rules: scale,
      medianMs: median(costs),
      p99Ms: percentile(costs, 99),
      candidates: candidates / EVENTS_PER_SCALE,
    });
    process.stdout.write(
      `${scale} rules: per event median ${median(costs).toFixed(2)} ms, p99 ${percentile(costs, 99).toFixed(2)} ms, ` +
        `${(candidates / EVENTS_PER_SCALE).toFixed(1)} candidates read\n`,
    );
  }
} finally {
  db.destroy();
  await dynamo.stop();
}
const first = perScale[0];
const last = perScale.at(-1);
if (!first || !last) throw new Error("no measurements");
figure(
  "Rule matching per event",
  perScale.map((s) => `${s.rules / 1000}k rules ${s.medianMs.toFixed(2)} ms`).join(", ") +
    ` (median); 100k/1k = ${(last.medianMs / first.medianMs).toFixed(2)} (goal <= 1.5)`,
);
