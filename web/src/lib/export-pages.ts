/**
 * Reading every page of a shipment list for the CSV export, with its progress: pure (the page reader
 * comes in), so its paging, progress and cancelling are unit tested.
 */
import { isException, type RouteMap, type RouteMapSearchResult } from "./route-map.ts";

export interface ExportProgress {
  /** Pages read so far, and how many there are (the answer's TotalPages, known after the first). */
  page: number;
  pages: number;
  /** Shipments read so far, of TotalItems. */
  read: number;
  total: number;
}

/** One page of the search as the API answers it. */
export type SearchPage = (page: number) => Promise<RouteMapSearchResult>;

/**
 * Every shipment of a list, in its order, all pages (not only the one on screen); the Exceptions view
 * keeps its exceptions. Reports progress after each page; `cancelled()` stops it between pages (the
 * export is then thrown away: null).
 */
export async function readAllPages(
  searchPage: SearchPage,
  exceptionsOnly: boolean,
  onProgress: (progress: ExportProgress) => void,
  cancelled: () => boolean,
): Promise<RouteMap[] | null> {
  const all: RouteMap[] = [];
  let read = 0;
  for (let page = 1; ; page++) {
    if (cancelled()) return null;
    const result = await searchPage(page);
    read += result.Items.length;
    all.push(...(exceptionsOnly ? result.Items.filter(isException) : result.Items));
    onProgress({ page, pages: Math.max(1, result.TotalPages), read, total: result.TotalItems });
    if (page >= result.TotalPages || result.Items.length === 0) break;
  }
  return cancelled() ? null : all;
}
