/**
 * Search paging without holding every match: CreationDate sorts stream from the index and
 * merge the caller's reader keys; a Cursor resumes right after a page; TotalItems is counted a bounded
 * way ahead; other sorts hold at most MAX_SORTED_MATCHES and otherwise say which range would fit.
 * Over a synthetic index (thousands of reader items), so what a page reads is visible.
 */
import { describe, expect, it } from "vitest";
import { awbCheckDigit } from "../../../functions/core/awb.ts";
import { InvalidFieldsError } from "../../../functions/core/errors.ts";
import type { ForwarderIdentity } from "../../../functions/core/identity.ts";
import type {
  RouteMapRepository,
  RouteMapSearchFields,
  RouteMapSearchFilters,
  RouteMapView,
} from "../../../functions/core/ports/route-maps.ts";
import {
  MAX_SORTED_MATCHES,
  parseSort,
  searchRouteMaps,
} from "../../../functions/core/use-cases/search-route-maps.ts";
import { memoryRouteMapSearch } from "../../support/memory/route-map-search.ts";

const READER: ForwarderIdentity = {
  role: "forwarder",
  forwarderId: "ACMECARGO",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "FRA",
};
const AGENT_KEY = "AGT#1234567#0001";
const FORWARDER_KEY = "FWD#ACMECARGO";
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
const ORIGINS = ["FRA", "MUC", "HAM", "CGN"];

function serial(n: number): string {
  const seven = String(n).padStart(7, "0");
  return `${seven}${awbCheckDigit(seven)}`;
}

/**
 * `count` route maps owned by READER's agent, one a minute (two share each tenth minute, so ties on
 * CreationDate occur), and `granted` more XTD-granted to its forwarder id; every fifth owned one is
 * also granted (readable through both keys).
 */
function fleet(count: number, granted = 0) {
  const readers = new Map<string, RouteMapSearchFields[]>([
    [AGENT_KEY, []],
    [FORWARDER_KEY, []],
  ]);
  const views = new Map<string, RouteMapView>();
  const add = (n: number, keys: string[]) => {
    const minute = n % 10 === 1 && n > 1 ? n - 1 : n;
    const fields: RouteMapSearchFields = {
      AirlinePrefix: "020",
      AwbNumber: serial(n),
      Origin: ORIGINS[n % ORIGINS.length] ?? "FRA",
      Destination: "JFK",
      Status: n % 3 === 0 ? "Accepted" : "Booked",
      CreationDate: new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString().replace(".000Z", "Z"),
      DeliveryDate: null,
      ReceiptDate: null,
    };
    for (const key of keys) readers.get(key)?.push(fields);
    views.set(`020${fields.AwbNumber}`, {
      awb: { prefix: "020", serial: fields.AwbNumber },
      origin: fields.Origin,
      destination: "JFK",
      version: 1,
      routeMapJson: JSON.stringify({ AwbNumber: fields.AwbNumber }),
      staleAfter: null,
      ownerAgent: keys.includes(AGENT_KEY) ? { code: "1234567", cass: "0001" } : null,
      xtdForwarders: keys.includes(FORWARDER_KEY) ? ["ACMECARGO"] : [],
      createdAt: fields.CreationDate,
      updatedAt: fields.CreationDate,
    });
  };
  for (let n = 1; n <= count; n++) add(n, n % 5 === 0 ? [AGENT_KEY, FORWARDER_KEY] : [AGENT_KEY]);
  for (let n = count + 1; n <= count + granted; n++) add(n, [FORWARDER_KEY]);
  const routeMaps = {
    async queryReaders(query: { readerKey: string }) {
      return [...(readers.get(query.readerKey) ?? [])];
    },
    async getViews(awbs: ReadonlyArray<{ prefix: string; serial: string }>) {
      return awbs.flatMap((awb) => {
        const view = views.get(awb.prefix + awb.serial);
        return view ? [view] : [];
      });
    },
    async get() {
      return null;
    },
  } as unknown as RouteMapRepository;
  const search = memoryRouteMapSearch(routeMaps);
  return { routeMaps, search, all: [...views.values()] };
}

interface Answer {
  TotalItems: number;
  TotalPages: number;
  PageSize: number;
  CurrentPage: number;
  TotalItemsExact: boolean;
  NextCursor: string | null;
  Items: Array<{ AwbNumber: string }>;
}

async function page(
  deps: ReturnType<typeof fleet>,
  options: {
    sort?: string;
    page?: number;
    pageSize?: number;
    cursor?: string | null;
    filters?: Partial<RouteMapSearchFilters>;
  } = {},
): Promise<Answer> {
  const sort = parseSort(options.sort ?? "");
  if (!sort.ok) throw new Error(sort.message);
  return JSON.parse(
    await searchRouteMaps(deps, {
      reader: READER,
      filters: { ...NO_FILTERS, ...options.filters },
      sort: sort.keys,
      page: options.page ?? 1,
      pageSize: options.pageSize ?? 100,
      cursor: options.cursor ?? null,
      now: "2026-06-01T00:00:00Z",
    }),
  ) as Answer;
}

const serials = (answer: Answer) => answer.Items.map((item) => item.AwbNumber);
const readCount = (deps: ReturnType<typeof fleet>) => deps.search.calls.reduce((sum, c) => sum + c.read, 0);

/** Every readable route map in the index's order, newest first (ties: the higher AWB first). */
function expected(deps: ReturnType<typeof fleet>, keep: (view: RouteMapView) => boolean = () => true) {
  return deps.all
    .filter(keep)
    .sort((a, b) => {
      const x = `${a.createdAt}#020${a.awb.serial}`;
      const y = `${b.createdAt}#020${b.awb.serial}`;
      return x < y ? 1 : x > y ? -1 : 0;
    })
    .map((view) => view.awb.serial);
}

async function fieldErrors(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidFieldsError);
  return (error as InvalidFieldsError).errors;
}

describe("search paging from the index (CreationDate sorts)", () => {
  it("merges the reader keys newest first, each route map once, and pages by CurrentPage or Cursor alike", async () => {
    const deps = fleet(230, 40);
    const all = expected(deps);
    expect(all).toHaveLength(270);
    const byNumber: string[] = [];
    for (let n = 1; n <= 4; n++) byNumber.push(...serials(await page(deps, { page: n, pageSize: 75 })));
    expect(byNumber).toEqual(all);

    const byCursor: string[] = [];
    let cursor: string | null = null;
    const pages: number[] = [];
    do {
      const answer: Answer = await page(deps, { pageSize: 75, cursor });
      pages.push(answer.CurrentPage);
      byCursor.push(...serials(answer));
      cursor = answer.NextCursor;
    } while (cursor);
    expect(byCursor).toEqual(all);
    expect(pages).toEqual([1, 2, 3, 4]);
  });

  it("reads the page and a bounded look-ahead, not every match, and counts TotalItems as far as it looked", async () => {
    const deps = fleet(5_000);
    const first = await page(deps, { pageSize: 100 });
    expect(first).toMatchObject({ CurrentPage: 1, PageSize: 100, TotalItemsExact: false });
    // Counted to the end of the next page: "at least 200", so a next page exists.
    expect(first.TotalItems).toBe(200);
    expect(first.TotalPages).toBe(2);
    // What the page reads does not grow with the 5,000 matches (here each key's first Query).
    expect(readCount(deps)).toBeLessThanOrEqual(2 * (2 * 100 + 1));

    // A deep page by cursor reads as little as the first one; its count starts from the pages before.
    let cursor = first.NextCursor;
    let answer = first;
    for (let n = 2; n <= 30 && cursor; n++) {
      answer = await page(deps, { pageSize: 100, cursor });
      cursor = answer.NextCursor;
    }
    deps.search.calls.length = 0;
    const deep = await page(deps, { pageSize: 100, cursor });
    expect(deep.CurrentPage).toBe(31);
    expect(serials(deep)).toEqual(expected(deps).slice(3_000, 3_100));
    expect(readCount(deps)).toBeLessThanOrEqual(2 * (2 * 100 + 1));
    expect(deep).toMatchObject({ TotalItems: 3_200, TotalPages: 32, TotalItemsExact: false });

    // Near the end the count is exact, and the last page has no NextCursor.
    const last = await page(deps, { pageSize: 100, page: 50 });
    expect(last).toMatchObject({
      TotalItems: 5_000,
      TotalPages: 50,
      TotalItemsExact: true,
      NextCursor: null,
    });
    expect(serials(last)).toEqual(expected(deps).slice(4_900));
    const beyond = await page(deps, { pageSize: 100, page: 51 });
    expect(beyond).toMatchObject({ Items: [], TotalItems: 5_000, TotalItemsExact: true, NextCursor: null });
  });

  it("pages oldest first with +CreationDate, and a selective filter reads on until the page is full", async () => {
    const deps = fleet(3_000);
    const oldest = await page(deps, { sort: "+CreationDate", pageSize: 10 });
    expect(serials(oldest)).toEqual(expected(deps).reverse().slice(0, 10));
    const next = await page(deps, { sort: "+CreationDate", pageSize: 10, cursor: oldest.NextCursor });
    expect(serials(next)).toEqual(expected(deps).reverse().slice(10, 20));

    deps.search.calls.length = 0;
    // 1 in 12 is Accepted from MUC: DynamoDB's Limit counts items before the filter, so it reads on.
    const muc = await page(deps, {
      pageSize: 50,
      filters: { origin: "MUC", statuses: ["Accepted"] },
    });
    expect(serials(muc)).toEqual(
      expected(deps, (v) => v.origin === "MUC" && Number(v.awb.serial.slice(0, 7)) % 3 === 0).slice(0, 50),
    );
    // 250 match: counted to the end of the next page, "at least 100"; the last page counts exactly.
    expect(muc).toMatchObject({ TotalItems: 100, TotalItemsExact: false });
    const mucLast = await page(deps, {
      pageSize: 50,
      page: 4,
      filters: { origin: "MUC", statuses: ["Accepted"] },
    });
    expect(mucLast).toMatchObject({ TotalItems: 250, TotalPages: 5, TotalItemsExact: true });
    expect(deps.search.calls.filter((c) => c.readerKey === AGENT_KEY).length).toBeGreaterThan(1);
    expect(Math.max(...deps.search.calls.map((c) => c.limit))).toBeLessThanOrEqual(1_000);
  });

  it("refuses a cursor it did not issue, one of another search, and a cursor with another sort (400 naming Cursor)", async () => {
    const deps = fleet(300);
    const first = await page(deps, { pageSize: 50 });
    expect(first.NextCursor).toMatch(/^1_2_/);
    for (const bad of ["garbage", `${first.NextCursor}x`, "1_2_2026-01-01T00:00:00Z_02000000011_zz"]) {
      expect((await fieldErrors(page(deps, { pageSize: 50, cursor: bad }))).map((e) => e.field)).toEqual([
        "Cursor",
      ]);
    }
    const otherSearch = fieldErrors(
      page(deps, { pageSize: 50, cursor: first.NextCursor, filters: { origin: "FRA" } }),
    );
    expect((await otherSearch)[0]?.message).toContain("another search");
    expect((await fieldErrors(page(deps, { pageSize: 20, cursor: first.NextCursor })))[0]?.field).toBe(
      "Cursor",
    );
    const otherSort = await fieldErrors(
      page(deps, { sort: "+Origin", pageSize: 50, cursor: first.NextCursor }),
    );
    expect(otherSort.map((e) => e.field)).toEqual(["Cursor"]);
  });
});

describe("search sorted in memory (any other sort)", () => {
  it("sorts up to MAX_SORTED_MATCHES exactly, and beyond names Sort and the CreationDate.From that fits", async () => {
    const deps = fleet(MAX_SORTED_MATCHES + 20);
    const errors = await fieldErrors(page(deps, { sort: "+Origin" }));
    expect(errors.map((e) => e.field)).toEqual(["Sort", "CreationDate"]);
    const from = /From (\S+)/.exec(errors[1]?.message ?? "")?.[1];
    expect(from).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    // The range it names is enough: the same sort answers, TotalItems exact, no cursor.
    const narrowed = await page(deps, {
      sort: "+Origin -CreationDate",
      filters: { creationDate: { from: from ?? "", to: null } },
    });
    expect(narrowed.TotalItemsExact).toBe(true);
    expect(narrowed.NextCursor).toBeNull();
    expect(narrowed.TotalItems).toBeLessThanOrEqual(MAX_SORTED_MATCHES);
    expect(narrowed.TotalItems).toBeGreaterThan(MAX_SORTED_MATCHES - 10);
    expect(serials(narrowed).slice(0, 3)).toEqual(
      deps.all
        .filter((v) => v.createdAt >= (from ?? ""))
        .sort((a, b) =>
          a.origin !== b.origin
            ? a.origin < b.origin
              ? -1
              : 1
            : a.createdAt < b.createdAt
              ? 1
              : a.createdAt > b.createdAt
                ? -1
                : 0,
        )
        .slice(0, 3)
        .map((v) => v.awb.serial),
    );
  });
});
