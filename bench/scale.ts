/**
 * Scale of data: GET route map and a search page for a forwarder owning 20% of
 * the route maps, on a table of 1k route maps (it owns 200) and one of 100k (it owns 20k). The goal:
 * latency at 100k within 1.2x of latency at 1k.
 *
 * Item shape: one route map is written through the real ingest use case and the real DynamoDB
 * adapter (a two-leg booking and its FWB), its items are read back, and every loaded route map is a
 * copy with its own AWB, owner and CreationDate, bulk-written with BatchWriteItem (25 items per call,
 * 8 in flight, unprocessed items retried): the CURRENT record and the reader item on the byReader
 * index, the items GET and search read. Snapshots (BENCH_SNAPSHOTS=1 copies them too, a slower load)
 * and outbox items are items of their own that neither read touches (other sort keys; outbox items
 * expire after 7 days).
 *
 * Fairness: both tables live in one DynamoDB Local and are measured in interleaved rounds (1k, 100k,
 * 100k, 1k, ...) after a warm-up, through the use cases and adapters the Lambda handlers call,
 * in-process (no HTTP: the HTTP layer costs the same at any size; bench/get-route-map.ts measures it).
 * Each measurement is one request at a time (latency, not throughput).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
} from "@aws-sdk/lib-dynamodb";
import {
  createTable,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from "../bin/local/emulators.ts";
import { OUTBOX_SORT_KEY_PREFIX } from "../functions/contracts/outbox.ts";
import { TABLES } from "../functions/contracts/resources.ts";
import type { ForwarderIdentity } from "../functions/core/identity.ts";
import type { RouteMapSearchFilters } from "../functions/core/ports/route-maps.ts";
import { bookingAndFwb, figure, median, percentile, serialFor } from "./support.ts";

const SMALL = Number(process.env.BENCH_SMALL ?? 1_000);
const LARGE = Number(process.env.BENCH_LARGE ?? 100_000);
/** The measured forwarder's share of each table (20k of 100k). */
const SHARE = 0.2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const GETS_PER_ROUND = 50;
const SEARCHES_PER_ROUND = 10;
const WITH_SNAPSHOTS = process.env.BENCH_SNAPSHOTS === "1";
/** A hard stop: the script never hangs (loading 100k takes a few minutes on the 2-core machine). */
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 30 * 60_000);

const OWNER: ForwarderIdentity = {
  role: "forwarder",
  forwarderId: "ACMECARGO",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "FRA",
};
const NO_FILTERS: RouteMapSearchFilters = {
  creationDate: null,
  deliveryDate: null,
  receiptDate: null,
  airlinePrefix: null,
  awbNumber: null,
  origin: null,
  destination: null,
  statuses: null,
};
const SAMPLE_SERIAL = serialFor(9_876_543);

type Item = Record<string, unknown>;
interface Codec {
  pack(text: string): Uint8Array;
  unpack(bytes: Uint8Array, codec: number): string;
}

/**
 * How the repository stores its large JSON, when it compresses it (items with a `codec`
 * attribute): copies must rewrite the AWB inside it too. null = stored as plain strings.
 */
async function storedJsonCodec(): Promise<Codec | null> {
  try {
    const module = (await import("../functions/adapters/route-map-codec.ts")) as {
      packJson?: Codec["pack"];
      unpackJson?: Codec["unpack"];
    };
    return module.packJson && module.unpackJson ? { pack: module.packJson, unpack: module.unpackJson } : null;
  } catch {
    return null;
  }
}

/** Roughly DynamoDB's item size: names plus values (binary as bytes, strings as UTF-8). */
function itemBytes(value: unknown): number {
  if (typeof value === "string") return Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === "number") return 8;
  if (Array.isArray(value) || value instanceof Set) return [...value].reduce((n, v) => n + itemBytes(v), 0);
  if (value && typeof value === "object")
    return Object.entries(value).reduce((n, [k, v]) => n + k.length + itemBytes(v), 0);
  return 1;
}

const dynamoLocal = await startDynamoDbLocal(await freePort());
const watchdog = setTimeout(() => {
  process.stderr.write(`bench/scale.ts: no result within ${TIMEOUT_MS / 60_000} min, stopping\n`);
  void dynamoLocal.stop().finally(() => process.exit(2));
}, TIMEOUT_MS);
watchdog.unref();

try {
  await main();
} finally {
  clearTimeout(watchdog);
  await dynamoLocal.stop();
}

async function main() {
  const endpoint = dynamoLocal.endpoint;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const db = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const tables = { sample: "RouteMapsSample", small: "RouteMapsSmall", large: "RouteMapsLarge" };
  for (const name of Object.values(tables)) await createTable(client, name, TABLES.routeMaps);
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    [TABLES.routeMaps.envVar]: tables.sample,
    // The adapters' consumed-capacity metrics (EMF on stdout) would drown the figures.
    POWERTOOLS_METRICS_DISABLED: "true",
  });
  // Imported after the environment is set: the shared SDK client reads its endpoint when created.
  const { dynamoRouteMapRepository } = await import("../functions/adapters/route-map-repository.ts");
  const { dynamoRouteMapSearch } = await import("../functions/adapters/route-map-search.ts");
  const { ingestCarrierMessage } = await import("../functions/core/use-cases/ingest-carrier-message.ts");
  const { getRouteMap } = await import("../functions/core/use-cases/get-route-map.ts");
  const { searchRouteMaps, parseSort } = await import("../functions/core/use-cases/search-route-maps.ts");

  // ---- the item shape, from the real write path
  const now = Date.now();
  const applied = await ingestCarrierMessage(
    {
      routeMaps: dynamoRouteMapRepository(tables.sample),
      carriers: { get: async () => null },
      backoff: async () => {},
    },
    {
      carrierPrefix: "020",
      contentType: "application/json",
      body: JSON.stringify(bookingAndFwb(SAMPLE_SERIAL, 48, now)),
      now: new Date(now).toISOString(),
    },
  );
  if (!applied.every((a) => a.changed)) throw new Error("the sample route map was not stored");
  const { Items: sample = [] } = await db.send(
    new QueryCommand({
      TableName: tables.sample,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": `AWB#020${SAMPLE_SERIAL}` },
    }),
  );
  // Everything the write stored but its outbox items; without snapshots only CURRENT and the readers.
  const kept = sample.filter(
    (item) =>
      !String(item.sk).startsWith(OUTBOX_SORT_KEY_PREFIX) &&
      (WITH_SNAPSHOTS || item.sk === "CURRENT" || String(item.sk).startsWith("READER#")),
  );
  if (
    !kept.some((item) => item.sk === "CURRENT") ||
    !kept.some((item) => item.readerKey === "AGT#1234567#0001")
  )
    throw new Error(`unexpected sample items: ${sample.map((item) => item.sk).join(", ")}`);
  const createdAt = String(kept.find((item) => item.sk === "CURRENT")?.createdAt);
  const codec = await storedJsonCodec();
  const bytes = kept.reduce((sum, item) => sum + itemBytes(item), 0);
  process.stdout.write(
    `item shape from the real write path: ${kept.map((item) => String(item.sk).replace(/#.*/, "#…")).join(", ")} ` +
      `(${(bytes / 1024).toFixed(1)} KB per route map)\n`,
  );

  /**
   * Route map `i` of a table: its own serial, owner (every 5th is the measured forwarder's agent, the
   * others belong to 500 other agents) and CreationDate (one a minute back from the sample's).
   */
  function routeMapItems(i: number): Item[] {
    const serial = serialFor(1_000_000 + i);
    const owned = i % Math.round(1 / SHARE) === 0;
    const agent = owned ? "1234567" : String(2_000_000 + (i % 500));
    const creation = new Date(Date.parse(createdAt) - i * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const rewrite = (text: string) =>
      text
        .replaceAll(SAMPLE_SERIAL, serial)
        .replaceAll('"1234567"', `"${agent}"`)
        .replaceAll("AGT#1234567#", `AGT#${agent}#`)
        .replace(/^1234567$/, agent);
    return kept.map((sampleItem) => {
      const item = copied(sampleItem, rewrite, codec);
      if (item.sk === "CURRENT") return { ...item, createdAt: creation };
      if (typeof item.readerSort === "string")
        return { ...item, CreationDate: creation, readerSort: `${creation}#020${serial}` };
      return item;
    });
  }

  /** A deep copy with every string rewritten, stored JSON (binary, by the item's codec) included. */
  function copied(
    value: unknown,
    rewrite: (text: string) => string,
    codecOf: Codec | null,
    item?: Item,
  ): Item {
    const walk = (v: unknown, owner: Item | undefined): unknown => {
      if (typeof v === "string") return rewrite(v);
      if (v instanceof Uint8Array) {
        if (!codecOf || typeof owner?.codec !== "number") return v;
        return codecOf.pack(rewrite(codecOf.unpack(v, owner.codec)));
      }
      if (v instanceof Set) return new Set([...v].map((x) => walk(x, owner)));
      if (Array.isArray(v)) return v.map((x) => walk(x, owner));
      if (v && typeof v === "object")
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, owner)]));
      return v;
    };
    const top = (item ?? value) as Item;
    return walk(value, top) as Item;
  }

  async function load(table: string, count: number) {
    const started = performance.now();
    let next = 0;
    let written = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        let batch: Item[] = [];
        const flush = async () => {
          let pending = batch.map((Item) => ({ PutRequest: { Item } }));
          for (let attempt = 0; pending.length > 0; attempt++) {
            if (attempt > 0)
              await new Promise((resolve) => setTimeout(resolve, Math.min(500, 10 * 2 ** attempt)));
            if (attempt > 20) throw new Error("BatchWriteItem kept leaving items unprocessed");
            const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
            pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
          }
          written += batch.length;
          batch = [];
        };
        while (next < count) {
          const i = next++;
          if (i > 0 && i % Math.max(1, Math.floor(count / 10)) === 0)
            process.stdout.write(
              `  ${table}: ${i} route maps, ${((performance.now() - started) / 1000) | 0} s\n`,
            );
          batch.push(...routeMapItems(i));
          while (batch.length >= 25) {
            const rest = batch.slice(25);
            batch = batch.slice(0, 25);
            await flush();
            batch = rest;
          }
        }
        if (batch.length > 0) await flush();
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `loaded ${count} route maps (${written} items) into ${table} in ${seconds.toFixed(0)} s (${(written / seconds).toFixed(0)} items/s)\n`,
    );
  }

  await load(tables.small, SMALL);
  await load(tables.large, LARGE);

  // ---- measured: the use cases the handlers call, with the real adapters, one request at a time
  const sort = parseSort("");
  if (!sort.ok) throw new Error(sort.message);
  const scales = [
    { name: `${SMALL / 1000}k`, count: SMALL, table: tables.small },
    { name: `${LARGE / 1000}k`, count: LARGE, table: tables.large },
  ].map((scale) => ({
    ...scale,
    deps: { routeMaps: dynamoRouteMapRepository(scale.table), search: dynamoRouteMapSearch(scale.table) },
    get: [] as number[],
    search: [] as number[],
    bareGet: [] as number[],
    bareBatch: [] as number[],
    /** The keys of search page 1, for the bare BatchGetItem. */
    pageKeys: [] as Array<{ pk: string; sk: string }>,
  }));
  const ownedSerial = (count: number, k: number) =>
    serialFor(1_000_000 + ((k * 7919) % Math.floor(count * SHARE)) * Math.round(1 / SHARE));
  const nowIso = new Date().toISOString();
  let sequence = 0;

  async function timedGet(scale: (typeof scales)[number], record: boolean) {
    const serial = ownedSerial(scale.count, sequence++);
    const started = performance.now();
    const json = await getRouteMap(scale.deps, {
      awb: { prefix: "020", serial },
      reader: OWNER,
      now: nowIso,
    });
    if (record) scale.get.push(performance.now() - started);
    if (!json.includes(serial)) throw new Error(`GET ${serial} answered another route map`);
  }

  async function timedSearch(scale: (typeof scales)[number], record: boolean, cursor: string | null = null) {
    const started = performance.now();
    const text = await searchRouteMaps(scale.deps, {
      reader: OWNER,
      filters: NO_FILTERS,
      sort: sort.ok ? sort.keys : [],
      page: 1,
      pageSize: 100,
      cursor,
      now: nowIso,
    });
    if (record) scale.search.push(performance.now() - started);
    const page = JSON.parse(text) as { Items: unknown[]; TotalItems: number; NextCursor: string | null };
    if (page.Items.length !== 100)
      throw new Error(`search page of ${scale.name} has ${page.Items.length} items`);
    return page;
  }

  /**
   * The storage alone, for comparison: the same GetItem and a BatchGetItem of search page 1's 100
   * records, whole items, on the same table. What DynamoDB Local itself does at each size.
   */
  async function bareGet(scale: (typeof scales)[number], record: boolean) {
    const serial = ownedSerial(scale.count, sequence++);
    const started = performance.now();
    const { Item } = await db.send(
      new GetCommand({ TableName: scale.table, Key: { pk: `AWB#020${serial}`, sk: "CURRENT" } }),
    );
    if (record) scale.bareGet.push(performance.now() - started);
    if (!Item) throw new Error(`bare GetItem found no ${serial}`);
  }
  async function bareBatch(scale: (typeof scales)[number], record: boolean) {
    const started = performance.now();
    const result = await db.send(
      new BatchGetCommand({ RequestItems: { [scale.table]: { Keys: scale.pageKeys } } }),
    );
    if (record) scale.bareBatch.push(performance.now() - started);
    if (
      (result.Responses?.[scale.table]?.length ?? 0) +
        (result.UnprocessedKeys?.[scale.table]?.Keys?.length ?? 0) !==
      100
    )
      throw new Error("bare BatchGetItem lost keys");
  }

  for (const scale of scales) {
    const page = (await timedSearch(scale, false)) as unknown as {
      Items: Array<{ Shipment: { AwbNumber: string } }>;
    };
    scale.pageKeys = page.Items.map((m) => ({ pk: `AWB#020${m.Shipment.AwbNumber}`, sk: "CURRENT" }));
    for (let i = 0; i < 300; i++) await timedGet(scale, false);
    for (let i = 0; i < 40; i++) await timedSearch(scale, false);
    for (let i = 0; i < 300; i++) await bareGet(scale, false);
    for (let i = 0; i < 40; i++) await bareBatch(scale, false);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const scale of round % 2 === 0 ? scales : [...scales].reverse()) {
      for (let i = 0; i < GETS_PER_ROUND; i++) await timedGet(scale, true);
      for (let i = 0; i < SEARCHES_PER_ROUND; i++) await timedSearch(scale, true);
      for (let i = 0; i < GETS_PER_ROUND; i++) await bareGet(scale, true);
      for (let i = 0; i < SEARCHES_PER_ROUND; i++) await bareBatch(scale, true);
    }
  }

  // Deep paging on the large table: page 50 by cursor costs what page 1 costs.
  const [small, large] = scales;
  if (!small || !large) throw new Error("two scales expected");
  let cursor: string | null = null;
  for (let page = 1; page < 50; page++) cursor = (await timedSearch(large, false, cursor)).NextCursor;
  const deep: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    await timedSearch(large, false, cursor);
    deep.push(performance.now() - started);
  }
  const first = await timedSearch(large, false);

  const stats = (values: number[]) => ({ p50: median(values), p90: percentile(values, 90) });
  const line = (label: string, pick: (scale: (typeof scales)[number]) => number[]) => {
    const a = stats(pick(small));
    const b = stats(pick(large));
    return {
      text:
        `${small.name} p50 ${a.p50.toFixed(1)} ms p90 ${a.p90.toFixed(1)} ms | ${large.name} p50 ${b.p50.toFixed(1)} ms ` +
        `p90 ${b.p90.toFixed(1)} ms | ${large.name}/${small.name} p50 ${(b.p50 / a.p50).toFixed(2)}, p90 ${(b.p90 / a.p90).toFixed(2)} (goal <= 1.2)`,
      label,
    };
  };
  const getLine = line("GET route map", (scale) => scale.get);
  const searchLine = line("search page", (scale) => scale.search);
  process.stdout.write(
    `forwarder owns ${Math.floor(SMALL * SHARE)} and ${Math.floor(LARGE * SHARE)} route maps; ` +
      `${ROUNDS} interleaved rounds of ${GETS_PER_ROUND} GETs and ${SEARCHES_PER_ROUND} search pages (PageSize 100, -CreationDate)\n` +
      `search page 1 on ${large.name}: TotalItems ${first.TotalItems} (counted ahead, a lower bound); ` +
      `page 50 by NextCursor: p50 ${median(deep).toFixed(1)} ms\n` +
      `storage alone: GetItem ${line("", (scale) => scale.bareGet).text}\n` +
      `storage alone: BatchGetItem of page 1's 100 records ${line("", (scale) => scale.bareBatch).text}\n`,
  );
  const ratio = (pick: (scale: (typeof scales)[number]) => number[]) =>
    (median(pick(large)) / median(pick(small))).toFixed(2);
  // Beside each figure, what the storage alone does at the same sizes: a ratio above 1.2 that the
  // storage shows too is DynamoDB Local's, not the design's.
  figure(
    `Scale of data, ${getLine.label}`,
    `${getLine.text}; storage alone (bare GetItem) p50 ${ratio((scale) => scale.bareGet)}`,
  );
  figure(
    `Scale of data, ${searchLine.label}`,
    `${searchLine.text}; storage alone (bare BatchGetItem of the page's 100 records) p50 ${ratio((scale) => scale.bareBatch)}`,
  );
  client.destroy();
}
