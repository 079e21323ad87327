/**
 * POST /ffw/service/routemap: search the route maps the caller may read. Served from the byReader
 * index: one Query per reader key of the caller (its agent code + CASS, its forwarder id for XTD
 * grants) with the CreationDate range on the sort key and the other filters as a filter expression;
 * never a table scan. Results are merged, de-duplicated, sorted and paged in memory, so one search
 * covers at most MAX_SEARCH_MATCHES route maps (narrow the CreationDate range beyond that).
 */

import { SearchTooBroadError } from "../errors.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type {
  RouteMapRepository,
  RouteMapSearchFields,
  RouteMapSearchFilters,
  SearchRange,
} from "../ports/route-maps.ts";
import { currentRouteMapJson, MAX_ROUTE_MAPS_PER_PAGE, mayRead, readerKeysOf } from "./shared/read-access.ts";

const MAX_SEARCH_MATCHES = 10_000;

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
}

export interface SearchRouteMapsInput {
  reader: ForwarderIdentity;
  filters: RouteMapSearchFilters;
  sort: SortKey[];
  /** 1-based */
  page: number;
  /** Capped at MAX_ROUTE_MAPS_PER_PAGE; the answer's PageSize is the size used. */
  pageSize: number;
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

/** The page as JSON text: `{ TotalItems, TotalPages, PageSize, CurrentPage, Items }`. */
export async function searchRouteMaps(
  deps: SearchRouteMapsDeps,
  input: SearchRouteMapsInput,
): Promise<string> {
  const perKey = await Promise.all(
    readerKeysOf(input.reader).map((readerKey) =>
      deps.routeMaps.queryReaders({ readerKey, filters: input.filters, limit: MAX_SEARCH_MATCHES + 1 }),
    ),
  );
  const byAwb = new Map<string, RouteMapSearchFields>();
  for (const fields of perKey.flat()) {
    if (matchesSearch(fields, input.filters)) byAwb.set(fields.AirlinePrefix + fields.AwbNumber, fields);
  }
  if (byAwb.size > MAX_SEARCH_MATCHES) throw new SearchTooBroadError(MAX_SEARCH_MATCHES);
  const matches = [...byAwb.values()].sort((a, b) => compare(a, b, input.sort));

  // Bounded by construction: at most MAX_ROUTE_MAPS_PER_PAGE route maps per answer (Lambda's 6 MB).
  const pageSize = Math.min(input.pageSize, MAX_ROUTE_MAPS_PER_PAGE);
  const start = (input.page - 1) * pageSize;
  const page = matches.slice(start, start + pageSize);
  const awbs = page.map((f) => ({ prefix: f.AirlinePrefix, serial: f.AwbNumber }));
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
  const total = matches.length;
  const head = {
    TotalItems: total,
    TotalPages: Math.ceil(total / pageSize),
    PageSize: pageSize,
    CurrentPage: input.page,
  };
  const body = JSON.stringify(head).slice(0, -1);
  return `${body},"Items":[${items.filter((i): i is string => i !== null).join(",")}]}`;
}
