/**
 * The shipments page's filters as the search endpoint's body (POST /ffw/service/routemap), and the
 * sort toggling of its column headers. Pure.
 */
import type { RouteMapStatus } from "../../../functions/core/route-map/spec-types.ts";

export interface ShipmentFilters {
  /** yyyy-mm-dd (the date input's value) or "". */
  from: string;
  to: string;
  status: RouteMapStatus | "";
  origin: string;
  destination: string;
  /** Airline prefix, 3 digits, or "". */
  carrier: string;
}

export const NO_FILTERS: ShipmentFilters = {
  from: "",
  to: "",
  status: "",
  origin: "",
  destination: "",
  carrier: "",
};

export type SortField = "CreationDate" | "AwbNumber" | "Status" | "Origin" | "Destination";
export interface SortOrder {
  field: SortField;
  descending: boolean;
}

export const DEFAULT_SORT: SortOrder = { field: "CreationDate", descending: true };

/** Clicking a header: the same column flips its direction, another starts ascending (dates: newest first). */
export function nextSort(current: SortOrder, field: SortField): SortOrder {
  if (current.field === field) return { field, descending: !current.descending };
  return { field, descending: field === "CreationDate" };
}

/**
 * The search body. Dates filter on CreationDate (a date alone means the whole UTC day); stations are
 * sent upper-case; blank filters are left out (the API treats an absent member as "any").
 */
export function searchBody(filters: ShipmentFilters, sort: SortOrder): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const from = filters.from.trim();
  const to = filters.to.trim();
  if (from || to) body.CreationDate = { ...(from ? { From: from } : {}), ...(to ? { To: to } : {}) };
  if (filters.status) body.Status = [filters.status];
  const origin = filters.origin.trim().toUpperCase();
  const destination = filters.destination.trim().toUpperCase();
  const carrier = filters.carrier.trim();
  if (origin) body.Origin = origin;
  if (destination) body.Destination = destination;
  if (carrier) body.AirlinePrefix = carrier;
  body.Sort = `${sort.descending ? "-" : "+"}${sort.field}`;
  return body;
}

/** Page numbers the pager can go to: clamped within 1..totalPages (at least 1). */
export function clampPage(page: number, totalPages: number): number {
  return Math.min(Math.max(1, page), Math.max(1, totalPages));
}
