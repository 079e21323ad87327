/**
 * POST /ffw/service/routemap: search the route maps the caller may read. Served from the byReader
 * index (one reader key per way the caller may read: its agent code + CASS, its forwarder id for XTD
 * grants), never a table scan, and never holding every match:
 *
 * - Sorted by CreationDate alone (the default -CreationDate, or +CreationDate): the index's own
 *   order. Each reader key is read in that order from where the page starts, a bounded Query at a
 *   time, and the keys are merged like sorted lists (k-way merge, duplicates dropped), so a page
 *   reads what it shows, what it skips (CurrentPage > 1 without a Cursor) and one more page ahead,
 *   which counts TotalItems: exact when the matches end within the next page, else a lower bound
 *   (TotalItemsExact false; TotalPages > CurrentPage still says a next page exists). So a page costs
 *   the same however many route maps match, and NextCursor resumes right after it: a deep page costs
 *   that page alone. Ties on CreationDate follow the index: the AWB in the same direction.
 * - Any other sort needs every match in memory: at most MAX_SORTED_MATCHES of them, else a 400 naming
 *   Sort and CreationDate with the CreationDate.From that would fit.
 */

import { InvalidFieldsError } from "../errors.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type {
  ReaderIndexPosition,
  RouteMapRepository,
  RouteMapSearchFields,
  RouteMapSearchFilters,
  RouteMapSearchIndex,
  SearchRange,
} from "../ports/route-maps.ts";
import { formatUtc, parseUtc } from "../time/station-time.ts";
import { currentRouteMapJson, MAX_ROUTE_MAPS_PER_PAGE, mayRead, readerKeysOf } from "./shared/read-access.ts";

/** Matches a sort other than CreationDate may hold in memory (about 300 bytes each: ~3 MB). */
export const MAX_SORTED_MATCHES = 10_000;
/** Index items one Query reads at most (memory per reader key and call). */
const MAX_READ_PER_CALL = 1_000;

const SORT_FIELDS = [
  "CreationDate",
  "DeliveryDate",
  "ReceiptDate",
  "AirlinePrefix",
  "AwbNumber",
  "Origin",
  "Destination",
  "Status",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export interface SortKey {
  field: SortField;
  descending: boolean;
}
const DEFAULT_SORT: SortKey[] = [{ field: "CreationDate", descending: true }];

export interface SearchRouteMapsDeps {
  routeMaps: RouteMapRepository;
  search: RouteMapSearchIndex;
}

export interface SearchRouteMapsInput {
  reader: ForwarderIdentity;
  filters: RouteMapSearchFilters;
  sort: SortKey[];
  /** 1-based */
  page: number;
  /** Capped at MAX_ROUTE_MAPS_PER_PAGE; the answer's PageSize is the size used. */
  pageSize: number;
  /** A previous answer's NextCursor (same filters, sort and page size): the page after it. */
  cursor?: string | null;
  now: string;
}

/** "-CreationDate +Origin" (spaces or commas between keys; no sign = ascending). */
export function parseSort(
  text: string | undefined,
): { ok: true; keys: SortKey[] } | { ok: false; message: string } {
  if (text === undefined || text.trim() === "") return { ok: true, keys: DEFAULT_SORT };
  const keys: SortKey[] = [];
  for (const token of text.trim().split(/[\s,]+/)) {
    const descending = token.startsWith("-");
    const name = token.replace(/^[+-]/, "");
    if (!(SORT_FIELDS as readonly string[]).includes(name))
      return { ok: false, message: `unknown sort field "${name}"; allowed: ${SORT_FIELDS.join(", ")}` };
    if (keys.some((k) => k.field === name)) return { ok: false, message: `sort field ${name} given twice` };
    keys.push({ field: name as SortField, descending });
  }
  return { ok: true, keys };
}

function inRange(value: string | null, range: SearchRange | null): boolean {
  if (range === null) return true;
  if (value === null) return false;
  return (range.from === null || value >= range.from) && (range.to === null || value <= range.to);
}

/** The filter every repository applies (DynamoDB as a key condition + filter expression). */
export function matchesSearch(fields: RouteMapSearchFields, filters: RouteMapSearchFilters): boolean {
  return (
    inRange(fields.CreationDate, filters.creationDate) &&
    inRange(fields.DeliveryDate, filters.deliveryDate) &&
    inRange(fields.ReceiptDate, filters.receiptDate) &&
    (filters.airlinePrefix === null || fields.AirlinePrefix === filters.airlinePrefix) &&
    (filters.awbNumber === null || fields.AwbNumber === filters.awbNumber) &&
    (filters.origin === null || fields.Origin === filters.origin) &&
    (filters.destination === null || fields.Destination === filters.destination) &&
    (filters.statuses === null || filters.statuses.includes(fields.Status))
  );
}

/** Nulls (not yet delivered/received) come last in either direction; the AWB breaks ties. */
function compare(a: RouteMapSearchFields, b: RouteMapSearchFields, sort: readonly SortKey[]): number {
  for (const { field, descending } of sort) {
    const x = a[field];
    const y = b[field];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * (descending ? -1 : 1);
  }
  const ka = a.AirlinePrefix + a.AwbNumber;
  const kb = b.AirlinePrefix + b.AwbNumber;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

const positionOf = (f: RouteMapSearchFields): ReaderIndexPosition => ({
  creationDate: f.CreationDate,
  awb11: f.AirlinePrefix + f.AwbNumber,
});

/** The index's order, (CreationDate, AWB), in the direction asked. */
function indexOrder(a: ReaderIndexPosition, b: ReaderIndexPosition, descending: boolean): number {
  const x = `${a.creationDate}#${a.awb11}`;
  const y = `${b.creationDate}#${b.awb11}`;
  return (x < y ? -1 : x > y ? 1 : 0) * (descending ? -1 : 1);
}

/**
 * The matches of all the caller's reader keys as one sequence in index order: each key is read a
 * bounded Query at a time from `after`, the heads are merged, and an AWB readable through two keys
 * (owned and XTD-granted) comes once (both of its index items sit at the same position).
 */
function mergedMatches(
  index: RouteMapSearchIndex,
  readerKeys: readonly string[],
  options: {
    filters: RouteMapSearchFilters;
    descending: boolean;
    after: ReaderIndexPosition | null;
    /** The first Query's Limit: what the caller expects to read. */
    firstRead: number;
  },
) {
  const streams = readerKeys.map((readerKey) => ({
    readerKey,
    buffer: [] as RouteMapSearchFields[],
    after: options.after,
    done: false,
    limit: Math.max(1, Math.min(options.firstRead, MAX_READ_PER_CALL)),
  }));
  type Stream = (typeof streams)[number];
  const fill = async (stream: Stream) => {
    while (stream.buffer.length === 0 && !stream.done) {
      const page = await index.readerPage({
        readerKey: stream.readerKey,
        filters: options.filters,
        descending: options.descending,
        after: stream.after,
        limit: stream.limit,
      });
      stream.buffer.push(...page.matches);
      stream.after = page.resumeAfter;
      stream.done = page.resumeAfter === null;
      // A filter that drops most items: read further per call, still bounded.
      stream.limit = Math.min(stream.limit * 2, MAX_READ_PER_CALL);
    }
  };
  let last: ReaderIndexPosition | null = null;
  return async function next(): Promise<RouteMapSearchFields | null> {
    for (;;) {
      await Promise.all(streams.map(fill));
      let best: Stream | null = null;
      for (const stream of streams) {
        const head = stream.buffer[0];
        const bestHead = best?.buffer[0];
        if (head && (!bestHead || indexOrder(positionOf(head), positionOf(bestHead), options.descending) < 0))
          best = stream;
      }
      const head = best?.buffer.shift();
      if (!head) return null;
      const position = positionOf(head);
      if (last && indexOrder(position, last, options.descending) === 0) continue;
      last = position;
      return head;
    }
  };
}

// ---- the cursor: `1_<page>_<CreationDate>_<awb11>_<search fingerprint>` --------------------------

interface SearchCursor {
  /** The page it opens (1-based). */
  page: number;
  /** The last route map of the page before. */
  after: ReaderIndexPosition;
  fingerprint: string;
}

/** FNV-1a of the search (filters, sort, page size): a cursor only continues the search it came from. */
function fingerprintOf(input: Pick<SearchRouteMapsInput, "filters" | "sort">, pageSize: number): string {
  const text = JSON.stringify([input.filters, input.sort, pageSize]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

const encodeCursor = (cursor: SearchCursor) =>
  `1_${cursor.page}_${cursor.after.creationDate}_${cursor.after.awb11}_${cursor.fingerprint}`;

const CURSOR =
  /^1_([1-9]\d{0,8})_(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z)_(\d{11})_([0-9a-z]{1,7})$/;

function cursorError(message: string): InvalidFieldsError {
  return new InvalidFieldsError([{ field: "Cursor", message }]);
}

function decodeCursor(text: string, fingerprint: string): SearchCursor {
  const [, page, creationDate, awb11, found] = CURSOR.exec(text) ?? [];
  if (!page || !creationDate || !awb11 || !found)
    throw cursorError("not a cursor this API issued: send a previous answer's NextCursor unchanged");
  if (found !== fingerprint)
    throw cursorError(
      "belongs to another search: send it with the filters, Sort and PageSize of the search that answered it",
    );
  return { page: Number(page), after: { creationDate, awb11 }, fingerprint };
}

// ---- the two ways to a page ----------------------------------------------------------------------

interface FoundPage {
  page: number;
  matches: RouteMapSearchFields[];
  total: number;
  exact: boolean;
  nextCursor: string | null;
}

/** The sort is the index's own order (CreationDate alone), so the page streams from the index. */
const indexSorted = (sort: readonly SortKey[]) => sort.length === 1 && sort[0]?.field === "CreationDate";

async function pageFromIndex(
  index: RouteMapSearchIndex,
  input: SearchRouteMapsInput,
  pageSize: number,
): Promise<FoundPage> {
  const fingerprint = fingerprintOf(input, pageSize);
  const cursor = input.cursor ? decodeCursor(input.cursor, fingerprint) : null;
  const page = cursor?.page ?? input.page;
  // Without a cursor, the pages before are read and skipped (streamed, not kept).
  const skip = cursor ? 0 : (page - 1) * pageSize;
  const next = mergedMatches(index, readerKeysOf(input.reader), {
    filters: input.filters,
    descending: input.sort[0]?.descending ?? true,
    after: cursor?.after ?? null,
    firstRead: skip + 2 * pageSize + 1,
  });
  let skipped = 0;
  let end = false;
  while (skipped < skip && !end) {
    if ((await next()) === null) end = true;
    else skipped++;
  }
  const matches: RouteMapSearchFields[] = [];
  while (matches.length < pageSize && !end) {
    const match = await next();
    if (match === null) end = true;
    else matches.push(match);
  }
  let counted = 0;
  // The next page, and one more to know whether the count ends there.
  while (counted <= pageSize && !end) {
    if ((await next()) === null) end = true;
    else counted++;
  }
  const before = cursor ? (page - 1) * pageSize : skipped;
  const lastMatch = matches.at(-1);
  return {
    page,
    matches,
    total: before + matches.length + Math.min(counted, pageSize),
    exact: end,
    nextCursor:
      counted > 0 && lastMatch
        ? encodeCursor({ page: page + 1, after: positionOf(lastMatch), fingerprint })
        : null,
  };
}

async function pageSortedInMemory(
  index: RouteMapSearchIndex,
  input: SearchRouteMapsInput,
  pageSize: number,
): Promise<FoundPage> {
  const sortNames = input.sort.map((key) => key.field).join(", ");
  if (input.cursor)
    throw cursorError(`paging by cursor follows CreationDate; sorted by ${sortNames}, page by CurrentPage`);
  const next = mergedMatches(index, readerKeysOf(input.reader), {
    filters: input.filters,
    descending: true,
    after: null,
    firstRead: MAX_READ_PER_CALL,
  });
  const all: RouteMapSearchFields[] = [];
  for (let match = await next(); match !== null; match = await next()) {
    if (all.length === MAX_SORTED_MATCHES) throw tooManyToSort(sortNames, all.at(-1), input.filters);
    all.push(match);
  }
  all.sort((a, b) => compare(a, b, input.sort));
  const start = (input.page - 1) * pageSize;
  return {
    page: input.page,
    matches: all.slice(start, start + pageSize),
    total: all.length,
    exact: true,
    nextCursor: null,
  };
}

/**
 * More than MAX_SORTED_MATCHES match a sort that needs them all in memory: a 400 naming Sort and
 * CreationDate, with the From that keeps the newest MAX_SORTED_MATCHES (one second after the oldest
 * of them, so no tie at that instant pushes the count over).
 */
function tooManyToSort(
  sortNames: string,
  oldestKept: RouteMapSearchFields | undefined,
  filters: RouteMapSearchFilters,
): InvalidFieldsError {
  const from = oldestKept ? formatUtc(parseUtc(oldestKept.CreationDate) + 1000) : null;
  const to = filters.creationDate?.to;
  const range = from ? `From ${from}${to ? ` (To ${to})` : ""}` : "a shorter range";
  return new InvalidFieldsError([
    {
      field: "Sort",
      message:
        `sorting by ${sortNames} holds every match in memory, at most ${MAX_SORTED_MATCHES}, and more match: ` +
        "sort by CreationDate (pages straight from the index, no limit) or narrow the search",
    },
    {
      field: "CreationDate",
      message: `to sort by ${sortNames}, narrow CreationDate to at most ${MAX_SORTED_MATCHES} matches: ${range}`,
    },
  ]);
}

/**
 * The page as JSON text: `{ TotalItems, TotalPages, PageSize, CurrentPage, Items, TotalItemsExact,
 * NextCursor }` (the last two are additions: see the module comment).
 */
export async function searchRouteMaps(
  deps: SearchRouteMapsDeps,
  input: SearchRouteMapsInput,
): Promise<string> {
  // Bounded by construction: at most MAX_ROUTE_MAPS_PER_PAGE route maps per answer (Lambda's 6 MB).
  const pageSize = Math.min(input.pageSize, MAX_ROUTE_MAPS_PER_PAGE);
  const found = indexSorted(input.sort)
    ? await pageFromIndex(deps.search, input, pageSize)
    : await pageSortedInMemory(deps.search, input, pageSize);

  const awbs = found.matches.map((f) => ({ prefix: f.AirlinePrefix, serial: f.AwbNumber }));
  const views = new Map(
    (await deps.routeMaps.getViews(awbs)).map((view) => [view.awb.prefix + view.awb.serial, view]),
  );
  const items = await Promise.all(
    awbs.map(async (awb) => {
      const view = views.get(awb.prefix + awb.serial);
      // Reader items are rewritten with the record, so this only drops a change racing the search.
      if (!view || !mayRead(view, input.reader)) return null;
      return currentRouteMapJson(view, input.now, () => deps.routeMaps.get(awb));
    }),
  );
  const head = {
    TotalItems: found.total,
    TotalPages: Math.ceil(found.total / pageSize),
    PageSize: pageSize,
    CurrentPage: found.page,
    TotalItemsExact: found.exact,
    NextCursor: found.nextCursor,
  };
  const body = JSON.stringify(head).slice(0, -1);
  return `${body},"Items":[${items.filter((i): i is string => i !== null).join(",")}]}`;
}
