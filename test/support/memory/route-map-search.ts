/**
 * The search side of the byReader index in memory, over a memory route-map repository's reader items,
 * with DynamoDB's Query semantics: index order (CreationDate, then AWB) in either direction, the
 * CreationDate range and the position as the key condition, `limit` items read before the other
 * filters apply (so a filtered call may return fewer matches and a position to resume from).
 * `calls` records each call, so a test sees what a search read.
 */
import type {
  ReaderIndexPosition,
  ReaderIndexQuery,
  RouteMapRepository,
  RouteMapSearchFields,
  RouteMapSearchIndex,
} from "../../../functions/core/ports/route-maps.ts";
import { matchesSearch } from "../../../functions/core/use-cases/search-route-maps.ts";

export interface MemoryRouteMapSearch extends RouteMapSearchIndex {
  readonly calls: Array<ReaderIndexQuery & { read: number }>;
}

const NO_FILTERS = {
  creationDate: null,
  deliveryDate: null,
  receiptDate: null,
  airlinePrefix: null,
  awbNumber: null,
  origin: null,
  destination: null,
  statuses: null,
};

const sortKey = (p: ReaderIndexPosition) => `${p.creationDate}#${p.awb11}`;
const positionOf = (f: RouteMapSearchFields): ReaderIndexPosition => ({
  creationDate: f.CreationDate,
  awb11: f.AirlinePrefix + f.AwbNumber,
});

export function memoryRouteMapSearch(
  routeMaps: Pick<RouteMapRepository, "queryReaders">,
): MemoryRouteMapSearch {
  const calls: MemoryRouteMapSearch["calls"] = [];
  return {
    calls,
    async readerPage(query) {
      const all = await routeMaps.queryReaders({
        readerKey: query.readerKey,
        filters: NO_FILTERS,
        limit: Number.POSITIVE_INFINITY,
      });
      const creation = query.filters.creationDate;
      const inKey = all
        .filter(
          (f) =>
            (creation?.from == null || f.CreationDate >= creation.from) &&
            (creation?.to == null || f.CreationDate <= creation.to),
        )
        .filter((f) => {
          if (!query.after) return true;
          const here = sortKey(positionOf(f));
          const after = sortKey(query.after);
          return query.descending ? here < after : here > after;
        })
        .sort((a, b) => {
          const x = sortKey(positionOf(a));
          const y = sortKey(positionOf(b));
          return (x < y ? -1 : x > y ? 1 : 0) * (query.descending ? -1 : 1);
        });
      const read = inKey.slice(0, query.limit);
      calls.push({ ...query, read: read.length });
      const last = read.at(-1);
      return {
        matches: read.filter((f) => matchesSearch(f, query.filters)),
        resumeAfter: inKey.length > query.limit && last ? positionOf(last) : null,
      };
    },
  };
}
