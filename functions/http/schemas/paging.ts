/**
 * Paging of the list routes: `?CurrentPage=` (1-based, default 1) and `&PageSize=` (default 100, at
 * most 500), and the paged answer `{ TotalItems, TotalPages, PageSize, CurrentPage, Items }`.
 */
import * as v from "valibot";
import type { Page, PageRequest } from "../../core/ports/notifications.ts";

const PageNumber = (max: number, label: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, `${label} must be a whole number`),
    v.transform(Number),
    v.minValue(1, `${label} must be at least 1`),
    v.maxValue(max, `${label} must be at most ${max}`),
  );

/** The query as sent (the OpenAPI document lists one query parameter per entry). */
export const PagingQuerySchema = v.object({
  CurrentPage: v.optional(PageNumber(1_000_000, "CurrentPage"), "1"),
  PageSize: v.optional(PageNumber(500, "PageSize"), "100"),
});

/** The same query as the use cases take it: `{ page, pageSize }`. */
export const PageRequestSchema = v.pipe(
  PagingQuerySchema,
  v.transform((query): PageRequest => ({ page: query.CurrentPage, pageSize: query.PageSize })),
);

export function pagedSchema<T extends v.GenericSchema>(item: T) {
  return v.object({
    TotalItems: v.number(),
    TotalPages: v.number(),
    PageSize: v.number(),
    CurrentPage: v.number(),
    Items: v.array(item),
  });
}

export function pagedBody<T, R>(page: Page<T>, request: PageRequest, map: (item: T) => R) {
  return {
    TotalItems: page.total,
    TotalPages: Math.ceil(page.total / request.pageSize),
    PageSize: request.pageSize,
    CurrentPage: request.page,
    Items: page.items.map(map),
  };
}
