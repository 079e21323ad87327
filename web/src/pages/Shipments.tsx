/**
 * Shipments: the search endpoint as a table with filters, status chips, an Exceptions view, paging
 * and sortable columns, what each shipment expects next, refreshed every 60 s, and the whole list as
 * CSV. On a phone each row is a card and the sort buttons wrap above the cards.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { errorText } from "../api.ts";
import { formatUtcClock, offsetMinutes, utcOffsetLabel } from "../lib/format.ts";
import { awbOf, ROUTE_MAP_STATUS_WORDS, ROUTE_MAP_STATUSES, type ZoneLabel } from "../lib/route-map.ts";
import {
  clampPage,
  DEFAULT_SORT,
  NO_FILTERS,
  nextSort,
  type ShipmentFilters,
  type SortField,
  type SortOrder,
} from "../lib/search.ts";
import { useZoneLabel } from "../zones-loader.ts";
import { ExportCsv } from "./shipments/ExportCsv.tsx";
import { loadView, type View } from "./shipments/load.ts";
import { ShipmentRow } from "./shipments/ShipmentRow.tsx";

const REFRESH_MS = 60_000;

/** Until the station-zone table is in (a lazily loaded chunk), a time's zone is its UTC offset. */
const offsetLabel: ZoneLabel = (_station, pair) => utcOffsetLabel(offsetMinutes(pair));

function SortHeader({
  field,
  label,
  sort,
  onSort,
}: {
  field: SortField;
  label: string;
  sort: SortOrder;
  onSort: (field: SortField) => void;
}) {
  const active = sort.field === field;
  return (
    <th
      scope="col"
      class="sortable"
      aria-sort={active ? (sort.descending ? "descending" : "ascending") : "none"}
    >
      <button type="button" class="sort" onClick={() => onSort(field)}>
        {label}
        <span aria-hidden="true">{active ? (sort.descending ? " ▼" : " ▲") : " ↕"}</span>
      </button>
    </th>
  );
}

export function ShipmentsPage() {
  const [filters, setFilters] = useState<ShipmentFilters>(NO_FILTERS);
  const [applied, setApplied] = useState<ShipmentFilters>(NO_FILTERS);
  const [sort, setSort] = useState<SortOrder>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [exceptionsOnly, setExceptionsOnly] = useState(false);
  const [view, setView] = useState<View | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const request = useRef(0);
  // Station zones for the next-milestone times: loaded after the first render, off the first page.
  const zoneLabel = useZoneLabel() ?? offsetLabel;

  const query = JSON.stringify([applied, sort, page, exceptionsOnly]);
  const load = useCallback(async () => {
    const mine = ++request.current;
    setLoading(true);
    try {
      const loaded = await loadView(applied, sort, page, exceptionsOnly);
      if (mine !== request.current) return;
      setView({ ...loaded, query: JSON.stringify([applied, sort, page, exceptionsOnly]) });
      setError(null);
      setUpdatedAt(new Date());
    } catch (reason) {
      if (mine === request.current) setError(errorText(reason));
    } finally {
      if (mine === request.current) setLoading(false);
    }
  }, [applied, sort, page, exceptionsOnly]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  // Typing in a filter applies it after a short pause (one search per pause, not per key).
  useEffect(() => {
    const timer = setTimeout(() => {
      setApplied(filters);
      setPage(1);
    }, 350);
    return () => clearTimeout(timer);
  }, [filters]);

  const set = (name: keyof ShipmentFilters) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement | HTMLSelectElement).value;
    setFilters((current) => ({ ...current, [name]: value }));
  };

  return (
    <>
      <div class="page-head">
        <h1>Shipments</h1>
        <p class="muted" aria-live="polite">
          {loading ? "Updating…" : updatedAt ? `Updated ${formatUtcClock(updatedAt)}` : ""}
        </p>
      </div>
      <form
        class="filters"
        aria-label="Filters"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(filters);
          setPage(1);
        }}
      >
        <label>
          From
          <input type="date" value={filters.from} onInput={set("from")} />
        </label>
        <label>
          To
          <input type="date" value={filters.to} onInput={set("to")} />
        </label>
        <label>
          Status
          <select value={filters.status} onChange={set("status")}>
            <option value="">Any</option>
            {ROUTE_MAP_STATUSES.map((status) => (
              <option key={status} value={status}>
                {ROUTE_MAP_STATUS_WORDS[status]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Origin
          <input
            value={filters.origin}
            onInput={set("origin")}
            maxLength={3}
            placeholder="FRA"
            autoComplete="off"
            class="station-input"
          />
        </label>
        <label>
          Destination
          <input
            value={filters.destination}
            onInput={set("destination")}
            maxLength={3}
            placeholder="JFK"
            autoComplete="off"
            class="station-input"
          />
        </label>
        <label>
          Carrier
          <input
            value={filters.carrier}
            onInput={set("carrier")}
            maxLength={3}
            inputMode="numeric"
            placeholder="020"
            autoComplete="off"
            class="station-input"
          />
        </label>
        <div class="filter-actions">
          <button type="submit" class="secondary">
            Apply
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setFilters(NO_FILTERS);
              setApplied(NO_FILTERS);
              setPage(1);
            }}
          >
            Clear
          </button>
        </div>
      </form>

      <div class="view-switch">
        <button
          type="button"
          class="toggle"
          aria-pressed={exceptionsOnly}
          onClick={() => {
            setExceptionsOnly(!exceptionsOnly);
            setPage(1);
          }}
        >
          Exceptions
        </button>
        <span class="muted">
          {exceptionsOnly ? "Shipments with a Ko or Missing milestone, or replanned." : "All shipments."}
        </span>
        <span class="view-actions">
          <ExportCsv filters={applied} sort={sort} exceptionsOnly={exceptionsOnly} />
          <button type="button" class="secondary" onClick={() => void load()}>
            Refresh
          </button>
        </span>
      </div>

      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {view?.truncated ? (
        <p class="notice">
          Exceptions among the first {view.scanned} matching shipments; narrow the dates to see the rest.
        </p>
      ) : null}

      <div class="table-wrap">
        {/* Busy until the rows answer the current filters and sort: stale rows are never "ready". */}
        <table class="shipments stack-table" aria-busy={loading || view?.query !== query}>
          <caption class="visually-hidden">
            {exceptionsOnly ? "Shipments with exceptions" : "Shipments"}, page {page}
          </caption>
          <thead>
            <tr>
              <SortHeader
                field="AwbNumber"
                label="AWB"
                sort={sort}
                onSort={(f) => setSort(nextSort(sort, f))}
              />
              <SortHeader
                field="Status"
                label="Status"
                sort={sort}
                onSort={(f) => setSort(nextSort(sort, f))}
              />
              <SortHeader
                field="Origin"
                label="Origin"
                sort={sort}
                onSort={(f) => setSort(nextSort(sort, f))}
              />
              <SortHeader
                field="Destination"
                label="Destination"
                sort={sort}
                onSort={(f) => setSort(nextSort(sort, f))}
              />
              <th scope="col">Legs</th>
              <th scope="col">Exceptions</th>
              <th scope="col">Next milestone</th>
              <SortHeader
                field="CreationDate"
                label="Created"
                sort={sort}
                onSort={(f) => setSort(nextSort(sort, f))}
              />
            </tr>
          </thead>
          <tbody>
            {view?.items.map((map) => (
              <ShipmentRow key={awbOf(map)} map={map} zoneLabel={zoneLabel} />
            ))}
          </tbody>
        </table>
      </div>
      {view && view.items.length === 0 ? (
        <p class="empty">
          {exceptionsOnly ? "No exceptions. All shipments are on plan." : "No shipments match."}
        </p>
      ) : null}

      <nav class="pager" aria-label="Pages">
        <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Previous page
        </button>
        <span>
          Page {view ? clampPage(page, view.totalPages) : page} of {Math.max(1, view?.totalPages ?? 1)}
          {view ? ` · ${view.totalItems} shipments` : ""}
        </span>
        <button
          type="button"
          class="secondary"
          disabled={!view || page >= view.totalPages}
          onClick={() => setPage(page + 1)}
        >
          Next page
        </button>
      </nav>
    </>
  );
}
