/**
 * The search side of the byReader index (functions/adapters/route-map-search.ts) against DynamoDB
 * Local, over reader items the real write path stored: index order both ways with ties on
 * CreationDate, positions as exclusive starts, the CreationDate range combined with a position, Limit
 * counted before the filters, and the search use case paging through it by number and by cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTables,
  type DynamoDbLocal,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
} from "../../../bin/local/emulators.ts";
import { awbCheckDigit } from "../../../functions/core/awb.ts";
import type {
  ReaderIndexQuery,
  RouteMapRepository,
  RouteMapSearchFilters,
  RouteMapSearchIndex,
} from "../../../functions/core/ports/route-maps.ts";
import type { ingestCarrierMessage as Ingest } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { parseSort, searchRouteMaps } from "../../../functions/core/use-cases/search-route-maps.ts";
import { scaled } from "../../support/time.ts";

let emulator: DynamoDbLocal;
let repo: RouteMapRepository;
let index: RouteMapSearchIndex;
const READER = "AGT#1234567#0001";
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
const T0 = Date.parse("2026-03-13T10:00:00Z");
/** Creation minute of each route map: three share minute 1 (ties on CreationDate). */
const MINUTES = [0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const serialOf = (i: number) => {
  const seven = String(4_000_000 + i * 7).padStart(7, "0");
  return `${seven}${awbCheckDigit(seven)}`;
};
const originOf = (i: number) => (i % 3 === 0 ? "FRA" : "HAJ");
const instant = (minute: number) => new Date(T0 + minute * 60_000).toISOString().replace(".000Z", "Z");

beforeAll(async () => {
  emulator = await startDynamoDbLocal(await freePort());
  Object.assign(process.env, await createTables(emulator.endpoint, { expireItems: false }), {
    AWS_ENDPOINT_URL_DYNAMODB: emulator.endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  });
  // Imported after the environment is set: the SDK client reads its endpoint when first created.
  const { dynamoRouteMapRepository } = await import("../../../functions/adapters/route-map-repository.ts");
  const { dynamoRouteMapSearch } = await import("../../../functions/adapters/route-map-search.ts");
  const ingest: typeof Ingest = (await import("../../../functions/core/use-cases/ingest-carrier-message.ts"))
    .ingestCarrierMessage;
  repo = dynamoRouteMapRepository();
  index = dynamoRouteMapSearch();
  for (const [i, minute] of MINUTES.entries()) {
    const result = await ingest(
      { routeMaps: repo, carriers: { get: async () => null }, backoff: async () => {} },
      {
        carrierPrefix: "020",
        contentType: "text/plain",
        body: `FWB/16\n020-${serialOf(i)}${originOf(i)}JFK/T10K250.0\nAGT//1234567/0001\n`,
        now: instant(minute),
      },
    );
    expect(result[0]?.changed).toBe(true);
  }
}, scaled(120_000));

afterAll(async () => {
  await emulator?.stop();
});

/** Everything in index order, newest first: (CreationDate, AWB) descending. */
const newestFirst = () =>
  MINUTES.map((minute, i) => ({ key: `${instant(minute)}#020${serialOf(i)}`, serial: serialOf(i), i }))
    .sort((a, b) => (a.key < b.key ? 1 : -1))
    .map((x) => x.serial);

async function readAll(query: Omit<ReaderIndexQuery, "readerKey">) {
  const found: string[] = [];
  let after = query.after;
  let calls = 0;
  do {
    const page = await index.readerPage({ ...query, readerKey: READER, after });
    found.push(...page.matches.map((f) => f.AwbNumber));
    after = page.resumeAfter;
    calls++;
  } while (after && calls < 50);
  return { found, calls };
}

describe("the byReader index page by page", () => {
  it("reads one reader key in index order both ways, resuming strictly after each position, ties included", async () => {
    const desc = await readAll({ filters: NO_FILTERS, descending: true, after: null, limit: 2 });
    expect(desc.found).toEqual(newestFirst());
    const asc = await readAll({ filters: NO_FILTERS, descending: false, after: null, limit: 5 });
    expect(asc.found).toEqual([...newestFirst()].reverse());

    // From the middle of the tie at minute 1, both ways.
    const tied = newestFirst().slice(-4, -1);
    const middle = { creationDate: instant(1), awb11: `020${tied[1]}` };
    const below = await readAll({ filters: NO_FILTERS, descending: true, after: middle, limit: 100 });
    expect(below.found).toEqual(newestFirst().slice(-2));
    const above = await readAll({ filters: NO_FILTERS, descending: false, after: middle, limit: 100 });
    expect(above.found).toEqual([...newestFirst()].reverse().slice(3));
  });

  it("combines the CreationDate range with a position, and reads an empty range as nothing", async () => {
    const range = { from: instant(1), to: instant(4) };
    const all = await readAll({
      filters: { ...NO_FILTERS, creationDate: range },
      descending: true,
      after: null,
      limit: 100,
    });
    expect(all.found).toEqual(newestFirst().slice(-7, -1));
    const after = { creationDate: instant(3), awb11: `020${all.found[1]}` };
    const rest = await readAll({
      filters: { ...NO_FILTERS, creationDate: range },
      descending: true,
      after,
      limit: 100,
    });
    expect(rest.found).toEqual(all.found.slice(2));
    const empty = await index.readerPage({
      readerKey: READER,
      filters: { ...NO_FILTERS, creationDate: { from: instant(5), to: instant(4) } },
      descending: true,
      after: null,
      limit: 10,
    });
    expect(empty).toEqual({ matches: [], resumeAfter: null });
    // A position past the range's end (ascending) is an empty range too, not a DynamoDB error.
    const past = await index.readerPage({
      readerKey: READER,
      filters: { ...NO_FILTERS, creationDate: { from: instant(0), to: instant(2) } },
      descending: false,
      after: { creationDate: instant(5), awb11: "02000000000" },
      limit: 10,
    });
    expect(past).toEqual({ matches: [], resumeAfter: null });
  });

  it("counts Limit before the other filters: a filtered page may be short and says where to resume", async () => {
    const first = await index.readerPage({
      readerKey: READER,
      filters: { ...NO_FILTERS, origin: "FRA" },
      descending: true,
      after: null,
      limit: 3,
    });
    const fra = newestFirst().filter(
      (serial) => originOf(MINUTES.findIndex((_, i) => serialOf(i) === serial)) === "FRA",
    );
    expect(first.matches.length).toBeLessThan(3);
    expect(first.resumeAfter).not.toBeNull();
    const all = await readAll({
      filters: { ...NO_FILTERS, origin: "FRA" },
      descending: true,
      after: null,
      limit: 3,
    });
    expect(all.found).toEqual(fra);
    expect(all.calls).toBe(Math.ceil(MINUTES.length / 3) + (MINUTES.length % 3 === 0 ? 1 : 0));
  });

  it("serves the search use case: pages by number and by cursor agree with the index order", async () => {
    const sort = parseSort("");
    if (!sort.ok) throw new Error(sort.message);
    const reader = {
      role: "forwarder" as const,
      forwarderId: "ACMECARGO",
      agentCode: "1234567",
      agentCass: "0001",
      agentStation: "HAJ",
    };
    const search = async (page: number, cursor: string | null) =>
      JSON.parse(
        await searchRouteMaps(
          { routeMaps: repo, search: index },
          { reader, filters: NO_FILTERS, sort: sort.keys, page, pageSize: 5, cursor, now: instant(60) },
        ),
      ) as {
        Items: Array<{ Shipment: { AwbNumber: string } }>;
        NextCursor: string | null;
        TotalItems: number;
        TotalItemsExact: boolean;
      };
    const serials = (answer: { Items: Array<{ Shipment: { AwbNumber: string } }> }) =>
      answer.Items.map((m) => m.Shipment.AwbNumber);
    const byNumber = [
      ...serials(await search(1, null)),
      ...serials(await search(2, null)),
      ...serials(await search(3, null)),
    ];
    expect(byNumber).toEqual(newestFirst());
    const byCursor: string[] = [];
    const totals: Array<[number, boolean]> = [];
    let cursor: string | null = null;
    do {
      const answer = await search(1, cursor);
      totals.push([answer.TotalItems, answer.TotalItemsExact]);
      byCursor.push(...serials(answer));
      cursor = answer.NextCursor;
    } while (cursor);
    expect(byCursor).toEqual(newestFirst());
    // Counted to the end of the next page: "at least 10" on the first, exact from the second on.
    expect(totals).toEqual([
      [10, false],
      [12, true],
      [12, true],
    ]);
  });
});
