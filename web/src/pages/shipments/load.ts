/**
 * What the shipments page reads from the search endpoint: one page of the table (or of the
 * Exceptions view, which filters in the app), and every page of the current list for the CSV export.
 */
import { api, FFW } from "../../api.ts";
import { type ExportProgress, readAllPages } from "../../lib/export-pages.ts";
import { isException, type RouteMap, type RouteMapSearchResult } from "../../lib/route-map.ts";
import { clampPage, type ShipmentFilters, type SortOrder, searchBody } from "../../lib/search.ts";

export const PAGE_SIZE = 25;
/**
 * The Exceptions view and the export read the API's largest page (150; a larger PageSize is capped,
 * so asking more would skip nothing but would overstate what was read).
 */
export const LARGEST_PAGE = 150;
/** The Exceptions view filters in the app: it reads up to this many pages. */
const EXCEPTION_SCAN_PAGES = 8;

export interface View {
  /** The query these rows answer (filters, sort, page, view). */
  query: string;
  items: RouteMap[];
  totalItems: number;
  totalPages: number;
  /** The Exceptions view looked at fewer shipments than match the filters. */
  truncated: boolean;
  /** How many shipments the Exceptions view looked at. */
  scanned: number;
}

const searchPage = (body: Record<string, unknown>, page: number, size: number) =>
  api<RouteMapSearchResult>("POST", `${FFW}?CurrentPage=${page}&PageSize=${size}`, body);

export async function loadView(
  filters: ShipmentFilters,
  sort: SortOrder,
  page: number,
  exceptionsOnly: boolean,
): Promise<View> {
  const body = searchBody(filters, sort);
  if (!exceptionsOnly) {
    const result = await searchPage(body, page, PAGE_SIZE);
    return {
      query: "",
      items: result.Items,
      totalItems: result.TotalItems,
      totalPages: result.TotalPages,
      truncated: false,
      scanned: result.Items.length,
    };
  }
  // The search API has no "exception" filter: read the matches in big pages and keep the exceptions.
  const exceptions: RouteMap[] = [];
  let scanned = 0;
  let total = 0;
  for (let scanPage = 1; scanPage <= EXCEPTION_SCAN_PAGES; scanPage++) {
    const result = await searchPage(body, scanPage, LARGEST_PAGE);
    exceptions.push(...result.Items.filter(isException));
    scanned += result.Items.length;
    total = result.TotalItems;
    if (scanPage >= result.TotalPages) break;
  }
  const totalPages = Math.max(1, Math.ceil(exceptions.length / PAGE_SIZE));
  const current = clampPage(page, totalPages);
  return {
    query: "",
    items: exceptions.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE),
    totalItems: exceptions.length,
    totalPages,
    truncated: scanned < total,
    scanned,
  };
}

/** The current list (filters, sort, view) for the CSV export, every page of it. */
export const loadAllShipments = (
  filters: ShipmentFilters,
  sort: SortOrder,
  exceptionsOnly: boolean,
  onProgress: (progress: ExportProgress) => void,
  cancelled: () => boolean,
): Promise<RouteMap[] | null> => {
  const body = searchBody(filters, sort);
  return readAllPages((page) => searchPage(body, page, LARGEST_PAGE), exceptionsOnly, onProgress, cancelled);
};

export type { ExportProgress };
